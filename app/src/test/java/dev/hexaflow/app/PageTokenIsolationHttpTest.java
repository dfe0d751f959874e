package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static dev.hexaflow.app.api.ServiceApi.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer.Script;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.app.api.ServiceApi.Part;
import dev.hexaflow.engine.EngineConfiguration;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A page's token acts for the one web user it was handed to: every Service API route that names a user refuses
 * any other (an API integration's "alice", another browser's web user, none at all) with Dify's 403, and leaves
 * their conversations as they were; the page's own user reaches every route. An app's key keeps acting for any
 * user.
 */
class PageTokenIsolationHttpTest {

    @TempDir
    static Path dataDir;
    static FakeModelServer model;
    static TestServer server;
    static String chatSite;
    static ServiceApi key;
    static String aliceConversation;
    static String aliceMessage;
    static String variableId;

    @BeforeAll
    static void start() {
        model = new FakeModelServer();
        model.answer(Script.text("a secret answer", 1, 1));
        server = TestServer.start(TestServer.config(dataDir).withEngine(EngineConfiguration.fromEnvironment(
                Map.of("HEXAFLOW_LLM_MODELS", "*=local-model")).withLlm(model.baseUrl(), "sk-t")));
        JsonNode chat = server.importApp("chatflow.yml");
        chatSite = chat.get("site_code").asText();
        key = server.api(chat.get("api_key").asText());
        JsonNode sent = json(key.postJson("/v1/chat-messages", ChatApiHttpTest.message("a secret question", null,
                "alice", "blocking")));
        aliceConversation = sent.get("conversation_id").asText();
        aliceMessage = sent.get("message_id").asText();
        variableId = json(key.get("/v1/conversations/" + aliceConversation + "/variables?user=alice")).get("data")
                .get(0).get("id").asText();
    }

    @AfterAll
    static void stop() {
        server.close();
        model.close();
    }

    @Test
    void aPageTokenCannotActForAnApiUserOnAnyChatRoute() {
        TestServer.PageToken page = server.pageToken(chatSite, null);

        assertEveryChatRouteRefuses(page.token(), "alice", aliceConversation, aliceMessage);
        assertUnchanged(key, "alice", aliceConversation);
    }

    @Test
    void aPageTokenCannotActForAnotherBrowsersWebUser() {
        TestServer.PageToken owner = server.pageToken(chatSite, null);
        ServiceApi ownersPage = server.api(owner.token());
        JsonNode sent = json(ownersPage.postJson("/v1/chat-messages", ChatApiHttpTest.message("a secret question",
                null, owner.user(), "blocking")));
        TestServer.PageToken intruder = server.pageToken(chatSite, null);

        assertThat(intruder.user()).isNotEqualTo(owner.user());
        assertEveryChatRouteRefuses(intruder.token(), owner.user(), sent.get("conversation_id").asText(),
                sent.get("message_id").asText());
        assertUnchanged(ownersPage, owner.user(), sent.get("conversation_id").asText());
    }

    @Test
    void aTokenAskedForAnIdThePageNeverMintedActsForANewWebUserInstead() {
        for (String asked : new String[] {"alice", "alice@example.com", "web-123",
                "web-0123456789ABCDEF0123456789ABCDEF"}) {
            TestServer.PageToken page = server.pageToken(chatSite, asked);

            assertThat(page.user()).as(asked).matches("web-[0-9a-f]{32}");
            HttpResponse<String> refused = server.api(page.token()).get("/v1/conversations?user=" + asked);
            assertThat(refused.statusCode()).as(asked).isEqualTo(403);
        }
        String kept = "web-0123456789abcdef0123456789abcdef";
        assertThat(server.pageToken(chatSite, kept).user()).isEqualTo(kept);
    }

