package dev.hexaflow.app.cli;

/** The command line or the environment asked for something that cannot be: a one-line message, exit code 2. */
public final class UsageException extends RuntimeException {

    public UsageException(String message) {
        super(message);
    }
}
