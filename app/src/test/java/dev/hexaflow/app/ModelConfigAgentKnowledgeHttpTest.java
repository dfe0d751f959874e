package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer.Script;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.engine.EngineConfiguration;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An agent-chat app whose model_config names a knowledge base (dataset_configs), on the real server: the agent is
 * offered the base as Dify's retrieval tool, the model calls it, the chunk reaches the model's next request, and
 * the call is one of the message's agent thoughts. A base the server lacks: imported with a warning, not offered.
 */
class ModelConfigAgentKnowledgeHttpTest {

    private static final String DATASET = "6f1c2d4e-9a8b-4c7d-8e6f-5a4b3c2d1e0f";
    private static final String TOOL = "dataset_6f1c2d4e_9a8b_4c7d_8e6f_5a4b3c2d1e0f";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dataDir;
    FakeModelServer model;
    TestServer server;

    @BeforeEach
    void start() {
        model = new FakeModelServer();
        server = TestServer.start(TestServer.config(dataDir).withEngine(EngineConfiguration.fromEnvironment(
                Map.of("HEXAFLOW_LLM_MODELS", "*=local-model")).withLlm(model.baseUrl(), "sk-t")
                .withEmbeddingModel("embed-test")));
    }

    @AfterEach
    void stop() {
        server.close();
        model.close();
    }

    @Test
    void theAgentCallsItsBaseAsARetrievalToolAndAnswersFromTheChunk() throws Exception {
        HttpResponse<String> created = server.admin("POST", "/admin/knowledge/bases", "application/json",
                JSON.writeValueAsString(Map.of("id", DATASET, "name", "Staff handbook",
                        "description", "The staff handbook: leave, hours and pay.")));
        HttpResponse<String> added = server.admin("POST", "/admin/knowledge/bases/" + DATASET + "/documents",
                "application/json", JSON.writeValueAsString(Map.of("name", "leave.md",
                        "text", "Paid leave: every employee has 25 days of paid leave a year.")));
        JsonNode imported = importAgent(DATASET);
        ServiceApi api = server.api(imported.get("api_key").asText());
        model.answerInTurn(Script.toolCall(TOOL, "{\"query\": \"paid leave days\"}"),
                Script.text("You have 25 days.", 30, 5));

        JsonNode answered = json(api.postJson("/v1/chat-messages", Map.of("query", "How many days of paid leave?",
                "inputs", Map.of(), "user", "ada", "response_mode", "blocking")));

        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        assertThat(added.statusCode()).as(added.body()).isEqualTo(201);
        assertThat(imported.get("warnings")).isEmpty();
        assertThat(answered.get("answer").asText()).as(answered.toString()).isEqualTo("You have 25 days.");
        JsonNode offered = model.requests().get(0).get("tools");
        assertThat(offered).extracting(t -> t.at("/function/name").asText()).containsExactly("weekday", TOOL);
        assertThat(offered.get(1).at("/function/description").asText())
                .isEqualTo("The staff handbook: leave, hours and pay.");
        JsonNode told = model.requests().get(1).get("messages");
        assertThat(told.get(told.size() - 1).get("role").asText()).isEqualTo("tool");
        assertThat(told.get(told.size() - 1).get("content").asText())
                .contains("Paid leave: every employee has 25 days of paid leave a year.");
        JsonNode listed = json(api.get("/v1/messages?user=ada&conversation_id="
                + answered.get("conversation_id").asText()));
        JsonNode thoughts = listed.at("/data/0/agent_thoughts");
        assertThat(thoughts).as(listed.toString()).hasSize(2);
        assertThat(thoughts.get(0).get("tool").asText()).isEqualTo(TOOL);
        assertThat(thoughts.get(0).get("observation").asText()).contains("25 days of paid leave");
    }

    @Test
    void aBaseTheServerLacksIsNamedAtImportAndTheAgentAnswersWithoutIt() throws Exception {
        JsonNode imported = importAgent("gone-base");
        model.answer(Script.text("I do not know.", 10, 3));

        JsonNode answered = json(server.api(imported.get("api_key").asText()).postJson("/v1/chat-messages",
                Map.of("query", "How many days of paid leave?", "inputs", Map.of(), "user", "ada",
                        "response_mode", "blocking")));

        assertThat(imported.get("warnings")).extracting(JsonNode::asText).anyMatch(warning -> warning.startsWith(
                "The knowledge base gone-base is not in Hexaflow, so Agent is not offered it"));
        assertThat(answered.get("answer").asText()).as(answered.toString()).isEqualTo("I do not know.");
        assertThat(model.requests().get(0).get("tools")).extracting(t -> t.at("/function/name").asText())
                .containsExactly("weekday");
    }

    /** Dify's easy-agent.yml export with one base in its dataset_configs, offered one tool per base (single). */
    private JsonNode importAgent(String baseId) throws Exception {
        String yaml;
        try (InputStream in = getClass().getResourceAsStream("/apps/easy-agent.yml")) {
            yaml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String withBase = yaml.replace("      datasets: []", """
                      datasets:
                      - dataset: {enabled: true, id: %s}
                """.formatted(baseId).stripTrailing()).replace("retrieval_model: multiple", "retrieval_model: single");
        HttpResponse<String> response = server.admin("POST", "/admin/apps", "application/yaml", withBase);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        return TestServer.json(response.body());
    }
}
