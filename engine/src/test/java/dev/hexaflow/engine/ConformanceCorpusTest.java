package dev.hexaflow.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.adapters.dsl.YamlWorkflowDslReader;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.domain.workflow.Values;
import dev.hexaflow.domain.workflow.WorkflowRun;
import dev.hexaflow.engine.EngineConfiguration;
import dev.hexaflow.engine.Engines;
import dev.hexaflow.testing.SharedFolder;
import dev.hexaflow.workflow.engine.PreparedWorkflow;
import dev.hexaflow.workflow.engine.RunListener;
import dev.hexaflow.workflow.engine.RunRequest;
import dev.hexaflow.workflow.engine.WorkflowEngine;
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

    static final String CORPUS = "conformance/dify-dsl/";
    private static final ObjectMapper JSON = new ObjectMapper();
    static final FakeModelServer MODEL = new FakeModelServer();
    static final WorkflowEngine ENGINE = Engines.standard(EngineConfiguration.fromEnvironment(Map.of())
            .withLlm(MODEL.baseUrl(), "test-key"));

    @AfterAll
    static void stopModel() {
        MODEL.close();
    }

    static Stream<Arguments> cases() throws IOException {
        Path manifest = SharedFolder.require(CORPUS + "manifest.json");
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
        JsonNode mock = c.get("llm_mock");
        if (mock.isObject()) {
            MODEL.answer(script(mock));
        }
        PreparedWorkflow workflow = ENGINE.prepare(new YamlWorkflowDslReader().read(
                Files.readAllBytes(SharedFolder.require(CORPUS + file))));
        @SuppressWarnings("unchecked")
        Map<String, Object> inputs = JSON.convertValue(c.get("inputs"), Map.class);

        WorkflowRun run = ENGINE.run(workflow, RunRequest.of(workflow.workflow(), "conformance", inputs),
                RunListener.NONE);

        assertThat(run.status().wireName()).as(run.error()).isEqualTo(c.get("expect_status").asText());
        if (mock.isObject() && mock.has("error")) {
            assertThat(run.error()).contains(mock.get("error").asText());
        }
        if (mock.isObject() && mock.has("delay_seconds")) {
            assertThat(run.elapsedTime()).isGreaterThanOrEqualTo(mock.get("delay_seconds").asDouble());
        }
        if (mock.isObject() && mock.has("usage") && run.status().wireName().equals("succeeded")) {
            assertThat(run.totalTokens()).isEqualTo(mock.get("usage").get("total_tokens").asLong());
        }
        if (c.hasNonNull("expect_outputs")) {
            Object expected = Values.normalize(JSON.convertValue(c.get("expect_outputs"), Map.class));
            assertThat(numbersAsDoubles(run.outputs())).isEqualTo(numbersAsDoubles(expected));
        }
    }

    /** What the fake model answers for a case whose model Dify's test mocked. */
    private static FakeModelServer.Script script(JsonNode mock) {
        if (mock.has("error")) {
            return FakeModelServer.Script.failure(500, mock.get("error").asText());
        }
        JsonNode usage = mock.path("usage");
        FakeModelServer.Script script = FakeModelServer.Script.text(mock.get("text").asText(),
                usage.path("prompt_tokens").asLong(10), usage.path("completion_tokens").asLong(5));
        if (mock.has("delay_seconds")) {
            int pieces = Math.max(1, script.pieces().size());
            script = script.pausing((long) Math.ceil(mock.get("delay_seconds").asDouble() * 1000 / pieces));
        }
        return script;
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
        PreparedWorkflow workflow = ENGINE.prepare(new YamlWorkflowDslReader().read(
                Files.readAllBytes(SharedFolder.require(CORPUS + file))));

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
