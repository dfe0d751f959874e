package dev.hexaflow.app.wiring;

import dev.hexaflow.adapters.http.metrics.MetricsRoutes;
import dev.hexaflow.adapters.http.server.RequestObserver;
import dev.hexaflow.adapters.http.server.RequestTracing;
import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.http.sse.RunEventStream;
import dev.hexaflow.adapters.metrics.PrometheusMetrics;
import dev.hexaflow.adapters.traces.OtlpTraces;
import dev.hexaflow.app.adapters.Slf4jRunMonitor;
import dev.hexaflow.app.config.Configuration;
import dev.hexaflow.app.config.MetricsSettings;
import dev.hexaflow.app.config.TraceSettings;
import dev.hexaflow.application.campus.port.out.CampusFeedMonitor;
import dev.hexaflow.application.common.port.out.StorageHealth;
import dev.hexaflow.application.runs.port.in.DrainRunsUseCase;
import dev.hexaflow.application.runs.port.out.RunMonitor;
import dev.hexaflow.application.webhooks.port.out.DeliveryMonitor;
import dev.hexaflow.domain.secret.SecretHash;
import dev.hexaflow.workflow.engine.NodeScope;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.IntSupplier;

/**
 * What lets an operator see the server at work: each part (log lines, metrics, traces) watches the runs through
 * one {@link RunMonitor}, made here from the settings and closed with the server. Metrics, when the operator turns
 * them on, also hear webhook deliveries, campus feed answers and HTTP requests, and read the gauges handed to
 * {@link #watch}; {@code GET /metrics} is mounted only then. Traces, when an OTLP endpoint is set, also see each
 * request and make a node's span current where it runs; off, no SDK is built.
 */
public final class Observability implements AutoCloseable {

    private final List<RunMonitor> monitors = new ArrayList<>();
    private final List<AutoCloseable> parts = new ArrayList<>();
    private final Optional<PrometheusMetrics> metrics;
    private final MetricsSettings metricsSettings;
    private final Optional<OtlpTraces> traces;

    private Observability(MetricsSettings settings, TraceSettings traceSettings) {
        this.metricsSettings = settings;
        this.metrics = settings.on() ? Optional.of(new PrometheusMetrics()) : Optional.empty();
        metrics.ifPresent(on -> {
            parts.add(on);
            monitors.add(on.runMonitor());
        });
        this.traces = traceSettings.on() ? Optional.of(OtlpTraces.start(traceSettings.otel())) : Optional.empty();
        traces.ifPresent(on -> {
            parts.add(on);
            // First, so that the run's span is open before the other watchers hear of it.
            monitors.add(0, on.runMonitor());
        });
    }

    /** The parts the settings turn on; log lines are always on (a failed run is one warning). */
    public static Observability of(Configuration config) {
        Observability observability = new Observability(config.metrics(), config.traces());
        observability.monitors.add(new Slf4jRunMonitor());
        return observability;
    }

    /** Nothing watched: for servers made in tests that look at none of it. */
    public static Observability none() {
        return new Observability(MetricsSettings.OFF, TraceSettings.OFF);
    }

    /** What the engine tells of each node attempt, on its thread: the node's span made current there. */
    public NodeScope nodes() {
        return traces.map(OtlpTraces::nodeScope).orElse(NodeScope.NONE);
    }

    /** What begins each HTTP request's span, the child of the trace context it came with. */
    public RequestTracing traceRequests() {
        return traces.<RequestTracing>map(on -> (method, header) -> {
            var span = on.beginRequest(method, header);
            return new RequestTracing.Traced() {
                @Override
                public void leave() {
                    span.leave();
                }

                @Override
                public void end(int status) {
                    span.end(status);
                }
            };
        }).orElse(RequestTracing.NONE);
    }

    /** Every part's watcher of runs, as one. */
    public RunMonitor runs() {
        return RunMonitor.all(monitors);
    }

    /** What hears webhook delivery attempts. */
    public DeliveryMonitor deliveries() {
        return metrics.<DeliveryMonitor>map(PrometheusMetrics::deliveryMonitor).orElse(DeliveryMonitor.NONE);
    }

    /** What hears the campus feed's answers. */
    public CampusFeedMonitor campusFeed() {
        return metrics.<CampusFeedMonitor>map(PrometheusMetrics::campusFeedMonitor).orElse(CampusFeedMonitor.NONE);
    }

    /** What hears each answered HTTP request. */
    public RequestObserver requests() {
        return metrics.<RequestObserver>map(on -> on::requestServed).orElse(RequestObserver.NONE);
    }

    /** {@code GET /metrics}, when metrics are on. */
    public List<RouteGroup> routes() {
        return metrics.<List<RouteGroup>>map(on -> List.of(new MetricsRoutes(on::scrape, PrometheusMetrics.CONTENT_TYPE,
                metricsSettings.token().map(SecretHash::of)))).orElse(List.of());
    }

    /**
     * The gauges of a running server: the run store's write backlog, the runs in flight, the open event streams,
     * and the store's health and free disk under {@code dataDir}.
     */
    public void watch(IntSupplier writeBacklog, DrainRunsUseCase runs, StorageHealth store, Path dataDir) {
        metrics.ifPresent(on -> {
            on.watchRunWriterBacklog(writeBacklog);
            on.watchTasksInFlight(() -> runs.inFlight().size());
            on.watchOpenStreams(RunEventStream::openStreams);
            on.watchStore(() -> store.problem().isEmpty(), () -> freeBytes(dataDir));
        });
    }

    private static long freeBytes(Path dataDir) {
        try {
            return Files.getFileStore(dataDir).getUsableSpace();
        } catch (IOException e) {
            return -1; // unknown: a scrape still answers
        }
    }

    @Override
    public void close() {
        for (AutoCloseable part : parts) {
            try {
                part.close();
            } catch (Exception e) {
                // Closing: a part that fails to close leaves nothing to keep.
            }
        }
    }
}
