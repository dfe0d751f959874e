package dev.hexaflow.application.common;

/** The end user a Service API request acts for, as every context checks it alike. */
public final class EndUsers {

    /** An end user's id, as Dify keeps it: at most 255 characters. */
    public static final int MAX_ID_LENGTH = 255;

    private EndUsers() {
    }

    /**
     * The end user's id the request names.
     *
     * @throws ApiException INVALID_PARAM "Arg user must be provided." when it names none, or one too long
     */
    public static String requireId(String user) {
        if (user == null || user.isBlank()) {
            throw new ApiException(ApiError.INVALID_PARAM, "Arg user must be provided.");
        }
        if (user.length() > MAX_ID_LENGTH) {
            throw new ApiException(ApiError.INVALID_PARAM, "Arg user must be at most " + MAX_ID_LENGTH
                    + " characters.");
        }
        return user;
    }
}
