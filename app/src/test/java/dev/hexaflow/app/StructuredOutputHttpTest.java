package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static dev.hexaflow.app.api.ServiceApi.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer.Script;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.engine.EngineConfiguration;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An LLM node's structured output and separated reasoning on the real server: the answer's fields feed a later node
 * through {@code [llm, structured_output, field]}, an answer that does not fit fails the run with Dify's message,
 * and the reasoning streams as {@code reasoning_chunk} events on the workflow and the chat streams, apart from the
 * text.
 */
class StructuredOutputHttpTest {

    @TempDir
    Path dataDir;

    private FakeModelServer model;
    private TestServer server;

    @BeforeEach
    void start() {
        model = new FakeModelServer();
        server = TestServer.start(TestServer.config(dataDir).withEngine(EngineConfiguration.fromEnvironment(
                Map.of("HEXAFLOW_LLM_JSON_SCHEMA", "openai/gpt-4o")).withLlm(model.baseUrl(), "sk-t")));
    }

    @AfterEach
    void stop() {
        server.close();
        model.close();
    }

    private static List<JsonNode> events(InputStream stream) throws IOException {
        List<JsonNode> events = new ArrayList<>();
        try (InputStream body = stream) {
            for (String line : new String(body.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.startsWith("data: ")) {
                    events.add(TestServer.json(line.substring("data: ".length())));
                }
            }
        }
        return events;
    }

    private static List<JsonNode> of(List<JsonNode> events, String kind) {
        return events.stream().filter(e -> e.get("event").asText().equals(kind)).toList();
    }

    @Test
    void theAnswersFieldsFeedALaterNodeAndTheSchemaWentToTheModelAsItsResponseFormat() {
        model.answer(Script.text("<think>Two apples.</think>{\"item\": \"apple\", \"count\": 2}", 8, 6));
        ServiceApi api = server.api(server.importApp("structured-output.yml").get("api_key").asText());

        JsonNode body = json(api.postJson("/v1/workflows/run", run(Map.of("query", "two apples please"),
                "blocking", "ada")));

        assertThat(body.at("/data/status").asText()).as(body.toString()).isEqualTo("succeeded");
        assertThat(body.at("/data/outputs/order").asText()).isEqualTo("2 x apple");
        assertThat(body.at("/data/outputs/text").asText()).isEqualTo("{\"item\": \"apple\", \"count\": 2}");
        JsonNode request = model.requests().get(model.requests().size() - 1);
        assertThat(request.at("/response_format/type").asText()).isEqualTo("json_schema");
        assertThat(request.at("/response_format/json_schema/schema/properties/count/type").asText())
                .isEqualTo("integer");
    }

    @Test
    void anAnswerThatDoesNotFitFailsTheRunWithDifysMessage() {
        model.answer(Script.text("{\"item\": \"apple\", \"count\": \"two\"}", 8, 6));
        ServiceApi api = server.api(server.importApp("structured-output.yml").get("api_key").asText());

        JsonNode body = json(api.postJson("/v1/workflows/run", run(Map.of("query", "two apples"), "blocking",
                "ada")));

        assertThat(body.at("/data/status").asText()).isEqualTo("failed");
        assertThat(body.at("/data/error").asText()).isEqualTo("Structured output validation failed (stage=result, "
                + "path=$.count): 'two' is not of type 'integer' in node \"Reader\" (llm)");
    }

    @Test
    void anAppWhoseSchemaIsTooLargeIsRefusedAtImportNamingTheNode() throws IOException {
        String dsl;
        try (InputStream in = StructuredOutputHttpTest.class.getResourceAsStream("/apps/structured-output.yml")) {
            dsl = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String large = dsl.replace("type: object\n", "type: object\n              description: '"
                + "x".repeat(70_000) + "'\n");

        var refused = server.admin("POST", "/admin/apps", "application/yaml", large);

        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(json(refused).get("code").asText()).isEqualTo("invalid_dsl");
        assertThat(json(refused).get("message").asText()).contains("node llm (Reader)")
                .contains("structured_output.schema has 70").contains("more than the 65536");
    }

    @Test
    void aStreamingWorkflowRunSendsTheReasoningAsReasoningChunksAndTheTextWithoutIt() throws IOException {
        model.answer(Script.text("<think>Two apples.</think>{\"item\": \"apple\", \"count\": 2}", 8, 6));
        ServiceApi api = server.api(server.importApp("structured-output.yml").get("api_key").asText());

        List<JsonNode> events = events(api.postStreaming("/v1/workflows/run", run(Map.of("query", "two apples"),
                "streaming", "ada")).body());

        List<JsonNode> reasoning = of(events, "reasoning_chunk");
        assertThat(reasoning).as(events.toString()).isNotEmpty();
        StringBuilder thought = new StringBuilder();
        for (JsonNode chunk : reasoning) {
            assertThat(chunk.get("workflow_run_id").asText()).isNotBlank();
            assertThat(chunk.get("task_id").asText()).isNotBlank();
            assertThat(chunk.at("/data/node_id").asText()).isEqualTo("llm");
            assertThat(chunk.get("data").path("message_id").isNull() || chunk.get("data").path("message_id")
                    .isMissingNode()).isTrue();
            thought.append(chunk.at("/data/reasoning").asText());
        }
        assertThat(thought.toString()).isEqualTo("Two apples.");
        JsonNode last = reasoning.get(reasoning.size() - 1);
        assertThat(last.at("/data/is_final").asBoolean()).isTrue();
        assertThat(last.at("/data/reasoning").asText()).isEmpty();
        String text = String.join("", of(events, "text_chunk").stream().map(e -> e.at("/data/text").asText())
                .toList());
        assertThat(text).doesNotContain("think").contains("{\"item\": \"apple\", \"count\": 2}");
        assertThat(of(events, "workflow_finished").get(0).at("/data/outputs/order").asText()).isEqualTo("2 x apple");
    }

    @Test
    void aStreamingChatTurnSendsReasoningChunksWithTheMessageAndAnAnswerWithoutThem() throws IOException {
        model.answer(Script.reasoning("The user greets me.", "Hello!"));
        ServiceApi chat = server.api(server.importApp("chatflow-reasoning.yml").get("api_key").asText());

        List<JsonNode> events = events(chat.postStreaming("/v1/chat-messages", ChatApiHttpTest.message("hi", null,
                "bea", "streaming")).body());

        List<JsonNode> reasoning = of(events, "reasoning_chunk");
        assertThat(reasoning).as(events.toString()).isNotEmpty();
        String messageId = of(events, "message_end").get(0).get("message_id").asText();
        StringBuilder thought = new StringBuilder();
        for (JsonNode chunk : reasoning) {
            assertThat(chunk.get("conversation_id").asText()).isNotBlank();
            assertThat(chunk.get("message_id").asText()).isEqualTo(messageId);
            assertThat(chunk.at("/data/message_id").asText()).isEqualTo(messageId);
            assertThat(chunk.get("created_at").asLong()).isPositive();
            assertThat(chunk.has("workflow_run_id")).isFalse();
            thought.append(chunk.at("/data/reasoning").asText());
        }
        assertThat(thought.toString().strip()).isEqualTo("The user greets me.");
        assertThat(reasoning.get(reasoning.size() - 1).at("/data/is_final").asBoolean()).isTrue();
        String answer = String.join("", of(events, "message").stream().map(e -> e.get("answer").asText()).toList());
        assertThat(answer).isEqualTo("Hello!");
    }
}
