package dev.hexaflow.application.common;

/** A request the workflow service refuses, with Dify's code and message. */
public class ApiException extends RuntimeException {

    private final ApiError error;

    public ApiException(ApiError error, String message) {
        super(message);
        this.error = error;
    }

    /** A refusal that another failure caused (the store out of reach), kept for the operator's log. */
    public ApiException(ApiError error, String message, Throwable cause) {
        super(message, cause);
        this.error = error;
    }

    public ApiError error() {
        return error;
    }
}
