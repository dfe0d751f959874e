package dev.hexaflow.app;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * An OTLP/HTTP collector on loopback: takes {@code POST /v1/traces} in protobuf, as the SDK's exporter sends it,
 * reads it with the OTLP messages, and keeps every span with its resource's service name.
 */
final class OtlpCollector implements AutoCloseable {

    /** A span as received: ids in hex, attributes as text, its status, and the service that sent it. */
    record Received(String service, String traceId, String spanId, String parentSpanId, String name,
            Span.SpanKind kind, Map<String, String> attributes, boolean error, String statusMessage,
            long startNanos, long endNanos) {
    }

    private final HttpServer server;
    private final List<Received> spans = new CopyOnWriteArrayList<>();
    private final AtomicInteger requests = new AtomicInteger();

    OtlpCollector() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        server.createContext("/v1/traces", this::receive);
        server.start();
    }

    /** The endpoint to set as OTEL_EXPORTER_OTLP_ENDPOINT (the exporter adds /v1/traces). */
    String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    int requests() {
        return requests.get();
    }

    List<Received> spans() {
        return List.copyOf(spans);
    }

    /** The spans received once {@code done} holds of them, waiting up to ten seconds for the exporter. */
    List<Received> await(Predicate<List<Received>> done) throws InterruptedException {
        long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!done.test(spans())) {
            if (System.nanoTime() > until) {
                throw new AssertionError("the collector did not receive the spans expected; it has " + spans());
            }
            Thread.sleep(20);
        }
        return spans();
    }

    private void receive(HttpExchange exchange) throws IOException {
        try (exchange) {
            requests.incrementAndGet();
            ExportTraceServiceRequest request = ExportTraceServiceRequest.parseFrom(
                    exchange.getRequestBody().readAllBytes());
            for (ResourceSpans resource : request.getResourceSpansList()) {
                String service = attributes(resource.getResource().getAttributesList()).get("service.name");
                for (ScopeSpans scope : resource.getScopeSpansList()) {
                    scope.getSpansList().forEach(span -> spans.add(received(service, span)));
                }
            }
            byte[] answer = ExportTraceServiceResponse.getDefaultInstance().toByteArray();
            exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
            exchange.sendResponseHeaders(200, answer.length);
            exchange.getResponseBody().write(answer);
        }
    }

    private static Received received(String service, Span span) {
        HexFormat hex = HexFormat.of();
        return new Received(service, hex.formatHex(span.getTraceId().toByteArray()),
                hex.formatHex(span.getSpanId().toByteArray()), hex.formatHex(span.getParentSpanId().toByteArray()),
                span.getName(), span.getKind(), attributes(span.getAttributesList()),
                span.getStatus().getCode() == io.opentelemetry.proto.trace.v1.Status.StatusCode.STATUS_CODE_ERROR,
                span.getStatus().getMessage(), span.getStartTimeUnixNano(), span.getEndTimeUnixNano());
    }

    private static Map<String, String> attributes(List<KeyValue> values) {
        Map<String, String> attributes = new LinkedHashMap<>();
        for (KeyValue value : values) {
            AnyValue any = value.getValue();
            attributes.put(value.getKey(), any.hasIntValue() ? String.valueOf(any.getIntValue())
                    : any.hasBoolValue() ? String.valueOf(any.getBoolValue()) : any.getStringValue());
        }
        return attributes;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
