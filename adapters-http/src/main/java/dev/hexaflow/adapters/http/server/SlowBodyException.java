package dev.hexaflow.adapters.http.server;

import java.util.concurrent.TimeoutException;

/** A request body that arrived slower than the least rate of {@link ClientLimits}: its request fails. */
public final class SlowBodyException extends TimeoutException {

    SlowBodyException(String message) {
        super(message);
    }

    /** Whether {@code failure} came of a slow body, however a reader wrapped it. */
    public static boolean isCauseOf(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SlowBodyException) {
                return true;
            }
        }
        return false;
    }
}
