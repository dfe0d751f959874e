package dev.hexaflow.adapters.http.support;

import io.javalin.http.Context;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A request that a route refuses, with the status, code and message to answer it with (and any fields that follow
 * them), in the JSON error shape {@code {"code", "message", "status", ...}} that the Service API and the admin API
 * share. A route throws it; the server maps it to its answer once, for every route.
 */
public final class HttpRefusal extends RuntimeException {

    private final int status;
    private final String code;
    private final Map<String, ?> extra;

    public HttpRefusal(int status, String code, String message) {
        this(status, code, message, Map.of());
    }

    /** A refusal whose body carries {@code extra} fields after the three standard ones. */
    public HttpRefusal(int status, String code, String message, Map<String, ?> extra) {
        // A refusal is an answer, not a failure: no stack to fill in.
        super(message, null, false, false);
        this.status = status;
        this.code = code;
        // In the order given, nulls and all: they are written as they are.
        this.extra = Collections.unmodifiableMap(new LinkedHashMap<>(extra));
    }

    /** 400 {@code invalid_param}: a body or parameter that cannot be taken. */
    public static HttpRefusal invalid(String message) {
        return new HttpRefusal(400, "invalid_param", message);
    }

    /** 404 {@code not_found}. */
    public static HttpRefusal notFound(String message) {
        return new HttpRefusal(404, "not_found", message);
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    /** Writes the refusal's answer. */
    public void answer(Context ctx) {
        JsonResponses.error(ctx, status, code, getMessage(), extra);
    }
}
