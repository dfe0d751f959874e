package dev.hexaflow.bench;

import dev.hexaflow.adapters.dsl.YamlWorkflowDslReader;
import dev.hexaflow.engine.EngineConfiguration;
import dev.hexaflow.engine.Engines;
import dev.hexaflow.workflow.engine.PreparedWorkflow;
import dev.hexaflow.workflow.engine.RunListener;
import dev.hexaflow.workflow.engine.RunRequest;
import dev.hexaflow.workflow.engine.WorkflowEngine;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.nio.charset.StandardCharsets;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One blocking run of a 10-node workflow, on one thread: a chain of pass-through nodes (the engine's own cost per
 * node) and a template / if-else / javascript workflow (with the libraries' work). Divide by 10 for per node.
 */
@State(Scope.Benchmark)
@BenchmarkMode({Mode.AverageTime, Mode.Throughput})
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@Threads(1)
public class EngineBenchmark {

    private WorkflowEngine engine;
    private PreparedWorkflow passThrough;
    private PreparedWorkflow mixed;

    @Setup
    public void setUp() {
        engine = Engines.standard(EngineConfiguration.fromEnvironment(Map.of()));
        passThrough = engine.prepare(new YamlWorkflowDslReader().read(PASS_THROUGH.getBytes(StandardCharsets.UTF_8)));
        mixed = engine.prepare(new YamlWorkflowDslReader().read(MIXED.getBytes(StandardCharsets.UTF_8)));
        check(passThroughRun());
        check(mixedRun());
    }

    private static void check(WorkflowRun run) {
        if (run.status() != RunStatus.SUCCEEDED) {
            throw new IllegalStateException("the benchmark workflow failed: " + run.error());
        }
    }

    @Benchmark
    public WorkflowRun passThroughRun() {
        return engine.run(passThrough, RunRequest.of(passThrough.workflow(), "bench", Map.of("q", "hello")),
                RunListener.NONE);
    }

    @Benchmark
    public WorkflowRun mixedRun() {
        return engine.run(mixed, RunRequest.of(mixed.workflow(), "bench", Map.of("q", "hello")), RunListener.NONE);
    }

    /** start, eight variable aggregators in a chain, end: ten nodes that do nothing but pass a value on. */
    static final String PASS_THROUGH = """
            app: {name: pass, mode: workflow}
            workflow:
              graph:
                nodes:
                  - {id: n0, data: {type: start, title: S, variables: [{variable: q, type: text-input}]}}
                  - {id: n1, data: {type: variable-aggregator, title: A1, variables: [[n0, q]]}}
                  - {id: n2, data: {type: variable-aggregator, title: A2, variables: [[n1, output]]}}
                  - {id: n3, data: {type: variable-aggregator, title: A3, variables: [[n2, output]]}}
                  - {id: n4, data: {type: variable-aggregator, title: A4, variables: [[n3, output]]}}
                  - {id: n5, data: {type: variable-aggregator, title: A5, variables: [[n4, output]]}}
                  - {id: n6, data: {type: variable-aggregator, title: A6, variables: [[n5, output]]}}
                  - {id: n7, data: {type: variable-aggregator, title: A7, variables: [[n6, output]]}}
                  - {id: n8, data: {type: variable-aggregator, title: A8, variables: [[n7, output]]}}
                  - {id: n9, data: {type: end, title: E, outputs: [{variable: out, value_selector: [n8, output]}]}}
                edges:
                  - {source: n0, target: n1}
                  - {source: n1, target: n2}
                  - {source: n2, target: n3}
                  - {source: n3, target: n4}
                  - {source: n4, target: n5}
                  - {source: n5, target: n6}
                  - {source: n6, target: n7}
                  - {source: n7, target: n8}
                  - {source: n8, target: n9}
            """;

    /** start, template, if-else, javascript, template, if-else, javascript, template, aggregator, end. */
    static final String MIXED = """
            app: {name: mixed, mode: workflow}
            workflow:
              graph:
                nodes:
                  - {id: s, data: {type: start, title: S, variables: [{variable: q, type: text-input}]}}
                  - {id: t1, data: {type: template-transform, title: T1, template: '{{ q }} world', variables: [{variable: q, value_selector: [s, q]}]}}
                  - {id: i1, data: {type: if-else, title: I1, cases: [{case_id: 'true', logical_operator: and, conditions: [{variable_selector: [t1, output], comparison_operator: contains, value: world}]}]}}
                  - {id: c1, data: {type: code, title: C1, code_language: javascript, code: 'function main({a}) { return {n: a.length}; }', variables: [{variable: a, value_selector: [t1, output]}], outputs: {n: {type: number}}}}
                  - {id: t2, data: {type: template-transform, title: T2, template: 'n={{ n }}', variables: [{variable: n, value_selector: [c1, n]}]}}
                  - {id: i2, data: {type: if-else, title: I2, cases: [{case_id: big, logical_operator: and, conditions: [{variable_selector: [c1, n], comparison_operator: '>', value: '3'}]}]}}
                  - {id: c2, data: {type: code, title: C2, code_language: javascript, code: 'function main({t}) { return {u: t.toUpperCase()}; }', variables: [{variable: t, value_selector: [t2, output]}], outputs: {u: {type: string}}}}
                  - {id: t3, data: {type: template-transform, title: T3, template: '[{{ u }}]', variables: [{variable: u, value_selector: [c2, u]}]}}
                  - {id: a, data: {type: variable-aggregator, title: A, variables: [[t3, output]]}}
                  - {id: e, data: {type: end, title: E, outputs: [{variable: out, value_selector: [a, output]}]}}
                edges:
                  - {source: s, target: t1}
                  - {source: t1, target: i1}
                  - {source: i1, sourceHandle: 'true', target: c1}
                  - {source: c1, target: t2}
                  - {source: t2, target: i2}
                  - {source: i2, sourceHandle: big, target: c2}
                  - {source: c2, target: t3}
                  - {source: t3, target: a}
                  - {source: a, target: e}
            """;
}
