package dev.hexaflow.application.common;

/** A request the workflow service refuses, with Dify's code and message. */
public class ApiException extends RuntimeException {

    private final ApiError error;
    private final long retryAfterSeconds;

    public ApiException(ApiError error, String message) {
        super(message);
        this.error = error;
        this.retryAfterSeconds = 0;
    }

    /** A refusal that passes with time: the client is told to try again after {@code retryAfterSeconds}. */
    public ApiException(ApiError error, String message, long retryAfterSeconds) {
        super(message);
        this.error = error;
        this.retryAfterSeconds = Math.max(0, retryAfterSeconds);
    }

    /** A refusal that another failure caused (the store out of reach), kept for the operator's log. */
    public ApiException(ApiError error, String message, Throwable cause) {
        super(message, cause);
        this.error = error;
        this.retryAfterSeconds = 0;
    }

    public ApiError error() {
        return error;
    }

    /** Whole seconds after which the request may succeed (its {@code Retry-After}); 0 when it does not say. */
    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