    @Test
    void thePagesOwnUserReachesEveryChatRoute() {
        TestServer.PageToken token = server.pageToken(chatSite, null);
        ServiceApi page = server.api(token.token());
        String user = token.user();
        JsonNode sent = json(page.postJson("/v1/chat-messages", ChatApiHttpTest.message("my question", null, user,
                "blocking")));
        String c = "/v1/conversations/" + sent.get("conversation_id").asText();
        String m = "/v1/messages/" + sent.get("message_id").asText();
        String variable = json(page.get(c + "/variables?user=" + user)).get("data").get(0).get("id").asText();

        assertOk(page.get("/v1/conversations?user=" + user));
        assertOk(page.get("/v1/messages?user=" + user + "&conversation_id=" + sent.get("conversation_id")
                .asText()));
        assertOk(page.postJson(m + "/feedbacks", Map.of("rating", "like", "user", user)));
        assertOk(page.get(m + "/suggested?user=" + user));
        assertOk(page.postJson(c + "/name", Map.of("name", "mine", "user", user)));
        assertOk(server.send("PUT", c + "/variables/" + variable, "application/json",
                "{\"value\": \"changed\", \"user\": \"" + user + "\"}", token.token()));
        assertOk(page.postJson("/v1/chat-messages/no-such-task/stop", Map.of("user", user)));
        assertOk(server.send("DELETE", c, "application/json", "{\"user\": \"" + user + "\"}", token.token()));
        assertThat(json(page.get("/v1/conversations?user=" + user)).get("data")).isEmpty();
    }

    @Test
    void speechFollowsTheSameRule() {
        JsonNode speaks = server.importApp("chatflow-speaks.yml");
        ServiceApi speaksKey = server.api(speaks.get("api_key").asText());
        String alicesMessage = json(speaksKey.postJson("/v1/chat-messages", ChatApiHttpTest.message("say it", null,
                "alice", "blocking"))).get("message_id").asText();
        TestServer.PageToken token = server.pageToken(speaks.get("site_code").asText(), null);
        ServiceApi page = server.api(token.token());
        String ownMessage = json(page.postJson("/v1/chat-messages", ChatApiHttpTest.message("say mine", null,
                token.user(), "blocking"))).get("message_id").asText();

        assertForbidden(page.postJson("/v1/text-to-audio", Map.of("message_id", alicesMessage, "user", "alice")));
        assertForbidden(page.postJson("/v1/text-to-audio", Map.of("text", "hi")));
        assertForbidden(page.multipart("/v1/audio-to-text", List.of(Part.field("user", "alice"),
                Part.file("a.mp3", "audio/mpeg", "ID3 sound".getBytes(StandardCharsets.UTF_8)))));
        HttpResponse<String> spoken = page.postJson("/v1/text-to-audio", Map.of("message_id", ownMessage, "user",
                token.user()));
        assertThat(spoken.statusCode()).as(spoken.body()).isEqualTo(200);
        assertThat(spoken.body()).isEqualTo("MP3:nova:Spoken words");
    }

    @Test
    void theWorkflowRunStopAndUploadRoutesFollowTheSameRule() {
        JsonNode echo = server.importApp("echo.yml");
        TestServer.PageToken token = server.pageToken(echo.get("site_code").asText(), null);
        TestServer.PageToken other = server.pageToken(echo.get("site_code").asText(), null);
        ServiceApi page = server.api(token.token());
        byte[] notes = "hello".getBytes(StandardCharsets.UTF_8);

        for (String user : new String[] {"alice", other.user()}) {
            assertForbidden(page.postJson("/v1/workflows/run", run(Map.of("query", "x"), "blocking", user)));
            assertForbidden(page.postJson("/v1/workflows/run", run(Map.of("query", "x"), "streaming", user)));
            assertForbidden(page.postJson("/v1/workflows/tasks/no-such-task/stop", Map.of("user", user)));
            assertForbidden(page.multipart("/v1/files/upload", List.of(Part.field("user", user),
                    Part.file("notes.txt", "text/plain", notes))));
        }
        assertForbidden(page.postJson("/v1/workflows/run", Map.of("inputs", Map.of("query", "x"),
                "response_mode", "blocking")));

        assertOk(page.postJson("/v1/workflows/run", run(Map.of("query", "x"), "blocking", token.user())));
        assertOk(page.postJson("/v1/workflows/tasks/no-such-task/stop", Map.of("user", token.user())));
        assertThat(page.upload(token.user(), "notes.txt", "text/plain", notes)).isNotBlank();
        JsonNode logs = json(server.api(echo.get("api_key").asText()).get("/v1/workflows/logs?limit=100"));
        assertThat(logs.get("total").asInt()).as("only the page's own run").isEqualTo(1);
    }

