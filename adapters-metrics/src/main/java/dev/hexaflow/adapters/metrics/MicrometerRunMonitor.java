package dev.hexaflow.adapters.metrics;

import dev.hexaflow.application.runs.port.out.RunMonitor;
import dev.hexaflow.domain.workflow.NodeExecution;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.WorkflowRun;
import dev.hexaflow.workflow.engine.RunListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts runs and times them and their nodes, and adds up the tokens model nodes report, from each run's events.
 * Meters are looked up once per app, node type and model and kept, so that an event costs a map read and an add.
 */
public final class MicrometerRunMonitor implements RunMonitor {

    /** Runs last from milliseconds (a template) to the engine's 20-minute limit. */
    static final Duration[] RUN_BUCKETS = seconds(0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 1200);
    /** Nodes: a variable assigner takes microseconds, a model call or a code node seconds. */
    static final Duration[] NODE_BUCKETS = seconds(0.001, 0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300);

    private final MeterRegistry registry;
    private final AtomicInteger active = new AtomicInteger();
    private final Map<String, AppMeters> apps = new ConcurrentHashMap<>();
    private final Map<NodeType, Timer> nodes = new ConcurrentHashMap<>();
    private final Map<ModelKey, ModelMeters> models = new ConcurrentHashMap<>();

    public MicrometerRunMonitor(MeterRegistry registry) {
        this.registry = registry;
        Gauge.builder("hexaflow.runs.active", active, AtomicInteger::get)
                .description("Runs started here that have not ended yet").register(registry);
    }

    @Override
    public RunListener watch(WatchedRun run) {
        AppMeters meters = apps.computeIfAbsent(run.appId(), this::appMeters);
        return new Watcher(run.appId(), meters);
    }

    /** One run's listener: it knows its app's meters, and whether it counted the run active. */
    private final class Watcher implements RunListener {
        private final String appId;
        private final AppMeters meters;
        private boolean started;

        Watcher(String appId, AppMeters meters) {
            this.appId = appId;
            this.meters = meters;
        }

        @Override
        public void on(RunEvent event) {
            if (event instanceof RunEvent.NodeFinished finished) {
                nodeFinished(appId, finished.execution());
            } else if (event instanceof RunEvent.WorkflowStarted) {
                started = true;
                active.incrementAndGet();
                meters.started.increment();
            } else if (event instanceof RunEvent.WorkflowPaused && started) {
                // A paused run waits for a person in the store, not here: it is under way again once resumed.
                started = false;
                active.decrementAndGet();
            } else if (event instanceof RunEvent.WorkflowResumed) {
                started = true;
                active.incrementAndGet();
            } else if (event instanceof RunEvent.WorkflowFinished finished) {
                if (started) {
                    started = false;
                    active.decrementAndGet();
                }
                WorkflowRun run = finished.run();
                meters.ended.get(run.status()).increment();
                meters.duration.record(nanos(run.elapsedTime()), TimeUnit.NANOSECONDS);
            }
        }
    }

    private void nodeFinished(String appId, NodeExecution execution) {
        nodes.computeIfAbsent(execution.nodeType(), this::nodeTimer)
                .record(nanos(execution.elapsedTime()), TimeUnit.NANOSECONDS);
        ModelUsageReport.of(execution).ifPresent(usage -> {
            ModelMeters meters = models.computeIfAbsent(new ModelKey(appId, usage.model()), this::modelMeters);
            meters.prompt.increment(usage.promptTokens());
            meters.completion.increment(usage.completionTokens());
            meters.total.increment(usage.totalTokens());
            meters.price.increment(execution.metadata().totalPrice().doubleValue());
        });
    }

    /** An app's meters: every terminal status is registered at once, so a rate of failures starts from zero. */
    private record AppMeters(Counter started, Map<RunStatus, Counter> ended, Timer duration) {
    }

    private AppMeters appMeters(String appId) {
        Counter started = Counter.builder("hexaflow.runs.started").tag("app", appId)
                .description("Runs started, by app").register(registry);
        Map<RunStatus, Counter> ended = new EnumMap<>(RunStatus.class);
        for (RunStatus status : RunStatus.values()) {
            if (status.isTerminal()) {
                ended.put(status, Counter.builder("hexaflow.runs.ended").tag("app", appId)
                        .tag("status", status.wireName()).description("Runs ended, by app and status")
                        .register(registry));
            }
        }
        Timer duration = Timer.builder("hexaflow.run.duration").tag("app", appId)
                .description("How long runs took, by app").serviceLevelObjectives(RUN_BUCKETS).register(registry);
        return new AppMeters(started, ended, duration);
    }

    private Timer nodeTimer(NodeType type) {
        return Timer.builder("hexaflow.node.duration").tag("type", type.wireName())
                .description("How long node executions took, by node type").serviceLevelObjectives(NODE_BUCKETS)
                .register(registry);
    }

    private record ModelKey(String appId, String model) {
    }

    private record ModelMeters(Counter prompt, Counter completion, Counter total, Counter price) {
    }

    private ModelMeters modelMeters(ModelKey key) {
        return new ModelMeters(tokens(key, "prompt"), tokens(key, "completion"), tokens(key, "total"),
                Counter.builder("hexaflow.model.price").tag("app", key.appId()).tag("model", key.model())
                        .description("The price model nodes reported, by app and model").register(registry));
    }

    private Counter tokens(ModelKey key, String kind) {
        return Counter.builder("hexaflow.model.tokens").tag("app", key.appId()).tag("model", key.model())
                .tag("kind", kind).description("Tokens model nodes used, by app, model and kind (prompt, "
                        + "completion, total)").register(registry);
    }

    private static long nanos(double seconds) {
        return Math.max(0, Math.round(seconds * 1e9));
    }

    private static Duration[] seconds(double... values) {
        Duration[] durations = new Duration[values.length];
        for (int i = 0; i < values.length; i++) {
            durations[i] = Duration.ofNanos(Math.round(values[i] * 1e9));
        }
        return durations;
    }
}
