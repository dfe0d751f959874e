package dev.hexaflow.adapters.nodes.net;

import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapSetter;
import java.net.http.HttpRequest;

/**
 * Puts the trace context current on the calling thread into an outbound request as W3C {@code traceparent} (and
 * {@code tracestate}): while a traced node runs, its span is current, so the service called sees whose call it
 * is. Where nothing is current (tracing off, a call outside a node) it adds nothing. A header of the same name the
 * workflow set is replaced, so a request never carries two.
 */
public final class TraceHeaders {

    private static final TextMapSetter<HttpRequest.Builder> SETTER = (request, name, value) -> {
        if (request != null) {
            request.setHeader(name, value);
        }
    };

    private static final TextMapSetter<java.util.Map<String, String>> MAP_SETTER = (headers, name, value) -> {
        if (headers != null) {
            headers.keySet().removeIf(key -> key.equalsIgnoreCase(name));
            headers.put(name, value);
        }
    };

    private TraceHeaders() {
    }

    /** The same, into headers kept as a map (names in any case). */
    public static void addTo(java.util.Map<String, String> headers) {
        W3CTraceContextPropagator.getInstance().inject(Context.current(), headers, MAP_SETTER);
    }

    public static void addTo(HttpRequest.Builder request) {
        W3CTraceContextPropagator.getInstance().inject(Context.current(), request, SETTER);
    }
}
