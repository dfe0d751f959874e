package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer.Script;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.engine.EngineConfiguration;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A conversation and its messages belong to one end user of one app: another user of the same app, or the same
 * user through another app, meets every route with Dify's "not exists" answer, and the conversation is unchanged.
 */
class ChatIsolationHttpTest {

    @TempDir
    static Path dataDir;
    static FakeModelServer model;
    static TestServer server;
    static ServiceApi mine;
    static String mineKey;
    static ServiceApi other;
    static String otherKey;
    static String conversationId;
    static String messageId;
    static String variableId;

    @BeforeAll
    static void start() {
        model = new FakeModelServer();
        model.answer(Script.text("a secret answer", 1, 1));
        server = TestServer.start(TestServer.config(dataDir).withEngine(EngineConfiguration.fromEnvironment(
                Map.of("HEXAFLOW_LLM_MODELS", "*=local-model")).withLlm(model.baseUrl(), "sk-t")));
        mineKey = server.importApp("chatflow.yml").get("api_key").asText();
        otherKey = server.importApp("chatflow.yml").get("api_key").asText();
        mine = server.api(mineKey);
        other = server.api(otherKey);
        JsonNode sent = json(mine.postJson("/v1/chat-messages", ChatApiHttpTest.message("a secret question", null,
                "ada", "blocking")));
        conversationId = sent.get("conversation_id").asText();
        messageId = sent.get("message_id").asText();
        variableId = json(mine.get("/v1/conversations/" + conversationId + "/variables?user=ada")).get("data")
                .get(0).get("id").asText();
        mine.postJson("/v1/messages/" + messageId + "/feedbacks", Map.of("rating", "like", "user", "ada"));
    }

    @AfterAll
    static void stop() {
        server.close();
        model.close();
    }

    @Test
    void anotherUserOfTheAppFindsNoConversationAndNoMessage() {
        assertNotExists(mine, mineKey, "bob", "Conversation Not Exists.", "Message Not Exists.");
        assertThat(json(mine.get("/v1/conversations?user=bob")).get("data")).isEmpty();
    }

    @Test
    void theSameUserThroughAnotherAppFindsNoConversationAndNoMessage() {
        assertNotExists(other, otherKey, "ada", "Conversation Not Exists.", "Message Not Exists.");
        assertThat(json(other.get("/v1/conversations?user=ada")).get("data")).isEmpty();
        assertThat(json(other.get("/v1/app/feedbacks")).get("data")).isEmpty();
    }

    @Test
    void theConversationIsUnchangedByEveryoneElsesTries() {
        assertNotExists(mine, mineKey, "bob", "Conversation Not Exists.", "Message Not Exists.");
        assertNotExists(other, otherKey, "ada", "Conversation Not Exists.", "Message Not Exists.");

        JsonNode conversations = json(mine.get("/v1/conversations?user=ada")).get("data");
        JsonNode messages = json(mine.get("/v1/messages?user=ada&conversation_id=" + conversationId)).get("data");
        JsonNode variable = json(mine.get("/v1/conversations/" + conversationId + "/variables?user=ada"))
                .get("data").get(0);
        assertThat(conversations).extracting(c -> c.get("id").asText() + " " + c.get("name").asText())
                .containsExactly(conversationId + " a secret question");
        assertThat(messages).extracting(m -> m.get("answer").asText() + " " + m.get("feedback").get("rating")
                .asText()).containsExactly("a secret answer like");
        assertThat(variable.get("value").asText()).isEqualTo("a secret question");
    }

    private static void assertNotExists(ServiceApi api, String key, String user, String conversation,
            String message) {
        String c = "/v1/conversations/" + conversationId;
        List<HttpResponse<String>> conversationRoutes = List.of(
                api.get("/v1/messages?user=" + user + "&conversation_id=" + conversationId),
                api.postJson("/v1/chat-messages", ChatApiHttpTest.message("let me in", conversationId, user,
                        "blocking")),
                api.postJson(c + "/name", Map.of("name", "taken", "user", user)),
                api.get(c + "/variables?user=" + user),
                server.send("PUT", c + "/variables/" + variableId, "application/json",
                        "{\"value\": \"taken\", \"user\": \"" + user + "\"}", key),
                server.send("DELETE", c, "application/json", "{\"user\": \"" + user + "\"}", key));
        for (HttpResponse<String> response : conversationRoutes) {
            assertThat(response.statusCode()).as(response.uri() + " " + response.body()).isEqualTo(404);
            assertThat(json(response).get("message").asText()).isEqualTo(conversation);
            assertThat(response.body()).doesNotContain("secret");
        }
        List<HttpResponse<String>> messageRoutes = List.of(
                api.postJson("/v1/messages/" + messageId + "/feedbacks", Map.of("rating", "dislike", "user", user)),
                api.get("/v1/messages/" + messageId + "/suggested?user=" + user));
        for (HttpResponse<String> response : messageRoutes) {
            assertThat(response.statusCode()).as(response.uri() + " " + response.body()).isEqualTo(404);
            assertThat(json(response).get("message").asText()).isEqualTo(message);
        }
    }
}
