package dev.hexaflow.domain.campus;

/** The result codes of the feed with their exact messages, as the real API's /server/codes lists them. */
public enum FeedStatus {
    OK(200, "Request successful"),
    NO_DATA(204, "No data returned"),
    INVALID_CALLBACK(400, "Invalid callback: it must be a JavaScript identifier or a dotted path of identifiers"),
    INVALID_KEY(401, "Invalid API key"),
    BANNED_KEY(403, "The provided API key has been banned"),
    LIMIT_REACHED(429, "API request limit reached"),
    INVALID_METHOD(501, "Invalid method"),
    /** Hexaflow's own: the server is shutting down (the real API had no such code). */
    UNAVAILABLE(503, "Service temporarily unavailable"),
    KEY_REQUIRED(511, "API key is required (?key=)");

    private final int code;
    private final String message;

    FeedStatus(int code, String message) {
        this.code = code;
        this.message = message;
    }

    public int code() {
        return code;
    }

    public String message() {
        return message;
    }

    public boolean isSuccess() {
        return this == OK || this == NO_DATA;
    }

    /**
     * The HTTP status that carries this result: the code itself, except 204, which needs a body and so
     * travels as HTTP 200, as the real API sent it.
     */
    public int httpStatus() {
        return this == NO_DATA ? 200 : code;
    }
}
