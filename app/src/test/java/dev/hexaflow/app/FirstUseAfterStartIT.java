package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer.Script;
import dev.hexaflow.app.api.ServiceApi;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged jar, started as an operator starts it, leaves for their first use what a first request does not
 * need (the model endpoint's HTTP client, the API document; the database migrates while the modules are built):
 * each works at its first request after the start, with nothing called before it.
 */
class FirstUseAfterStartIT {

    private static final String ADMIN = "first-use-admin-token-0123456789";

    @TempDir
    Path work;

    @Test
    void aServerJustStartedAnswersItsFirstModelCallAndItsFirstRequestForTheApiDocument() throws Exception {
        try (FakeModelServer model = new FakeModelServer()) {
            model.answer(Script.text("Hello from the model", 3, 4));
            JarServer server = JarServer.start(work.resolve("data"), work.resolve("server.log"), Map.of(
                    "HEXAFLOW_ADMIN_TOKEN", ADMIN, "HEXAFLOW_LLM_BASE_URL", model.baseUrl().toString(),
                    "HEXAFLOW_LLM_MODELS", "*=local-model"));
            try {
                HttpResponse<String> document = get(server, "/openapi.json");
                assertThat(document.statusCode()).isEqualTo(200);
                assertThat(TestServer.json(document).get("openapi").asText()).startsWith("3.1");

                ServiceApi chat = ServiceApi.ownClient(server.baseUrl(), importChatflow(server));
                HttpResponse<String> answer = chat.postJson("/v1/chat-messages",
                        ChatApiHttpTest.message("Anyone there?", null, "first-user", "blocking"));

                assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
                assertThat(TestServer.json(answer).get("answer").asText()).isEqualTo("Hello from the model");
                assertThat(model.requests()).hasSize(1);
            } finally {
                server.stop();
            }
        }
    }

    private static String importChatflow(JarServer server) throws Exception {
        try (InputStream dsl = FirstUseAfterStartIT.class.getResourceAsStream("/apps/chatflow.yml")) {
            HttpResponse<String> imported = TestServer.exchange(HttpRequest.newBuilder(
                    URI.create(server.baseUrl() + "/admin/apps")).header("Authorization", "Bearer " + ADMIN)
                    .header("Content-Type", "application/yaml")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(dsl.readAllBytes())),
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            assertThat(imported.statusCode()).as(imported.body()).isEqualTo(201);
            JsonNode app = TestServer.json(imported);
            return app.get("api_key").asText();
        }
    }

    private static HttpResponse<String> get(JarServer server, String path) {
        return TestServer.exchange(HttpRequest.newBuilder(URI.create(server.baseUrl() + path)).GET(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }
}
