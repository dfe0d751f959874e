package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.domain.workflow.Values;
import dev.hexaflow.engine.EngineConfiguration;
import dev.hexaflow.testing.SharedFolder;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
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
 * Dify's chatflow fixtures and what its tests expect ({@code dify-chatflow/manifest.json}), each imported into a
 * real server and talked to over Dify's chat Service API: the case's earlier turns first, in one conversation,
 * then the case's turn streamed. Its status and outputs are the stream's workflow_finished, its answer the
 * message frames' text, its conversation variables what the variables route shows, and the model's last request
 * what the fake model on loopback was sent. The engine-level conformance test also checks the events.
 */
class ChatManifestHttpTest {

    private static final String CORPUS = "conformance/dify-chatflow/";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** As in ChatflowConformanceTest: a case Dify's test runs with a node's outputs set directly. */
    private static final String NEEDS_A_PATCHED_NODE = "dsl_patch";
    /** As in ChatflowConformanceTest: the stream follows Dify's coordinator, not outputs.answer's order. */
    private static final Map<String, String> STREAM_IN_COORDINATOR_ORDER = Map.of(
            "hello world", "This is a mocked LLM response for hello worldcontains 'hello'");

    @TempDir
    static Path dataDir;
    static FakeModelServer model;
    static TestServer server;

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

    static Stream<Arguments> cases() throws IOException {
        List<Arguments> cases = new ArrayList<>();
        for (JsonNode file : JSON.readTree(SharedFolder.require(CORPUS + "manifest.json").toFile())) {
            if (file.get("app_mode").asText().equals("advanced-chat")) {
                for (JsonNode c : file.get("cases")) {
                    cases.add(Arguments.of(file.get("file").asText(), c.get("name").asText(), c));
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("cases")
    void eachChatCaseAnswersOverTheServiceApiAsDifysTestsExpect(String file, String name, JsonNode c)
            throws IOException {
        Assumptions.assumeFalse(c.has(NEEDS_A_PATCHED_NODE), "Dify's test patches a node's outputs");
        mockModel(c.get("llm_mock"));
        ServiceApi chat = server.api(importFixture(file));
        String user = "manifest-" + Math.abs(name.hashCode());
        String conversationId = null;
        for (JsonNode earlier : c.path("conversation")) {
            JsonNode sent = json(chat.postJson("/v1/chat-messages", body(earlier.get("query").asText(),
                    c.get("inputs"), conversationId, user, "blocking")));
            assertThat(sent.get("answer").asText()).as("earlier turn %s: %s", earlier.get("query"), sent)
                    .isEqualTo(earlier.get("answer").asText());
            conversationId = sent.get("conversation_id").asText();
        }
        int requestsBefore = model.requests().size();

        HttpResponse<InputStream> response = chat.postStreaming("/v1/chat-messages", body(c.get("query").asText(),
                c.get("inputs"), conversationId, user, "streaming"));
        List<JsonNode> frames = ChatApiHttpTest.frames(new String(response.body().readAllBytes(),
                StandardCharsets.UTF_8));

        JsonNode finished = frames.stream().filter(f -> f.get("event").asText().equals("workflow_finished"))
                .findFirst().orElseThrow(() -> new AssertionError("no workflow_finished in " + frames));
        assertThat(finished.get("data").get("status").asText()).as(finished.toString())
                .isEqualTo(c.get("expect_status").asText());
        StringBuilder answer = new StringBuilder();
        frames.stream().filter(f -> f.get("event").asText().equals("message"))
                .forEach(f -> answer.append(f.get("answer").asText()));
        if (c.hasNonNull("expect_answer")) {
            assertThat(answer.toString()).isEqualTo(STREAM_IN_COORDINATOR_ORDER.getOrDefault(name,
                    c.get("expect_answer").asText()));
        }
        if (c.hasNonNull("expect_outputs")) {
            c.get("expect_outputs").fields().forEachRemaining(expected -> assertThat(
                    finished.get("data").get("outputs").get(expected.getKey()))
                    .as("outputs.%s", expected.getKey()).isEqualTo(expected.getValue()));
        }
        String conversation = frames.get(0).get("conversation_id").asText();
        if (c.hasNonNull("expect_conversation_variables")) {
            Map<String, String> shown = new HashMap<>();
            json(chat.get("/v1/conversations/" + conversation + "/variables?limit=100&user=" + user)).get("data")
                    .forEach(v -> shown.put(v.get("name").asText(), v.get("value").asText()));
            c.get("expect_conversation_variables").fields().forEachRemaining(expected -> {
                Object value = JSON.convertValue(expected.getValue(), Object.class);
                assertThat(shown.get(expected.getKey())).as("conversation.%s", expected.getKey())
                        .isEqualTo(value instanceof String text ? text : Values.pythonRepr(Values.normalize(value)));
            });
        }
        if (c.hasNonNull("expect_llm_messages")) {
            assertThat(model.requests().size()).isGreaterThan(requestsBefore);
            JsonNode sent = model.requests().get(model.requests().size() - 1).get("messages");
            assertThat(messages(sent)).isEqualTo(messages(c.get("expect_llm_messages")));
        }
    }

    private static String importFixture(String file) throws IOException {
        HttpResponse<String> imported = server.admin("POST", "/admin/apps", "application/yaml",
                Files.readString(SharedFolder.require(CORPUS + file)));
        assertThat(imported.statusCode()).as(imported.body()).isEqualTo(201);
        return json(imported).get("api_key").asText();
    }

    private static Map<String, Object> body(String query, JsonNode inputs, String conversationId, String user,
            String mode) {
        Map<String, Object> body = new HashMap<>();
        body.put("query", query);
        body.put("inputs", inputs == null || inputs.isNull() ? Map.of() : JSON.convertValue(inputs, Map.class));
        body.put("user", user);
        body.put("response_mode", mode);
        body.put("auto_generate_name", false);
        if (conversationId != null) {
            body.put("conversation_id", conversationId);
        }
        return body;
    }

    /** What Dify's test mocked, one call each when several model nodes run one after the other. */
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
        JsonNode usage = mock.path("usage");
        return FakeModelServer.Script.text(mock.get("text").asText(), usage.path("prompt_tokens").asLong(10),
                usage.path("completion_tokens").asLong(5));
    }

    private static List<String> messages(JsonNode messages) {
        List<String> flat = new ArrayList<>();
        messages.forEach(message -> flat.add(message.get("role").asText() + ": " + message.get("content").asText()));
        return flat;
    }
}
