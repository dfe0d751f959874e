package dev.hexaflow.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.adapters.dsl.YamlWorkflowDslReader;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.domain.workflow.WorkflowRun;
import dev.hexaflow.engine.EngineConfiguration;
import dev.hexaflow.engine.Engines;
import dev.hexaflow.workflow.engine.RunListener;
import dev.hexaflow.workflow.engine.RunRequest;
import dev.hexaflow.workflow.engine.WorkflowEngine;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The code node's output checks, env variables, the legacy if-else form, and parallel branches in parallel. */
class CodeNodeTest {

    static final WorkflowEngine ENGINE = Engines.standard(EngineConfiguration.fromEnvironment(Map.of()));

    private static WorkflowRun js(String code, String outputs) {
        Workflow workflow = Dsl.workflow("""
                - {id: s, data: {type: start, title: S, variables: []}}
                - id: c
                  data:
                    type: code
                    title: C
                    code_language: javascript
                    code: %s
                    outputs: %s
                """.formatted(quoted(code), outputs), "- {source: s, target: c}");
        return ENGINE.run(ENGINE.prepare(workflow), RunRequest.of(workflow, "u", Map.of()), RunListener.NONE);
    }

    private static String quoted(String text) {
        return "\"" + text.replace("\"", "\\\"") + "\"";
    }

    @Test
    void outputsAreCheckedAsDifyChecksThem() {
        assertThat(js("function main() { return {}; }", "{r: {type: string}}").error())
                .isEqualTo("Output r is missing.");
        assertThat(js("function main() { return {r: 1}; }", "{r: {type: string}}").error())
                .isEqualTo("Output variable `r` must be a string");
        assertThat(js("function main() { return {r: 'a', extra: 1}; }", "{r: {type: string}}").error())
                .isEqualTo("Not all output parameters are validated.");
        assertThat(js("function main() { return {r: 'x'}; }", "{r: {type: 'array[string]'}}").error())
                .isEqualTo("Output r is not an array, got <class 'str'> instead.");
        assertThat(js("function main() { var a = []; for (var i = 0; i < 31; i++) a.push('s'); return {r: a}; }",
                "{r: {type: 'array[string]'}}").error())
                .isEqualTo("The length of output variable `r` must be less than 30 elements.");
        assertThat(js("function main() { return {o: {a: {n: 'x'}}}; }",
                "{o: {type: object, children: {a: {type: object, children: {n: {type: number}}}}}}").error())
                .isEqualTo("Output variable `.o.a.n` must be a number");
        WorkflowRun fine = js("function main() { return {n: 2.5, b: true, l: [1, 2]}; }",
                "{n: {type: number}, b: {type: boolean}, l: {type: 'array[number]'}}");
        assertThat(fine.status()).as(fine.error()).isEqualTo(RunStatus.SUCCEEDED);
    }

    @Test
    void environmentVariablesAreReadAsEnvAndNumbersStayNumbers() {
        Workflow workflow = new YamlWorkflowDslReader().read("""
                app: {name: env, mode: workflow}
                workflow:
                  environment_variables:
                    - {name: GREETING, value: hi, value_type: string}
                    - {name: LIMIT, value: '3', value_type: number}
                  graph:
                    nodes:
                      - {id: s, data: {type: start, title: S, variables: []}}
                      - {id: e, data: {type: end, title: E, outputs: [{variable: g, value_selector: [env, GREETING]}, {variable: l, value_selector: [env, LIMIT]}]}}
                    edges:
                      - {source: s, target: e}
                """.getBytes(StandardCharsets.UTF_8));

        WorkflowRun run = ENGINE.run(ENGINE.prepare(workflow), RunRequest.of(workflow, "u", Map.of()),
                RunListener.NONE);

        assertThat(run.outputs()).isEqualTo(Map.of("g", "hi", "l", 3L));
    }

    @Test
    void theLegacyIfElseFormIsOneCaseWithTheIdTrue() {
        Workflow workflow = Dsl.workflow("""
                - {id: s, data: {type: start, title: S, variables: [{variable: q, type: text-input}]}}
                - id: i
                  data:
                    type: if-else
                    title: I
                    logical_operator: and
                    conditions: [{variable_selector: [s, q], comparison_operator: start with, value: go}]
                - {id: yes, data: {type: end, title: Y, outputs: [{variable: path, value_selector: [i, selected_case_id]}]}}
                """, """
                - {source: s, target: i}
                - {source: i, sourceHandle: 'true', target: yes}
                """);

        WorkflowRun run = ENGINE.run(ENGINE.prepare(workflow), RunRequest.of(workflow, "u", Map.of("q", "go on")),
                RunListener.NONE);

        assertThat(run.outputs()).isEqualTo(Map.of("path", "true"));
    }

    @Test
    void parallelBranchesRunAtTheSameTime() {
        // Each branch says when it ran; side by side means the two spans overlap, however slow the machine.
        String slow = "import time\\ndef main():\\n    began = time.time()\\n    time.sleep(0.6)\\n"
                + "    return {'began': began, 'ended': time.time()}\\n";
        Workflow workflow = Dsl.workflow("""
                - {id: s, data: {type: start, title: S, variables: []}}
                - {id: a, data: {type: code, title: A, code_language: python3, code: "%s", outputs: {began: {type: number}, ended: {type: number}}}}
                - {id: b, data: {type: code, title: B, code_language: python3, code: "%s", outputs: {began: {type: number}, ended: {type: number}}}}
                - {id: e, data: {type: end, title: E, outputs: [{variable: a0, value_selector: [a, began]}, {variable: a1, value_selector: [a, ended]}, {variable: b0, value_selector: [b, began]}, {variable: b1, value_selector: [b, ended]}]}}
                """.formatted(slow, slow), """
                - {source: s, target: a}
                - {source: s, target: b}
                - {source: a, target: e}
                - {source: b, target: e}
                """);

        WorkflowRun run = ENGINE.run(ENGINE.prepare(workflow), RunRequest.of(workflow, "u", Map.of()),
                RunListener.NONE);

        assertThat(run.status()).as(run.error()).isEqualTo(RunStatus.SUCCEEDED);
        double a0 = ((Number) run.outputs().get("a0")).doubleValue();
        double a1 = ((Number) run.outputs().get("a1")).doubleValue();
        double b0 = ((Number) run.outputs().get("b0")).doubleValue();
        double b1 = ((Number) run.outputs().get("b1")).doubleValue();
        assertThat(a0).as("branch a began before b ended").isLessThan(b1);
        assertThat(b0).as("branch b began before a ended").isLessThan(a1);
    }
}
