package dev.hexaflow.adapters.http.workflow;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.adapters.http.ResponseBodies;
import dev.hexaflow.adapters.http.SlowBodyException;
import dev.hexaflow.adapters.http.UnreadBodies;
import dev.hexaflow.application.app.port.in.ApiError;
import dev.hexaflow.application.app.port.in.ApiException;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.Map;

/** The JSON bodies of Service API requests, refused as Dify refuses them. */
final class JsonRequestBodies {

    private static final ObjectMapper JSON = ResponseBodies.jsonMapper();

    /** How much of a body of another type is read and dropped before its connection is closed instead. */
    private static final long REFUSED_BODY_LIMIT_BYTES = 1024 * 1024;

    private JsonRequestBodies() {
    }

    /** The body as a JSON object; anything else is Dify's invalid JSON error, or 415 for a declared other type. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> object(Context ctx) {
        String type = ctx.contentType();
        if (type != null && !type.isBlank() && !type.toLowerCase(Locale.ROOT).contains("json")) {
            // The body is refused unread: dropped first, so the connection stays fit for the client's next request.
            UnreadBodies.drain(ctx, REFUSED_BODY_LIMIT_BYTES);
            throw new ApiException(ApiError.UNSUPPORTED_MEDIA_TYPE, "Did not attempt to load JSON data because the "
                    + "request Content-Type was not 'application/json'.");
        }
        try {
            Object body = JSON.readValue(ctx.bodyAsBytes(), Object.class);
            if (body instanceof Map<?, ?> map) {
                return (Map<String, Object>) map;
            }
        } catch (IOException | RuntimeException e) {
            if (e instanceof HttpResponseException tooLarge) {
                throw tooLarge;
            }
            if (SlowBodyException.isCauseOf(e)) {
                // Not the client's JSON but its pace: the server's answer for that (408) says so.
                throw e instanceof RuntimeException unchecked ? unchecked : new UncheckedIOException(
                        (IOException) e);
            }
        }
        throw new ApiException(ApiError.INVALID_PARAM, "Invalid JSON payload received or JSON payload is empty.");
    }

    /** The body's {@code user}: text, or a number as Dify's clients sometimes send it; null otherwise. */
    static String user(Map<String, Object> body) {
        Object user = body.get("user");
        return user instanceof String || user instanceof Number ? String.valueOf(user) : null;
    }
}
