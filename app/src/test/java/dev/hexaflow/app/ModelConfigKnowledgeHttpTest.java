package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer.Script;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.engine.EngineConfiguration;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A chatbot whose model_config names a knowledge base (dataset_configs), on the real server: the base is filled
 * through /admin, and the fake model gets the right chunk in Dify's context prompt before the author's prompt.
 */
class ModelConfigKnowledgeHttpTest {

    private static final String DATASET = "6f1c2d4e-9a8b-4c7d-8e6f-5a4b3c2d1e0f";
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
    void aChatbotRetrievesFromItsBaseAndTheModelAnswersFromTheChunk() throws Exception {
        HttpResponse<String> created = server.admin("POST", "/admin/knowledge/bases", "application/json",
                JSON.writeValueAsString(Map.of("id", DATASET, "name", "Staff handbook")));
        for (String text : new String[] {"Paid leave: every employee has 25 days of paid leave a year.",
                "Parking: bikes park in the basement, cars on the roof."}) {
            HttpResponse<String> added = server.admin("POST", "/admin/knowledge/bases/" + DATASET + "/documents",
                    "application/json", JSON.writeValueAsString(Map.of("name", text.substring(0, 7) + ".md",
                            "text", text)));
            assertThat(added.statusCode()).as(added.body()).isEqualTo(201);
        }
        model.answer(Script.text("You have 25 days.", 30, 5));
        JsonNode imported = server.importApp("easy-knowledge-chat.yml");

        JsonNode answered = json(server.api(imported.get("api_key").asText()).postJson("/v1/chat-messages",
                Map.of("query", "How many days of paid leave?", "inputs", Map.of(), "user", "ada",
                        // No title asked of the model after the answer: the last request is the turn's own.
                        "response_mode", "blocking", "auto_generate_name", false)));

        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        assertThat(imported.get("warnings")).isEmpty();
        assertThat(answered.get("answer").asText()).as(answered.toString()).isEqualTo("You have 25 days.");
        JsonNode messages = model.requests().get(model.requests().size() - 1).get("messages");
        String system = messages.get(0).get("content").asText();
        assertThat(messages.get(0).get("role").asText()).isEqualTo("system");
        assertThat(system).startsWith("Use the following context as your learned knowledge")
                .contains("<context>\nPaid leave: every employee has 25 days of paid leave a year.\n</context>")
                .doesNotContain("Parking").endsWith("Answer in one sentence.");
        assertThat(messages.get(1).get("content").asText()).isEqualTo("How many days of paid leave?");
        assertThat(answered.at("/metadata/retriever_resources/0/dataset_id").asText()).isEqualTo(DATASET);
    }
}
