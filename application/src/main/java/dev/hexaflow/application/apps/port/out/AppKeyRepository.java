package dev.hexaflow.application.apps.port.out;

import dev.hexaflow.domain.app.AppKey;
import dev.hexaflow.domain.secret.SecretHash;
import java.util.Optional;

/** Keeps app API keys by the hash of the key. */
public interface AppKeyRepository {

    void add(AppKey key);

    Optional<AppKey> find(SecretHash hash);

    /** Deletes the app's key; answers false when the app has no such key. */
    boolean delete(String appId, SecretHash hash);
}
