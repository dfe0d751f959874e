package dev.hexaflow.adapters.http.serviceapi;

import dev.hexaflow.adapters.http.support.ResponseBodies;
import dev.hexaflow.adapters.http.wire.DifyWire;
import io.javalin.http.Context;
import java.nio.charset.StandardCharsets;

/** Writes a Service API answer: a body record (or Dify's mapping) as JSON, with Dify's field names. */
public final class ServiceApiBodies {

    private ServiceApiBodies() {
    }

    public static void json(Context ctx, int status, Object body) {
        ResponseBodies.write(ctx, status, "application/json; charset=utf-8",
                DifyWire.json(body).getBytes(StandardCharsets.UTF_8));
    }

    /** Writes a body already written as JSON (a blocking run's answer, by {@code CompletionJson}). */
    public static void jsonBytes(Context ctx, int status, byte[] json) {
        ResponseBodies.write(ctx, status, "application/json; charset=utf-8", json);
    }
}
