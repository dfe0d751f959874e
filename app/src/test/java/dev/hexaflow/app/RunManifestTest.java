package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.engine.EngineConfiguration;
import dev.hexaflow.testing.SharedFolder;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Dify's conformance files ({@code ../shared/conformance}, both manifests) through {@code hexaflow run} and
 * {@code hexaflow chat}, as the server runs them: each workflow case runs on the command line and over the real
 * server's Service API, and both give the status and outputs Dify's tests expect; each chatflow case (as
 * ChatManifestHttpTest runs it on the server) runs one turn with {@code run --query}, or its earlier turns first
 * through {@code chat}, and answers what Dify's tests expect. The model is a fake one on loopback.
 */
class RunManifestTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** As in ChatManifestHttpTest: the stream follows Dify's coordinator, not outputs.answer's order. */
    private static final Map<String, String> STREAM_IN_COORDINATOR_ORDER = Map.of(
            "hello world", "This is a mocked LLM response for hello worldcontains 'hello'");

    @TempDir
    static Path dataDir;
    static FakeModelServer model;
    static TestServer server;
    static final Map<String, String> KEYS = new HashMap<>();

    @BeforeAll
    static void start() {
        model = new FakeModelServer();
        server = TestServer.start(TestServer.config(dataDir).withEngine(EngineConfiguration.fromEnvironment(
                Map.of("HEXAFLOW_LLM_MODELS", "*=local-model")).withLlm(model.baseUrl(), "sk-t")));
    }

    @AfterAll
    static void stop() {
        server.close();
        model.close();
    }

    private record Outcome(int exit, String out, String err) {
    }

    private static Outcome main(String input, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Map<String, String> env = Map.of("HEXAFLOW_LLM_BASE_URL", model.baseUrl().toString(),
                "HEXAFLOW_LLM_API_KEY", "sk-t", "HEXAFLOW_LLM_MODELS", "*=local-model");
        int exit = Main.run(args, env, new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), false,
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Outcome(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    static Stream<Arguments> workflowCases() throws IOException {
        return cases("conformance/dify-dsl/", null);
    }

    static Stream<Arguments> chatCases() throws IOException {
        return cases("conformance/dify-chatflow/", "advanced-chat");
    }

    private static Stream<Arguments> cases(String corpus, String mode) throws IOException {
        List<Arguments> cases = new ArrayList<>();
        for (JsonNode file : JSON.readTree(SharedFolder.require(corpus + "manifest.json").toFile())) {
            if (mode == null || file.path("app_mode").asText().equals(mode)) {
                for (JsonNode c : file.get("cases")) {
                    cases.add(Arguments.of(corpus + file.get("file").asText(), c.get("name").asText(), c));
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("workflowCases")
    void eachWorkflowCaseGivesWhatDifysTestsExpectOnTheCommandLineAndOnTheServer(String file, String name,
            JsonNode c) throws IOException {
        String inputs = JSON.writeValueAsString(c.get("inputs"));
        mockModel(c.get("llm_mock"));
        Outcome ran = main("", "run", SharedFolder.require(file).toString(), "--inputs", inputs, "--user", "manifest");
        mockModel(c.get("llm_mock"));
        JsonNode served = ServiceApi.json(server.api(key(file)).postJson("/v1/workflows/run", ServiceApi.run(
                JSON.convertValue(c.get("inputs"), Map.class), "blocking", "manifest")));

        String[] lines = ran.out().strip().split("\n");
        JsonNode local = JSON.readTree(lines[lines.length - 1]).get("data");
        for (JsonNode data : List.of(local, served.get("data"))) {
            assertThat(data.get("status").asText()).as("%s / %s", data, ran.err())
                    .isEqualTo(c.get("expect_status").asText());
            if (c.hasNonNull("expect_outputs")) {
                assertThat(numbersAsDoubles(JSON.convertValue(data.get("outputs"), Object.class)))
                        .isEqualTo(numbersAsDoubles(JSON.convertValue(c.get("expect_outputs"), Object.class)));
            }
        }
        assertThat(ran.exit()).isEqualTo(c.get("expect_status").asText().equals("succeeded") ? Main.OK
                : Main.FAILED);
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("chatCases")
    void eachChatCaseAnswersOnTheCommandLineWhatDifysTestsExpect(String file, String name, JsonNode c)
            throws IOException {
        Assumptions.assumeFalse(c.has("dsl_patch"), "Dify's test patches a node's outputs");
        mockModel(c.get("llm_mock"));
        String path = SharedFolder.require(file).toString();
        String inputs = JSON.writeValueAsString(c.path("inputs").isMissingNode() ? Map.of() : c.get("inputs"));
        String expected = c.hasNonNull("expect_answer") ? STREAM_IN_COORDINATOR_ORDER.getOrDefault(name,
                c.get("expect_answer").asText()) : null;
        if (c.has("conversation")) {
            StringBuilder typed = new StringBuilder();
            c.get("conversation").forEach(turn -> typed.append(turn.get("query").asText()).append('\n'));
            typed.append(c.get("query").asText()).append('\n');
            Outcome chatted = main(typed.toString(), "chat", path, "--inputs", inputs);

            assertThat(chatted.exit()).as(chatted.err()).isZero();
            for (JsonNode turn : c.get("conversation")) {
                assertThat(chatted.out()).contains(turn.get("answer").asText());
            }
            if (expected != null) {
                assertThat(chatted.out().stripTrailing()).endsWith(expected);
            }
            return;
        }
        Outcome ran = main("", "run", path, "--query", c.get("query").asText(), "--inputs", inputs);

        String[] lines = ran.out().strip().split("\n");
        JsonNode data = JSON.readTree(lines[lines.length - 1]).get("data");
        assertThat(data.get("status").asText()).as("%s / %s", data, ran.err())
                .isEqualTo(c.get("expect_status").asText());
        if (expected != null) {
            assertThat(ran.out().substring(0, ran.out().lastIndexOf(lines[lines.length - 1])).strip())
                    .isEqualTo(expected.strip());
        }
        if (c.hasNonNull("expect_outputs")) {
            c.get("expect_outputs").fields().forEachRemaining(output -> assertThat(data.get("outputs")
                    .get(output.getKey())).as("outputs.%s", output.getKey()).isEqualTo(output.getValue()));
        }
    }

    /** The server's app key for the fixture, imported once. */
    private static String key(String file) {
        return KEYS.computeIfAbsent(file, f -> {
            try {
                HttpResponse<String> imported = server.admin("POST", "/admin/apps", "application/yaml",
                        Files.readString(SharedFolder.require(f)));
                assertThat(imported.statusCode()).as(imported.body()).isEqualTo(201);
                return ServiceApi.json(imported).get("api_key").asText();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
    }

    /** What Dify's test mocked: one answer, one per model node in turn, a failure, or a slow answer. */
    private static void mockModel(JsonNode mock) {
        if (mock == null || mock.isNull()) {
            model.answer(FakeModelServer.Script.text("unmocked", 1, 1));
        } else if (mock.isArray()) {
            List<FakeModelServer.Script> scripts = new ArrayList<>();
            mock.forEach(each -> scripts.add(script(each)));
            model.answerInTurn(scripts.toArray(FakeModelServer.Script[]::new));
        } else {
            model.answer(script(mock));
        }
    }

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

    /** Dify's tests compare with Python's ==, where 5 equals 5.0. */
    private static Object numbersAsDoubles(Object value) {
        if (value instanceof Number n) {
            return n.doubleValue();
        }
        if (value instanceof Map<?, ?> map) {
            Map<Object, Object> copy = new LinkedHashMap<>();
            map.forEach((k, v) -> copy.put(k, numbersAsDoubles(v)));
            return copy;
        }
        if (value instanceof List<?> list) {
            return list.stream().map(RunManifestTest::numbersAsDoubles).toList();
        }
        return value;
    }
}