    @Test
    void anAppKeyStillActsForAnyUser() {
        assertOk(key.get("/v1/conversations?user=alice"));
        assertOk(key.get("/v1/conversations?user=" + server.pageToken(chatSite, null).user()));
    }

    private static void assertEveryChatRouteRefuses(String token, String user, String conversationId,
            String messageId) {
        ServiceApi api = server.api(token);
        String c = "/v1/conversations/" + conversationId;
        String m = "/v1/messages/" + messageId;
        List<HttpResponse<String>> answers = new ArrayList<>(List.of(
                api.get("/v1/conversations?user=" + user),
                api.get("/v1/conversations"),
                api.get("/v1/messages?user=" + user + "&conversation_id=" + conversationId),
                api.postJson("/v1/chat-messages", ChatApiHttpTest.message("let me in", conversationId, user,
                        "blocking")),
                api.postJson(c + "/name", Map.of("name", "taken", "user", user)),
                api.postJson(c + "/name", Map.of("auto_generate", true, "user", user)),
                api.get(c + "/variables?user=" + user),
                server.send("PUT", c + "/variables/" + variableId, "application/json",
                        "{\"value\": \"taken\", \"user\": \"" + user + "\"}", token),
                server.send("DELETE", c, "application/json", "{\"user\": \"" + user + "\"}", token),
                server.send("DELETE", c + "?user=" + user, null, null, token),
                api.postJson(m + "/feedbacks", Map.of("rating", "dislike", "user", user)),
                api.get(m + "/suggested?user=" + user),
                api.postJson("/v1/text-to-audio", Map.of("message_id", messageId, "user", user)),
                api.postJson("/v1/chat-messages/no-such-task/stop", Map.of("user", user))));
        for (HttpResponse<String> answer : answers) {
            assertForbidden(answer);
            assertThat(answer.body()).doesNotContain("secret");
        }
    }

    private static void assertUnchanged(ServiceApi owner, String user, String conversationId) {
        JsonNode conversations = json(owner.get("/v1/conversations?user=" + user)).get("data");
        JsonNode messages = json(owner.get("/v1/messages?user=" + user + "&conversation_id=" + conversationId))
                .get("data");
        JsonNode variable = json(owner.get("/v1/conversations/" + conversationId + "/variables?user=" + user))
                .get("data").get(0);
        assertThat(conversations).extracting(c -> c.get("id").asText() + " " + c.get("name").asText())
                .containsExactly(conversationId + " a secret question");
        assertThat(messages).hasSize(1);
        assertThat(messages.get(0).get("feedback").isNull()).isTrue();
        assertThat(variable.get("value").asText()).isEqualTo("a secret question");
    }

    private static void assertForbidden(HttpResponse<String> answer) {
        assertThat(answer.statusCode()).as(answer.uri() + " " + answer.body()).isEqualTo(403);
        assertThat(json(answer).get("code").asText()).isEqualTo("forbidden");
        assertThat(json(answer).get("message").asText()).isEqualTo("A web page's token acts for its own user only.");
    }

    private static void assertOk(HttpResponse<String> answer) {
        assertThat(answer.statusCode()).as(answer.uri() + " " + answer.body()).isBetween(200, 204);
    }
}
