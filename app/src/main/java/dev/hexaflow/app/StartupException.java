package dev.hexaflow.app;

/** The server cannot start for a reason the operator can fix: a one-line message, exit code 1. */
public final class StartupException extends RuntimeException {

    public StartupException(String message, Throwable cause) {
        super(message, cause);
    }

    public StartupException(String message) {
        super(message);
    }
}
