package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.engine.EngineConfiguration;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file published over an app must be of the app's mode: Dify overwrites only workflow and advanced-chat apps and
 * keeps their mode, so a file of another mode is refused in the admin API's error shape and changes nothing. An
 * agent-chat file whose agent would need its knowledge bases as a tool is refused at import, naming the gap.
 */
class PublishModeHttpTest {

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

    @Test
    void aWorkflowAndAChatflowCannotBePublishedOverEachOther() throws Exception {
        String workflow = server.importApp("echo.yml").get("app_id").asText();
        String chatflow = server.importApp("chatflow.yml").get("app_id").asText();

        assertRefused(publish(workflow, "chatflow.yml"), "workflow", "advanced-chat");
        assertRefused(publish(chatflow, "echo.yml"), "advanced-chat", "workflow");

        assertThat(modeOf(workflow)).isEqualTo("workflow");
        assertThat(modeOf(chatflow)).isEqualTo("advanced-chat");
    }

    @Test
    void aModelConfigAppTakesOnlyAFileOfItsOwnMode() throws Exception {
        JsonNode imported = server.importApp("easy-chat.yml");
        String chat = imported.get("app_id").asText();
        String agent = server.importApp("easy-agent.yml").get("app_id").asText();

        assertRefused(publish(chat, "easy-completion.yml"), "chat", "completion");
        assertRefused(publish(chat, "chatflow.yml"), "chat", "advanced-chat");
        assertRefused(publish(agent, "easy-chat.yml"), "agent-chat", "chat");
        assertRefused(publish(server.importApp("echo.yml").get("app_id").asText(), "easy-completion.yml"),
                "workflow", "completion");

        HttpResponse<String> same = publish(chat, "easy-chat.yml");
        assertThat(same.statusCode()).as(same.body()).isEqualTo(200);
        assertThat(json(same).get("workflow_id").asText()).isEqualTo(imported.get("workflow_id").asText());
        HttpResponse<String> changed = server.admin("PUT", "/admin/apps/" + chat, "application/yaml",
                resource("easy-chat.yml").replace("A chatbot that greets", "A chatbot that welcomes"));
        assertThat(changed.statusCode()).as(changed.body()).isEqualTo(200);
        assertThat(json(changed).get("published").asBoolean()).isTrue();
        assertThat(modeOf(chat)).isEqualTo("chat");
    }

    private static void assertRefused(HttpResponse<String> response, String appMode, String fileMode) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        JsonNode body = json(response);
        assertThat(body.get("code").asText()).isEqualTo("invalid_param");
        assertThat(body.get("status").asInt()).isEqualTo(400);
        assertThat(body.get("message").asText()).startsWith("Only workflow or advanced chat apps can be overwritten")
                .contains("the app's mode is '" + appMode + "', the file's '" + fileMode + "'");
    }

    private static HttpResponse<String> publish(String appId, String file) throws Exception {
        return server.admin("PUT", "/admin/apps/" + appId, "application/yaml", resource(file));
    }

    private static String modeOf(String appId) {
        for (JsonNode app : json(server.admin("GET", "/admin/apps", null, null)).get("data")) {
            if (app.get("app_id").asText().equals(appId)) {
                return app.get("mode").asText();
            }
        }
        throw new AssertionError("no app " + appId);
    }

    private static String resource(String name) throws Exception {
        try (InputStream in = PublishModeHttpTest.class.getResourceAsStream("/apps/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
