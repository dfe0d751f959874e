package dev.hexaflow.adapters.http.support;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.adapters.http.server.RequestLimits;
import dev.hexaflow.adapters.http.server.SlowBodyException;
import dev.hexaflow.adapters.http.server.UnreadBodies;
import dev.hexaflow.adapters.http.support.ResponseBodies;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The JSON bodies of Service API requests, refused as Dify refuses them, and held to the server's
 * {@link RequestLimits} before any of it reaches a use case.
 */
public final class JsonRequestBodies {

    private static final ObjectMapper JSON = ResponseBodies.jsonMapper();

    /** How much of a body of another type is read and dropped before its connection is closed instead. */
    private static final long REFUSED_BODY_LIMIT_BYTES = 1024 * 1024;

    private final RequestLimits limits;

    public JsonRequestBodies(RequestLimits limits) {
        this.limits = limits;
    }

    /**
     * The body as a JSON object; anything else is Dify's invalid JSON error, or 415 for a declared other type.
     *
     * @throws ApiException REQUEST_TOO_LARGE for a body over the limit, INVALID_PARAM for a text over it
     */
    @SuppressWarnings("unchecked")
    public Map<String, Object> object(Context ctx) {
        String type = ctx.contentType();
        if (type != null && !type.isBlank() && !type.toLowerCase(Locale.ROOT).contains("json")) {
            // The body is refused unread: dropped first, so the connection stays fit for the client's next request.
            UnreadBodies.drain(ctx, REFUSED_BODY_LIMIT_BYTES);
            throw new ApiException(ApiError.UNSUPPORTED_MEDIA_TYPE, "Did not attempt to load JSON data because the "
                    + "request Content-Type was not 'application/json'.");
        }
        if (ctx.contentLength() > limits.maxJsonBytes()) {
            UnreadBodies.drain(ctx, REFUSED_BODY_LIMIT_BYTES);
            throw tooLarge();
        }
        try {
            byte[] bytes = ctx.bodyAsBytes();
            if (bytes.length > limits.maxJsonBytes()) {
                throw tooLarge();
            }
            Object body = JSON.readValue(bytes, Object.class);
            if (body instanceof Map<?, ?> map) {
                checkTexts("", map);
                return (Map<String, Object>) map;
            }
        } catch (IOException | RuntimeException e) {
            if (e instanceof HttpResponseException || e instanceof ApiException) {
                throw (RuntimeException) e;
            }
            if (SlowBodyException.isCauseOf(e)) {
                // Not the client's JSON but its pace: the server's answer for that (408) says so.
                throw e instanceof RuntimeException unchecked ? unchecked : new UncheckedIOException(
                        (IOException) e);
            }
        }
        throw new ApiException(ApiError.INVALID_PARAM, "Invalid JSON payload received or JSON payload is empty.");
    }

    private ApiException tooLarge() {
        return new ApiException(ApiError.REQUEST_TOO_LARGE, "The request body is larger than "
                + limits.maxJsonBytes() / 1024 + " KB, the most this server takes.");
    }

    /** Refuses the first text (a value or a key) longer than the limit, naming where it is in the body. */
    private void checkTexts(String path, Object value) {
        if (value instanceof String text) {
            refuseLong(path.isEmpty() ? "A text" : path, text);
        } else if (value instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                String key = String.valueOf(entry.getKey());
                refuseLong(path.isEmpty() ? "A key" : "A key of " + path, key);
                checkTexts(path.isEmpty() ? key : path + "." + key, entry.getValue());
            }
        } else if (value instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                checkTexts(path + "[" + i + "]", list.get(i));
            }
        }
    }

    private void refuseLong(String what, String text) {
        if (text.length() > limits.maxTextChars()) {
            String named = what.length() > 100 ? what.substring(0, 100) + "…" : what;
            throw new ApiException(ApiError.INVALID_PARAM, named + " must be at most " + limits.maxTextChars()
                    + " characters.");
        }
    }

    /** The body's {@code user}: text, or a number as Dify's clients sometimes send it; null otherwise. */
    public static String user(Map<String, Object> body) {
        Object user = body.get("user");
        return user instanceof String || user instanceof Number ? String.valueOf(user) : null;
    }
}
