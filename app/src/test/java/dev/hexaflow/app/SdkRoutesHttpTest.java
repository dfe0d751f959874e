package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer.Script;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.app.cli.CommandLine;
import dev.hexaflow.engine.EngineConfiguration;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Service API routes Dify's own SDKs call that Dify 1.13 onwards added, on the real server: an end user by id,
 * an upload by id, a conversation variable changed with PATCH, and the app's feedbacks in Dify's shape; each
 * refusal in Dify's code and message, another app's ids included.
 */
class SdkRoutesHttpTest {

    private static final String ISO_TIME = "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}";

    @TempDir
    static Path dataDir;
    static FakeModelServer model;
    static TestServer server;
    static String chatKey;
    static ServiceApi chat;
    static String workflowKey;
    static ServiceApi workflow;

    @BeforeAll
    static void start() {
        model = new FakeModelServer();
        model.answer(Script.text("an answer", 1, 1));
        server = TestServer.start(TestServer.config(dataDir).withEngine(EngineConfiguration.fromEnvironment(
                Map.of("HEXAFLOW_LLM_MODELS", "*=local-model")).withLlm(model.baseUrl(), "sk-t")));
        chatKey = server.importApp("chatflow.yml").get("api_key").asText();
        chat = server.api(chatKey);
        workflowKey = server.importApp("echo.yml").get("api_key").asText();
        workflow = server.api(workflowKey);
    }

    @AfterAll
    static void stop() {
        server.close();
        model.close();
    }

    private static JsonNode uploaded(ServiceApi api, String user, String name, String type, String text) {
        HttpResponse<String> sent = api.multipart("/v1/files/upload", List.of(
                ServiceApi.Part.field("user", user),
                ServiceApi.Part.file(name, type, text.getBytes(StandardCharsets.UTF_8))));
        assertThat(sent.statusCode()).as(sent.body()).isEqualTo(201);
        return json(sent);
    }

