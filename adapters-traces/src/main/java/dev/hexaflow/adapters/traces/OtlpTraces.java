package dev.hexaflow.adapters.traces;

import dev.hexaflow.application.runs.port.out.RunMonitor;
import dev.hexaflow.workflow.engine.NodeScope;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The OpenTelemetry SDK of a server that traces, made by the SDK's autoconfiguration from the standard
 * {@code OTEL_*} settings (exporter endpoint, protocol, headers, sampler, resource, batching) and exporting traces
 * alone: metrics and logs have their own parts. Closing flushes the spans not yet sent.
 */
public final class OtlpTraces implements AutoCloseable {

    private final OpenTelemetrySdk sdk;
    private final NodeSpans nodes = new NodeSpans();
    private final OpenTelemetryRunMonitor runs;
    private final RequestSpans requests;

    private OtlpTraces(OpenTelemetrySdk sdk) {
        this.sdk = sdk;
        Tracer tracer = sdk.getTracer("dev.hexaflow");
        this.runs = new OpenTelemetryRunMonitor(tracer, nodes);
        TextMapPropagator propagator = sdk.getPropagators().getTextMapPropagator();
        this.requests = new RequestSpans(tracer, propagator);
    }

    /**
     * Builds the SDK from {@code settings}, the {@code OTEL_*} variables by their environment names; the
     * caller has decided that tracing is on.
     */
    public static OtlpTraces start(Map<String, String> settings) {
        Map<String, String> properties = properties(settings);
        OpenTelemetrySdk sdk = AutoConfiguredOpenTelemetrySdk.builder()
                .addPropertiesCustomizer(config -> properties)
                .disableShutdownHook()
                .build()
                .getOpenTelemetrySdk();
        return new OtlpTraces(sdk);
    }

    /** The settings as the SDK's property names ({@code OTEL_BSP_SCHEDULE_DELAY} is otel.bsp.schedule.delay). */
    static Map<String, String> properties(Map<String, String> settings) {
        Map<String, String> properties = new HashMap<>();
        settings.forEach((name, value) -> properties.put(name.toLowerCase(Locale.ROOT).replace('_', '.'), value));
        properties.putIfAbsent("otel.traces.exporter", "otlp");
        // The JDK's sender speaks OTLP over HTTP only; gRPC would need OkHttp or grpc-java.
        properties.putIfAbsent("otel.exporter.otlp.protocol", "http/protobuf");
        // Traces only: the server's metrics are Prometheus' (HEXAFLOW_METRICS) and its logs go to standard error.
        properties.put("otel.metrics.exporter", "none");
        properties.put("otel.logs.exporter", "none");
        return properties;
    }

    /** Watches each run: its span, and its node executions' spans. */
    public RunMonitor runMonitor() {
        return runs;
    }

    /** Makes a node execution's span current on the thread that runs it. */
    public NodeScope nodeScope() {
        return nodes;
    }

    /**
     * Opens a request's server span, the child of the {@code traceparent} it came with, and makes it current on
     * the calling thread; {@code header} answers a request header by name (null when absent).
     */
    public RequestSpans.RequestSpan beginRequest(String method, java.util.function.Function<String, String> header) {
        return requests.begin(method, header);
    }

    @Override
    public void close() {
        sdk.getSdkTracerProvider().forceFlush().join(10, TimeUnit.SECONDS);
        sdk.shutdown().join(10, TimeUnit.SECONDS);
    }
}
