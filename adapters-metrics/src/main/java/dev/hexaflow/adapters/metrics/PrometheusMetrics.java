package dev.hexaflow.adapters.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

/**
 * The server's metrics in one Prometheus registry: the monitors the wiring plugs into the application's ports,
 * the HTTP requests the server reports, the gauges of what the wiring hands in, and the scrape in Prometheus' text
 * format. Every name and label is made here, so that {@code docs/operations.md} has one place to agree with.
 */
public final class PrometheusMetrics implements AutoCloseable {

    /** The Prometheus text exposition format that {@link #scrape()} writes. */
    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Map<HttpKey, Counter> requests = new ConcurrentHashMap<>();

    /** Watches the runs: counts, durations, node durations, model tokens. */
    public MicrometerRunMonitor runMonitor() {
        return new MicrometerRunMonitor(registry);
    }

    /** Hears webhook delivery attempts. */
    public MicrometerDeliveryMonitor deliveryMonitor() {
        return new MicrometerDeliveryMonitor(registry);
    }

    /** Hears campus feed answers. */
    public MicrometerCampusFeedMonitor campusFeedMonitor() {
        return new MicrometerCampusFeedMonitor(registry);
    }

    /**
     * Counts one answered HTTP request.
     *
     * @param route the route template that matched (such as {@code /v1/workflows/run/{task_id}}), never the raw
     *              path, which holds ids and tokens; {@code unmatched} where no route did
     */
    public void requestServed(String method, String route, int status) {
        requests.computeIfAbsent(new HttpKey(method, route, status), key -> Counter.builder("hexaflow.http.requests")
                .tag("method", key.method()).tag("route", key.route()).tag("status", String.valueOf(key.status()))
                .description("HTTP requests answered, by method, route template and status").register(registry))
                .increment();
    }

    private record HttpKey(String method, String route, int status) {
    }

    /** The run store's writes queued and not yet committed. */
    public void watchRunWriterBacklog(IntSupplier queued) {
        Gauge.builder("hexaflow.run.writer.backlog", () -> queued.getAsInt())
                .description("Run store writes queued for the single writer, not yet committed").register(registry);
    }

    /** The runs the task registry holds: those the per-app limit counts and a stop can reach. */
    public void watchTasksInFlight(IntSupplier inFlight) {
        Gauge.builder("hexaflow.tasks.in.flight", () -> inFlight.getAsInt())
                .description("Runs in flight in the task registry").register(registry);
    }

    /** Server-sent event streams being written to clients now. */
    public void watchOpenStreams(IntSupplier open) {
        Gauge.builder("hexaflow.sse.streams.active", () -> open.getAsInt())
                .description("Server-sent event streams open to clients").register(registry);
    }

    /**
     * Whether the store takes new work (1) or refuses it (0), and the free space on the data directory's disk
     * ({@code freeBytes} answers a negative number when it cannot tell).
     */
    public void watchStore(BooleanSupplier up, LongSupplier freeBytes) {
        Gauge.builder("hexaflow.store.up", () -> up.getAsBoolean() ? 1 : 0)
                .description("1 while the store takes new work, 0 while it refuses it").register(registry);
        Gauge.builder("hexaflow.store.free", () -> {
            long free = freeBytes.getAsLong();
            return free < 0 ? Double.NaN : free; // unknown, rather than a made-up number
        }).baseUnit("bytes")
                .description("Free space on the data directory's disk").register(registry);
    }

    /** Every metric now, in Prometheus' text format ({@link #CONTENT_TYPE}). */
    public String scrape() {
        return registry.scrape();
    }

    @Override
    public void close() {
        registry.close();
    }
}
