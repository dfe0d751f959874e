package dev.hexaflow.application.app.port.in;

/** The errors of the workflow service, by Dify's codes and the HTTP status each travels with. */
public enum ApiError {
    INVALID_PARAM("invalid_param", 400),
    APP_UNAVAILABLE("app_unavailable", 400),
    NOT_WORKFLOW_APP("not_workflow_app", 400),
    PROVIDER_NOT_INITIALIZE("provider_not_initialize", 400),
    NO_FILE_UPLOADED("no_file_uploaded", 400),
    TOO_MANY_FILES("too_many_files", 400),
    FILENAME_NOT_EXISTS("filename_not_exists_error", 400),
    UNAUTHORIZED("unauthorized", 401),
    FORBIDDEN("forbidden", 403),
    NOT_FOUND("not_found", 404),
    FILE_TOO_LARGE("file_too_large", 413),
    UNSUPPORTED_FILE_TYPE("unsupported_file_type", 415),
    UNSUPPORTED_MEDIA_TYPE("unsupported_media_type", 415),
    TOO_MANY_REQUESTS("too_many_requests", 429),
    SERVICE_UNAVAILABLE("service_unavailable", 503),
    INSUFFICIENT_STORAGE("insufficient_storage", 507);

    private final String code;
    private final int status;

    ApiError(String code, int status) {
        this.code = code;
        this.status = status;
    }

    public String code() {
        return code;
    }

    public int status() {
        return status;
    }
}
