package dev.hexaflow.application.apps.port.out;

import dev.hexaflow.domain.app.EndUser;
import java.util.Optional;

/** Keeps an app's end users by the session id clients send as {@code user}. */
public interface EndUserRepository {

    /** The end user, made from {@code candidate} on first use; concurrent first uses agree on one. */
    EndUser findOrAdd(EndUser candidate);

    Optional<EndUser> find(String appId, String sessionId);

    /** The app's end user with this id; none for another app's. */
    Optional<EndUser> findById(String appId, String id);
}
