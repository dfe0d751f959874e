package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.app.api.ServiceApi;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A chat app's conversations for the operator: every end user's, with the admin token alone, each naming its end
 * user, each message the run that answered it, which {@code /admin/runs/{id}} then reads whole.
 */
class AdminConversationsHttpTest {

    @TempDir
    static Path dataDir;
    static TestServer server;
    static String chatApp;
    static String workflowApp;
    static final List<String> conversations = new ArrayList<>();

    @BeforeAll
    static void start() {
        server = TestServer.start(dataDir);
        JsonNode imported = server.importApp("tea-chat.yml");
        chatApp = imported.get("app_id").asText();
        ServiceApi chat = server.api(imported.get("api_key").asText());
        for (String user : List.of("ada", "bob", "cy")) {
            HttpResponse<String> answer = chat.postJson("/v1/chat-messages", Map.of("inputs", Map.of(),
                    "query", "hello from " + user, "response_mode", "blocking", "user", user));
            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
            conversations.add(json(answer).get("conversation_id").asText());
        }
        workflowApp = server.importApp("echo.yml").get("app_id").asText();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static JsonNode admin(String path) {
        HttpResponse<String> answer = server.admin("GET", path, null, null);
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        return TestServer.json(answer);
    }

    @Test
    void everyEndUsersConversationsAreListedNewestFirstAndPaged() {
        JsonNode first = admin("/admin/apps/" + chatApp + "/conversations?limit=2");
        JsonNode second = admin("/admin/apps/" + chatApp + "/conversations?limit=2&last_id="
                + first.get("data").get(1).get("id").asText());

        List<String> seen = new ArrayList<>(first.get("data").findValuesAsText("id"));
        seen.addAll(second.get("data").findValuesAsText("id"));
        assertThat(first.get("has_more").asBoolean()).isTrue();
        assertThat(second.get("has_more").asBoolean()).isFalse();
        assertThat(seen).containsExactly(conversations.get(2), conversations.get(1), conversations.get(0));
        assertThat(first.get("data").get(0).get("end_user_id").asText()).isNotBlank();
        assertThat(admin("/admin/apps/" + chatApp + "/conversations?user=bob").get("data").findValuesAsText("id"))
                .containsExactly(conversations.get(1));
        assertThat(admin("/admin/apps/" + chatApp + "/conversations?user=nobody").get("data")).isEmpty();
    }

    @Test
    void aConversationsMessagesNameTheRunThatAnsweredEach() {
        JsonNode messages = admin("/admin/apps/" + chatApp + "/conversations/" + conversations.get(0)
                + "/messages");

        assertThat(messages.get("data")).hasSize(1);
        JsonNode message = messages.get("data").get(0);
        assertThat(message.get("query").asText()).isEqualTo("hello from ada");
        String runId = message.get("workflow_run_id").asText();
        JsonNode run = admin("/admin/runs/" + runId);
        assertThat(run.get("app").get("id").asText()).isEqualTo(chatApp);
        assertThat(run.get("app").get("mode").asText()).isEqualTo("advanced-chat");
        assertThat(run.get("node_executions")).isNotEmpty();
    }

    @Test
    void aConversationOfAnotherAppAWorkflowAppOrAnUnknownLastIdIsRefused() {
        assertThat(server.admin("GET", "/admin/apps/" + workflowApp + "/conversations/" + conversations.get(0)
                + "/messages", null, null).statusCode()).isEqualTo(400);
        assertThat(server.admin("GET", "/admin/apps/" + chatApp + "/conversations/no-such/messages", null, null)
                .statusCode()).isEqualTo(404);
        assertThat(server.admin("GET", "/admin/apps/" + chatApp + "/conversations?last_id=no-such", null, null)
                .statusCode()).isEqualTo(404);
        assertThat(server.admin("GET", "/admin/apps/" + chatApp + "/conversations?limit=0", null, null)
                .statusCode()).isEqualTo(400);
        assertThat(server.send("GET", "/admin/apps/" + chatApp + "/conversations", null, null, "wrong-token")
                .statusCode()).isEqualTo(401);
    }
}
