package dev.hexaflow.bench;

import com.sun.net.httpserver.HttpServer;
import dev.hexaflow.adapters.dsl.YamlWorkflowDslReader;
import dev.hexaflow.adapters.traces.OtlpTraces;
import dev.hexaflow.application.runs.port.out.RunMonitor;
import dev.hexaflow.application.runs.port.out.RunMonitor.WatchedRun;
import dev.hexaflow.domain.workflow.ExecutionMetadata;
import dev.hexaflow.domain.workflow.ModelUsage;
import dev.hexaflow.domain.workflow.NodeExecution;
import dev.hexaflow.domain.workflow.NodeStatus;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.engine.EngineConfiguration;
import dev.hexaflow.engine.Engines;
import dev.hexaflow.workflow.engine.NodeScope;
import dev.hexaflow.workflow.engine.PreparedWorkflow;
import dev.hexaflow.workflow.engine.RunListener;
import dev.hexaflow.workflow.engine.RunRequest;
import dev.hexaflow.workflow.engine.WorkflowEngine;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What traces cost a run: the events of one run of the benchmark's four-node workflow (recorded once from the real
 * engine) fed to the server's run monitor, with traces off (no monitor: the default) and on (the OpenTelemetry SDK,
 * every span sampled and batched to an OTLP/HTTP sink on loopback that answers 200), each node's span also made
 * current around its work as the engine does; the same with the sampler dropping every trace; and the same run with
 * a model node and its GenAI attributes. Each operation is one run.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 6, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@Threads(1)
public class TracesBenchmark {

    private static final WatchedRun RUN = new WatchedRun("app-1", "workflow", "run-1", "task-1", "version-1",
            "user-1");

    private final List<RunEvent> fourNodeRun = new ArrayList<>();
    private final List<RunEvent> modelRun = new ArrayList<>();
    private HttpServer sink;
    private OtlpTraces traces;
    private OtlpTraces sampledOut;
    private RunMonitor off;
    private RunMonitor on;
    private RunMonitor onSampledOut;

    @Setup
    public void setUp() throws IOException {
        WorkflowEngine engine = Engines.standard(EngineConfiguration.fromEnvironment(Map.of()));
        PreparedWorkflow workflow = engine.prepare(new YamlWorkflowDslReader()
                .read(MetricsBenchmark.FOUR_NODES.getBytes(StandardCharsets.UTF_8)));
        engine.run(workflow, RunRequest.of(workflow.workflow(), "bench", Map.of("name", "Ada")), fourNodeRun::add);
        modelRun.addAll(fourNodeRun);
        NodeExecution model = modelNode();
        modelRun.add(modelRun.size() - 1, new RunEvent.NodeStarted(model));
        modelRun.add(modelRun.size() - 1, new RunEvent.NodeFinished(model));
        sink = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        sink.createContext("/v1/traces", exchange -> {
            exchange.getRequestBody().readAllBytes();
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        sink.start();
        traces = OtlpTraces.start(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:"
                + sink.getAddress().getPort(), "OTEL_SERVICE_NAME", "bench"));
        sampledOut = OtlpTraces.start(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:"
                + sink.getAddress().getPort(), "OTEL_SERVICE_NAME", "bench", "OTEL_TRACES_SAMPLER", "always_off"));
        onSampledOut = RunMonitor.all(List.of(sampledOut.runMonitor()));
        off = RunMonitor.all(List.of());
        on = RunMonitor.all(List.of(traces.runMonitor()));
    }

    /** An llm node's end as the engine tells it: the usage in its process data. */
    private static NodeExecution modelNode() {
        Map<String, Object> usage = new ModelUsage(120, 30, 150, 0.4).asDify();
        return new NodeExecution("exec-llm", "llm", NodeType.LLM, "LLM", 5, "check", Map.of(),
                Map.of("model_name", "gpt-4o-mini", "model_provider", "openai", "usage", usage),
                Map.of("text", "hi", "usage", usage), NodeStatus.SUCCEEDED, null, 0.4,
                ExecutionMetadata.NONE.withTokens(150, BigDecimal.ZERO), 0, 1L);
    }

    @TearDown
    public void tearDown() {
        traces.close();
        sampledOut.close();
        sink.stop(0);
    }

    @Benchmark
    public int fourNodeRunTracesOff() {
        return feed(off, NodeScope.NONE, fourNodeRun);
    }

    @Benchmark
    public int fourNodeRunTracesOn() {
        return feed(on, traces.nodeScope(), fourNodeRun);
    }

    @Benchmark
    public int fourNodeRunTracesOnSampledOut() {
        return feed(onSampledOut, sampledOut.nodeScope(), fourNodeRun);
    }

    @Benchmark
    public int runWithModelNodeTracesOn() {
        return feed(on, traces.nodeScope(), modelRun);
    }

    /**
     * As the run service and the engine do: one watcher per run, skipped when it is NONE, told each event; each
     * node's scope entered and left once, after its start.
     */
    private static int feed(RunMonitor monitor, NodeScope scope, List<RunEvent> events) {
        RunListener watcher = monitor.watch(RUN);
        if (watcher == RunListener.NONE) {
            return 0;
        }
        for (RunEvent event : events) {
            watcher.on(event);
            if (event instanceof RunEvent.NodeStarted started) {
                try (NodeScope.Entered entered = scope.enter(RUN.runId(), started.execution().id())) {
                    // The node's work would run here, its span current.
                }
            }
        }
        return events.size();
    }
}
