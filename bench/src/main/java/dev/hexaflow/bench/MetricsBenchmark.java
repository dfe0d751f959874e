package dev.hexaflow.bench;

import dev.hexaflow.adapters.dsl.YamlWorkflowDslReader;
import dev.hexaflow.adapters.metrics.PrometheusMetrics;
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
import dev.hexaflow.workflow.engine.PreparedWorkflow;
import dev.hexaflow.workflow.engine.RunListener;
import dev.hexaflow.workflow.engine.RunRequest;
import dev.hexaflow.workflow.engine.WorkflowEngine;
import java.math.BigDecimal;
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
 * What metrics cost a run: the events of one run of the benchmark's four-node workflow (recorded once from the
 * real engine) fed to the server's run monitor, with metrics off (no monitor: what the server does by default) and
 * on (Micrometer's Prometheus registry), and the same run with a model node that reports its tokens; and one HTTP
 * request counted. Each operation is one run, or one request.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@Threads(1)
public class MetricsBenchmark {

    private static final WatchedRun RUN = new WatchedRun("app-1", "workflow", "run-1", "task-1", "version-1",
            "user-1");

    private final List<RunEvent> fourNodeRun = new ArrayList<>();
    private final List<RunEvent> modelRun = new ArrayList<>();
    private PrometheusMetrics metrics;
    private RunMonitor off;
    private RunMonitor on;

    @Setup
    public void setUp() {
        WorkflowEngine engine = Engines.standard(EngineConfiguration.fromEnvironment(Map.of()));
        PreparedWorkflow workflow = engine.prepare(new YamlWorkflowDslReader()
                .read(FOUR_NODES.getBytes(StandardCharsets.UTF_8)));
        engine.run(workflow, RunRequest.of(workflow.workflow(), "bench", Map.of("name", "Ada")), fourNodeRun::add);
        modelRun.addAll(fourNodeRun);
        modelRun.add(modelRun.size() - 1, new RunEvent.NodeFinished(modelNode()));
        metrics = new PrometheusMetrics();
        off = RunMonitor.all(List.of());
        on = RunMonitor.all(List.of(metrics.runMonitor()));
    }

    /** An llm node's end as the engine tells it: the usage in its process data. */
    private static NodeExecution modelNode() {
        Map<String, Object> usage = new ModelUsage(120, 30, 150, 0.4).asDify();
        return new NodeExecution("exec-llm", "llm", NodeType.LLM, "LLM", 5, "check", Map.of(),
                Map.of("model_name", "gpt-4o-mini", "usage", usage), Map.of("text", "hi", "usage", usage),
                NodeStatus.SUCCEEDED, null, 0.4, ExecutionMetadata.NONE.withTokens(150, BigDecimal.ZERO), 0, 1L);
    }

    @TearDown
    public void tearDown() {
        metrics.close();
    }

    @Benchmark
    public int fourNodeRunMetricsOff() {
        return feed(off, fourNodeRun);
    }

    @Benchmark
    public int fourNodeRunMetricsOn() {
        return feed(on, fourNodeRun);
    }

    @Benchmark
    public int runWithModelTokensMetricsOn() {
        return feed(on, modelRun);
    }

    @Benchmark
    public void httpRequestCounted() {
        metrics.requestServed("POST", "/v1/workflows/run", 200);
    }

    /** As the run service does: one watcher per run, skipped when it is NONE, told each event. */
    private static int feed(RunMonitor monitor, List<RunEvent> events) {
        RunListener watcher = monitor.watch(RUN);
        if (watcher == RunListener.NONE) {
            return 0;
        }
        for (RunEvent event : events) {
            watcher.on(event);
        }
        return events.size();
    }

    /** bench/apps/four-nodes.yml: start, template-transform, if-else, end. */
    static final String FOUR_NODES = """
            app: {name: Four nodes, mode: workflow}
            workflow:
              graph:
                nodes:
                  - {id: start, data: {type: start, title: Start, variables: [{variable: name, type: text-input, required: true}]}}
                  - {id: greet, data: {type: template-transform, title: Greet, template: 'Hello, {{ name }}!', variables: [{variable: name, value_selector: [start, name]}]}}
                  - {id: check, data: {type: if-else, title: Check, cases: [{case_id: 'true', logical_operator: and, conditions: [{variable_selector: [greet, output], comparison_operator: contains, value: Hello}]}]}}
                  - {id: end, data: {type: end, title: End, outputs: [{variable: greeting, value_selector: [greet, output]}]}}
                edges:
                  - {source: start, target: greet}
                  - {source: greet, target: check}
                  - {source: check, sourceHandle: 'true', target: end}
            """;
}
