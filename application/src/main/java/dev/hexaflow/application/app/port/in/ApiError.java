package dev.hexaflow.application.app.port.in;

/**
 * The kinds of refusal of the workflow service, one per error Dify's Service API answers; how each travels
 * (its code on the wire and its HTTP status) is the HTTP adapter's business.
 */
public enum ApiError {
    INVALID_PARAM,
    APP_UNAVAILABLE,
    NOT_WORKFLOW_APP,
    PROVIDER_NOT_INITIALIZE,
    NO_FILE_UPLOADED,
    TOO_MANY_FILES,
    FILENAME_NOT_EXISTS,
    UNAUTHORIZED,
    FORBIDDEN,
    NOT_FOUND,
    FILE_TOO_LARGE,
    UNSUPPORTED_FILE_TYPE,
    UNSUPPORTED_MEDIA_TYPE,
    TOO_MANY_REQUESTS,
    SERVICE_UNAVAILABLE,
    INSUFFICIENT_STORAGE
}
