package dev.hexaflow.adapters.http.support;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.javalin.http.Context;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * JSON bodies outside the campus feed; errors in the shape of Dify's API: {@code {"code", "message", "status"}}.
 */
public final class JsonResponses {

    private static final ObjectMapper JSON = ResponseBodies.jsonMapper();

    private JsonResponses() {
    }

    public static void error(Context ctx, int status, String code, String message) {
        error(ctx, status, code, message, Map.of());
    }

    /** Sends the error with extra fields after the three standard ones. */
    public static void error(Context ctx, int status, String code, String message, Map<String, ?> extra) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("code", code);
        body.put("message", message);
        body.put("status", status);
        body.putAll(extra);
        ResponseBodies.write(ctx, status, "application/json", json(body).getBytes(StandardCharsets.UTF_8));
    }

    public static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not serializable as JSON: " + value.getClass(), e);
        }
    }
}
