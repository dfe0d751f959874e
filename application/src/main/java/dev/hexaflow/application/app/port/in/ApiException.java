package dev.hexaflow.application.app.port.in;

/** A request the workflow service refuses, with Dify's code and message. */
public class ApiException extends RuntimeException {

    private final ApiError error;

    public ApiException(ApiError error, String message) {
        super(message);
        this.error = error;
    }

    public ApiError error() {
        return error;
    }
}
