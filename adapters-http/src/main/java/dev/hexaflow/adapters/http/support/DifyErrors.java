package dev.hexaflow.adapters.http.support;

import dev.hexaflow.application.common.ApiError;
import io.javalin.http.Context;

/**
 * How each refusal of the workflow service travels on the wire: Dify's error code and the HTTP status it comes
 * with, in Dify's body {@code {"code", "message", "status"}}.
 */
public final class DifyErrors {

    private DifyErrors() {
    }

    /** Dify's code for the refusal. */
    public static String code(ApiError error) {
        return switch (error) {
            case INVALID_PARAM -> "invalid_param";
            case APP_UNAVAILABLE -> "app_unavailable";
            case NOT_WORKFLOW_APP -> "not_workflow_app";
            case NOT_CHAT_APP -> "not_chat_app";
            case CONVERSATION_COMPLETED -> "conversation_completed";
            case BAD_REQUEST -> "bad_request";
            case PROVIDER_NOT_INITIALIZE -> "provider_not_initialize";
            case COMPLETION_REQUEST_ERROR -> "completion_request_error";
            case NO_FILE_UPLOADED -> "no_file_uploaded";
            case TOO_MANY_FILES -> "too_many_files";
            case FILENAME_NOT_EXISTS -> "filename_not_exists_error";
            case UNAUTHORIZED -> "unauthorized";
            case FORBIDDEN -> "forbidden";
            case NOT_FOUND -> "not_found";
            case FILE_TOO_LARGE -> "file_too_large";
            case REQUEST_TOO_LARGE -> "request_entity_too_large";
            case UNSUPPORTED_FILE_TYPE -> "unsupported_file_type";
            case UNSUPPORTED_MEDIA_TYPE -> "unsupported_media_type";
            case NO_AUDIO_UPLOADED -> "no_audio_uploaded";
            case AUDIO_TOO_LARGE -> "audio_too_large";
            case UNSUPPORTED_AUDIO_TYPE -> "unsupported_audio_type";
            case PROVIDER_NOT_SUPPORT_SPEECH_TO_TEXT -> "provider_not_support_speech_to_text";
            case TOO_MANY_REQUESTS -> "too_many_requests";
            case IDEMPOTENCY_KEY_CONFLICT -> "idempotency_key_conflict";
            case SERVICE_UNAVAILABLE -> "service_unavailable";
            case INSUFFICIENT_STORAGE -> "insufficient_storage";
            case INVALID_FORM_DATA -> "invalid_form_data";
            case HUMAN_INPUT_FORM_SUBMITTED -> "human_input_form_submitted";
            case HUMAN_INPUT_FORM_EXPIRED -> "human_input_form_expired";
            case END_USER_NOT_FOUND -> "end_user_not_found";
            case FILE_NOT_FOUND -> "file_not_found";
            case FILE_ACCESS_DENIED -> "file_access_denied";
            case BUDGET_EXCEEDED -> "budget_exceeded";
        };
    }

    /** The HTTP status the refusal comes with. */
    public static int status(ApiError error) {
        return switch (error) {
            case INVALID_PARAM, APP_UNAVAILABLE, NOT_WORKFLOW_APP, NOT_CHAT_APP, CONVERSATION_COMPLETED,
                    BAD_REQUEST, PROVIDER_NOT_INITIALIZE, COMPLETION_REQUEST_ERROR, NO_FILE_UPLOADED,
                    TOO_MANY_FILES, FILENAME_NOT_EXISTS, NO_AUDIO_UPLOADED, PROVIDER_NOT_SUPPORT_SPEECH_TO_TEXT,
                    INVALID_FORM_DATA -> 400;
            case UNAUTHORIZED -> 401;
            case FORBIDDEN -> 403;
            case NOT_FOUND -> 404;
            case FILE_TOO_LARGE, AUDIO_TOO_LARGE, REQUEST_TOO_LARGE -> 413;
            case UNSUPPORTED_FILE_TYPE, UNSUPPORTED_MEDIA_TYPE, UNSUPPORTED_AUDIO_TYPE -> 415;
            case IDEMPOTENCY_KEY_CONFLICT -> 409;
            case TOO_MANY_REQUESTS -> 429;
            case SERVICE_UNAVAILABLE -> 503;
            case INSUFFICIENT_STORAGE -> 507;
            case HUMAN_INPUT_FORM_SUBMITTED, HUMAN_INPUT_FORM_EXPIRED -> 412;
            case END_USER_NOT_FOUND, FILE_NOT_FOUND -> 404;
            case FILE_ACCESS_DENIED -> 403;
            case BUDGET_EXCEEDED -> 429;
        };
    }

    /**
     * Answers the refusal: a missing or bad key with the scheme to use, a refusal that passes with time (the
     * store full, the server shutting down) with when to try again.
     */
    public static void send(Context ctx, ApiError error, String message) {
        send(ctx, error, message, 0);
    }

    /** As above, telling the client when to try again where the refusal says ({@code retryAfterSeconds} > 0). */
    public static void send(Context ctx, ApiError error, String message, long retryAfterSeconds) {
        if (retryAfterSeconds > 0) {
            ctx.header("Retry-After", String.valueOf(retryAfterSeconds));
        }
        if (error == ApiError.UNAUTHORIZED) {
            ctx.header("WWW-Authenticate", "Bearer realm=\"api\"");
        }
        if (retryAfterSeconds == 0 && (error == ApiError.SERVICE_UNAVAILABLE
                || error == ApiError.INSUFFICIENT_STORAGE)) {
            ctx.header("Retry-After", "5");
        }
        JsonResponses.error(ctx, status(error), code(error), message);
    }
}
