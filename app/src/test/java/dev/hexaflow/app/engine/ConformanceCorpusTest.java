package dev.hexaflow.app.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.adapters.dsl.YamlWorkflowDslReader;
import dev.hexaflow.adapters.nodes.code.CodeLimits;
import dev.hexaflow.adapters.nodes.code.PythonWorkerCodeRunner;
import dev.hexaflow.adapters.nodes.code.RhinoCodeRunner;
import dev.hexaflow.adapters.nodes.template.JinjavaTemplateRenderer;
import dev.hexaflow.application.workflow.engine.PreparedWorkflow;
import dev.hexaflow.application.workflow.engine.RunListener;
import dev.hexaflow.application.workflow.engine.RunRequest;
import dev.hexaflow.application.workflow.engine.WorkflowEngine;
import dev.hexaflow.application.workflow.nodes.StandardNodes;
import dev.hexaflow.domain.workflow.Values;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Dify's own workflow fixtures with the inputs and outputs its tests expect ({@code manifest.json}), run through
 * the real engine with the real template and code runners.
 */
class ConformanceCorpusTest {

    static final Path CORPUS = Path.of("..", "..", "shared", "conformance", "dify-dsl");
    private static final ObjectMapper JSON = new ObjectMapper();
    static final PythonWorkerCodeRunner PYTHON = new PythonWorkerCodeRunner(PythonWorkerCodeRunner.locate("python3"),
            CodeLimits.DEFAULTS);
    static final WorkflowEngine ENGINE = new WorkflowEngine(StandardNodes.catalogue(new StandardNodes.Services(
            new JinjavaTemplateRenderer(), List.of(new RhinoCodeRunner(CodeLimits.DEFAULTS), PYTHON))));

    @AfterAll
    static void stopWorkers() {
        PYTHON.close();
    }

    static Stream<Arguments> cases() throws IOException {
        Path manifest = CORPUS.resolve("manifest.json");
        if (!Files.exists(manifest)) {
            return Stream.of();
        }
        List<Arguments> cases = new ArrayList<>();
        for (JsonNode file : JSON.readTree(manifest.toFile())) {
            for (JsonNode c : file.get("cases")) {
                cases.add(Arguments.of(file.get("file").asText(), c.get("name").asText(), c));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("cases")
    void eachCaseGivesTheStatusAndOutputsDifysTestsExpect(String file, String name, JsonNode c) throws IOException {
        assumeTrue(c.get("llm_mock").isNull(), "model cases run against a fake model server");
        PreparedWorkflow workflow = ENGINE.prepare(new YamlWorkflowDslReader().read(
                Files.readAllBytes(CORPUS.resolve(file))));
        @SuppressWarnings("unchecked")
        Map<String, Object> inputs = JSON.convertValue(c.get("inputs"), Map.class);

        WorkflowRun run = ENGINE.run(workflow, RunRequest.of(workflow.workflow(), "conformance", inputs),
                RunListener.NONE);

        assertThat(run.status().wireName()).as(run.error()).isEqualTo(c.get("expect_status").asText());
        if (c.hasNonNull("expect_outputs")) {
            Object expected = Values.normalize(JSON.convertValue(c.get("expect_outputs"), Map.class));
            assertThat(numbersAsDoubles(run.outputs())).isEqualTo(numbersAsDoubles(expected));
        }
    }

    /** The fixtures the manifest does not list, with the outputs their own descriptions state. */
    static Stream<Arguments> describedCases() {
        Map<String, Object> both = new java.util.LinkedHashMap<>();
        both.put("1", "Code 1");
        both.put("2", "Code 2");
        both.put("3", null);
        Map<String, Object> other = new java.util.LinkedHashMap<>();
        other.put("1", null);
        other.put("2", "Code 2");
        other.put("3", "Code 3");
        return Stream.of(
                Arguments.of("conditional_parallel_code_execution_workflow.yml", Map.of("switch", 1), both),
                Arguments.of("conditional_parallel_code_execution_workflow.yml", Map.of("switch", 2), other),
                Arguments.of("iteration_flatten_output_enabled_workflow.yml", Map.of(),
                        Map.of("output", List.of(1, 2, 2, 4, 3, 6))),
                Arguments.of("iteration_flatten_output_disabled_workflow.yml", Map.of(),
                        Map.of("output", List.of(List.of(1, 2), List.of(2, 4), List.of(3, 6)))),
                Arguments.of("parallel_iteration_formatting_workflow.yml", Map.of(),
                        Map.of("output", List.of("output: 1", "output: 2", "output: 3"))));
    }

    @ParameterizedTest(name = "{0} with {1}")
    @MethodSource("describedCases")
    void eachUnlistedFixtureGivesWhatItsDescriptionStates(String file, Map<String, Object> inputs,
            Map<String, Object> expected) throws IOException {
        assumeTrue(Files.isDirectory(CORPUS), "the shared conformance folder is not beside this clone");
        PreparedWorkflow workflow = ENGINE.prepare(new YamlWorkflowDslReader().read(
                Files.readAllBytes(CORPUS.resolve(file))));

        WorkflowRun run = ENGINE.run(workflow, RunRequest.of(workflow.workflow(), "conformance", inputs),
                RunListener.NONE);

        assertThat(run.status().wireName()).as(run.error()).isEqualTo("succeeded");
        assertThat(numbersAsDoubles(run.outputs())).isEqualTo(numbersAsDoubles(Values.normalize(expected)));
    }

    /** Dify's tests compare with Python's ==, where 5 equals 5.0. */
    static Object numbersAsDoubles(Object value) {
        if (value instanceof Number n) {
            return n.doubleValue();
        }
        if (value instanceof Map<?, ?> map) {
            Map<Object, Object> copy = new java.util.LinkedHashMap<>();
            map.forEach((k, v) -> copy.put(k, numbersAsDoubles(v)));
            return copy;
        }
        if (value instanceof List<?> list) {
            return list.stream().map(ConformanceCorpusTest::numbersAsDoubles).toList();
        }
        return value;
    }
}
