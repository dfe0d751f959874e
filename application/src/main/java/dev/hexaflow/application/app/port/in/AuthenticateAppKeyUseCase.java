package dev.hexaflow.application.app.port.in;

import java.util.Optional;

/** Finds the app an API key belongs to. */
public interface AuthenticateAppKeyUseCase {

    /** The app's id, or empty when the key is no app's key. */
    Optional<String> appOf(String key);
}
