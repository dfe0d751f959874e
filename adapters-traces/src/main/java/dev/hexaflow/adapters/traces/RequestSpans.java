package dev.hexaflow.adapters.traces;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import java.util.List;
import java.util.function.Function;

/**
 * A server span per HTTP request, the child of the trace context the request came with ({@code traceparent}, or
 * what {@code OTEL_PROPAGATORS} names), made current on the request's thread while it is handled: a run started
 * there is its child. It names the method and the status, never the path or the query (they hold ids and keys).
 */
public final class RequestSpans {

    static final AttributeKey<String> METHOD = AttributeKey.stringKey("http.request.method");
    static final AttributeKey<Long> STATUS = AttributeKey.longKey("http.response.status_code");

    private static final TextMapGetter<Function<String, String>> HEADERS = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Function<String, String> carrier) {
            return List.of();
        }

        @Override
        public String get(Function<String, String> carrier, String key) {
            return carrier == null ? null : carrier.apply(key);
        }
    };

    private final Tracer tracer;
    private final TextMapPropagator propagator;

    RequestSpans(Tracer tracer, TextMapPropagator propagator) {
        this.tracer = tracer;
        this.propagator = propagator;
    }

    RequestSpan begin(String method, Function<String, String> header) {
        Context parent = propagator.extract(Context.root(), header, HEADERS);
        Span span = tracer.spanBuilder(method).setParent(parent).setSpanKind(SpanKind.SERVER)
                .setAttribute(METHOD, method).startSpan();
        return new RequestSpan(span, parent.with(span).makeCurrent());
    }

    /** A request's span: current on its thread until {@link #leave}, ended by {@link #end}. */
    public static final class RequestSpan {
        private final Span span;
        private final Scope scope;

        RequestSpan(Span span, Scope scope) {
            this.span = span;
            this.scope = scope;
        }

        /** The thread that began the request is done with it (its answer may still be on its way). */
        public void leave() {
            scope.close();
        }

        /** The answer is complete, with {@code status}. */
        public void end(int status) {
            span.setAttribute(STATUS, (long) status);
            if (status >= 500) {
                span.setStatus(StatusCode.ERROR);
            }
            span.end();
        }
    }
}