    @Test
    void theIndexSaysWhichApiAndServerAnswerHereWithNoKeyAsDifysDoes() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        for (String path : List.of("/v1/", "/v1")) {
            HttpResponse<String> index = http.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + path)).GET()
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(index.statusCode()).as(path).isEqualTo(200);
            JsonNode body = TestServer.json(index.body());
            assertThat(body.fieldNames()).toIterable().containsExactly("welcome", "api_version", "server_version");
            assertThat(body.get("welcome").asText()).isEqualTo("Dify OpenAPI");
            assertThat(body.get("api_version").asText()).isEqualTo("v1");
            assertThat(body.get("server_version").asText()).isEqualTo(CommandLine.VERSION);
        }
    }

    @Test
    void anEndUserIsShownByTheIdTheirUploadNamesAndToTheirAppAlone() {
        String id = uploaded(workflow, "ada", "a.txt", "text/plain", "hello").get("created_by").asText();

        HttpResponse<String> shown = workflow.get("/v1/end-users/" + id);

        assertThat(shown.statusCode()).as(shown.body()).isEqualTo(200);
        JsonNode user = json(shown);
        assertThat(user.get("id").asText()).isEqualTo(id);
        assertThat(user.get("session_id").asText()).isEqualTo("ada");
        assertThat(user.get("external_user_id").asText()).isEqualTo("ada");
        assertThat(user.get("type").asText()).isEqualTo("service-api");
        assertThat(user.get("is_anonymous").asBoolean()).isFalse();
        assertThat(user.has("tenant_id")).isTrue();
        assertThat(user.get("name").isNull()).isTrue();
        assertThat(user.get("created_at").asText()).matches(ISO_TIME).isEqualTo(user.get("updated_at").asText());
        assertError(chat.get("/v1/end-users/" + id), 404, "end_user_not_found", "End user not found.");
        assertError(workflow.get("/v1/end-users/ada"), 404, "end_user_not_found", "End user not found.");
        assertThat(server.send("GET", "/v1/end-users/" + id, null, null, null).statusCode()).isEqualTo(401);
    }

    @Test
    void anUploadIsServedToItsAppsKeyWithDifysHeaders() {
        String id = uploaded(workflow, "ada", "my notes.txt", "text/plain", "hello").get("id").asText();

        HttpResponse<String> shown = workflow.get("/v1/files/" + id + "/preview");
        HttpResponse<String> download = workflow.get("/v1/files/" + id + "/preview?as_attachment=true&user=ada");

        assertThat(shown.statusCode()).as(shown.body()).isEqualTo(200);
        assertThat(shown.body()).isEqualTo("hello");
        assertThat(shown.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/plain");
        assertThat(shown.headers().firstValue("Cache-Control")).contains("public, max-age=3600");
        assertThat(shown.headers().firstValue("Content-Disposition")).isEmpty();
        assertThat(download.statusCode()).isEqualTo(200);
        assertThat(download.headers().firstValue("Content-Disposition"))
                .contains("attachment; filename*=UTF-8''my%20notes.txt");
        assertThat(download.headers().firstValue("Content-Type").orElseThrow())
                .startsWith("application/octet-stream");
    }

    @Test
    void anHtmlUploadIsAlwaysADownload() {
        String id = uploaded(workflow, "ada", "page.html", "text/html", "<script>1</script>").get("id").asText();

        HttpResponse<String> shown = workflow.get("/v1/files/" + id + "/preview");

        assertThat(shown.statusCode()).as(shown.body()).isEqualTo(200);
        assertThat(shown.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/octet-stream");
        assertThat(shown.headers().firstValue("Content-Disposition"))
                .contains("attachment; filename*=UTF-8''page.html");
        assertThat(shown.headers().firstValue("X-Content-Type-Options")).contains("nosniff");
    }

    @Test
    void anotherAppsUploadIsDeniedAnUnknownOneNotFoundAndABadFlagRefused() {
        String id = uploaded(workflow, "ada", "a.txt", "text/plain", "secret").get("id").asText();

        assertError(chat.get("/v1/files/" + id + "/preview"), 403, "file_access_denied",
                "File access denied: not owned by requesting app");
        assertError(workflow.get("/v1/files/no-such-file/preview"), 404, "file_not_found",
                "File not found in message context");
        assertError(workflow.get("/v1/files/" + id + "/preview?as_attachment=maybe"), 400, "invalid_param",
                "as_attachment must be a boolean");
    }

    @Test
    void aConversationVariableChangesWithPatchAsWithPut() {
        String conversation = json(chat.postJson("/v1/chat-messages", ChatApiHttpTest.message("one", null, "cy",
                "blocking"))).get("conversation_id").asText();
        String variable = json(chat.get("/v1/conversations/" + conversation + "/variables?user=cy")).get("data")
                .get(0).get("id").asText();
        String path = "/v1/conversations/" + conversation + "/variables/";

        HttpResponse<String> patched = server.send("PATCH", path + variable, "application/json",
                "{\"value\": \"patched\", \"user\": \"cy\"}", chatKey);

        assertThat(patched.statusCode()).as(patched.body()).isEqualTo(200);
        assertThat(json(patched).get("value").asText()).isEqualTo("patched");
        assertThat(json(chat.get(path.substring(0, path.length() - 1) + "?user=cy")).get("data").get(0)
                .get("value").asText()).isEqualTo("patched");
        assertError(server.send("PATCH", path + "no-such-variable", "application/json",
                "{\"value\": \"x\", \"user\": \"cy\"}", chatKey), 404, "not_found",
                "Conversation Variable Not Exists.");
        assertError(server.send("PATCH", path + variable, "application/json", "{\"user\": \"cy\"}", chatKey), 400,
                "invalid_param", "value is required");
    }

    @Test
    void theAppsFeedbacksCarryDifysTimesAndAWorkflowAppHasNone() {
        JsonNode sent = json(chat.postJson("/v1/chat-messages", ChatApiHttpTest.message("rate", null, "dee",
                "blocking")));
        chat.postJson("/v1/messages/" + sent.get("message_id").asText() + "/feedbacks", Map.of("rating", "dislike",
                "user", "dee"));

        JsonNode feedback = json(chat.get("/v1/app/feedbacks?limit=1")).get("data").get(0);
        HttpResponse<String> none = workflow.get("/v1/app/feedbacks");

        assertThat(feedback.get("message_id").asText()).isEqualTo(sent.get("message_id").asText());
        assertThat(feedback.get("rating").asText()).isEqualTo("dislike");
        assertThat(feedback.get("from_source").asText()).isEqualTo("user");
        assertThat(feedback.get("from_account_id").isNull()).isTrue();
        assertThat(feedback.get("created_at").asText()).matches(ISO_TIME);
        assertThat(feedback.get("updated_at").asText()).matches(ISO_TIME);
        assertThat(none.statusCode()).as(none.body()).isEqualTo(200);
        assertThat(json(none).get("data")).isEmpty();
        assertError(chat.get("/v1/app/feedbacks?page=0"), 400, "invalid_param", "page must be 1 or more");
        assertThat(json(chat.get("/v1/app/feedbacks?page=100000&limit=101")).get("data")).isEmpty();
    }

    private static void assertError(HttpResponse<String> response, int status, String code, String message) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        JsonNode body = json(response);
        assertThat(body.get("code").asText()).isEqualTo(code);
        assertThat(body.get("message").asText()).isEqualTo(message);
        assertThat(body.get("status").asInt()).isEqualTo(status);
    }
}
