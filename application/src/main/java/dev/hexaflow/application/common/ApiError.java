package dev.hexaflow.application.common;

/**
 * The kinds of refusal of the workflow and chat services, one per error Dify's Service API answers; how each travels
 * (its code on the wire and its HTTP status) is the HTTP adapter's business.
 */
public enum ApiError {
    INVALID_PARAM,
    APP_UNAVAILABLE,
    NOT_WORKFLOW_APP,
    /** A chat endpoint asked of an app that is not a chatflow. */
    NOT_CHAT_APP,
    /** A message sent to a conversation that has ended. */
    CONVERSATION_COMPLETED,
    /** Dify's werkzeug BadRequest: a request it refuses without a code of its own. */
    BAD_REQUEST,
    PROVIDER_NOT_INITIALIZE,
    /** Dify's CompletionRequestError: the model endpoint (or the speech one) failed the call. */
    COMPLETION_REQUEST_ERROR,
    NO_FILE_UPLOADED,
    TOO_MANY_FILES,
    FILENAME_NOT_EXISTS,
    UNAUTHORIZED,
    FORBIDDEN,
    NOT_FOUND,
    FILE_TOO_LARGE,
    /** A request body over what the server takes (Dify's nginx answers 413 too). */
    REQUEST_TOO_LARGE,
    UNSUPPORTED_FILE_TYPE,
    UNSUPPORTED_MEDIA_TYPE,
    /** Audio-to-text asked without an audio file. */
    NO_AUDIO_UPLOADED,
    /** Audio-to-text given more audio than Dify takes. */
    AUDIO_TOO_LARGE,
    /** Audio-to-text given a file that is not one of Dify's audio types. */
    UNSUPPORTED_AUDIO_TYPE,
    /** Audio-to-text asked of a server with no speech-to-text endpoint. */
    PROVIDER_NOT_SUPPORT_SPEECH_TO_TEXT,
    TOO_MANY_REQUESTS,
    /** Hexaflow's extension: an idempotency key used again with another request body. */
    IDEMPOTENCY_KEY_CONFLICT,
    SERVICE_UNAVAILABLE,
    INSUFFICIENT_STORAGE,
    /** A human-input form's answer that does not fit the form (Dify's InvalidFormDataError, 400). */
    INVALID_FORM_DATA,
    /** A human-input form answered already (412). */
    HUMAN_INPUT_FORM_SUBMITTED,
    /** A human-input form whose time ran out, or whose run ended (412). */
    HUMAN_INPUT_FORM_EXPIRED,
    /** An end user id the app does not know (Dify's EndUserNotFoundError, 404). */
    END_USER_NOT_FOUND,
    /** A file the app cannot show, as none of its records names it (Dify's FileNotFoundError, 404). */
    FILE_NOT_FOUND,
    /** A file another app's records name (Dify's FileAccessDeniedError, 403). */
    FILE_ACCESS_DENIED,
    /** Hexaflow's extension: a token or price budget of the app, its key or its end user is spent (429). */
    BUDGET_EXCEEDED
}
