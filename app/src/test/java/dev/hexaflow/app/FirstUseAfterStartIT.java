package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer.Script;
import dev.hexaflow.app.api.ServiceApi;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged jar, started as an operator starts it, leaves for their first use what a first request does not
 * need (the model endpoint's HTTP client, the API document, the MCP SDK's JSON classes, POI's zip reading, the
 * knowledge index while there is no knowledge, Flyway when the data directory is new and gets the build's database
 * file): each works at its first request after the start, with nothing called before it, and what no request used is
 * never loaded.
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
                    "HEXAFLOW_LLM_MODELS", "*=local-model",
                    "JAVA_TOOL_OPTIONS", "-Xlog:class+load=info:file=" + work.resolve("classes.txt")));
            try {
                HttpResponse<String> document = get(server, "/openapi.json");
                assertThat(document.statusCode()).isEqualTo(200);
                assertThat(TestServer.json(document).get("openapi").asText()).startsWith("3.1");

                ServiceApi chat = ServiceApi.ownClient(server.baseUrl(), server.importApp(ADMIN, "/apps/chatflow.yml"));
                HttpResponse<String> answer = chat.postJson("/v1/chat-messages",
                        ChatApiHttpTest.message("Anyone there?", null, "first-user", "blocking"));

                assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
                assertThat(TestServer.json(answer).get("answer").asText()).isEqualTo("Hello from the model");
                assertThat(model.requests()).hasSize(1);
            } finally {
                server.stop();
            }
        }
        // Loaded by a start, these cost it some 1,300 classes for a tool, an MCP call or a knowledge base that may
        // never come.
        String loaded = Files.readString(work.resolve("classes.txt"));
        assertThat(loaded).contains("dev.hexaflow.adapters.nodes.tool.mcp.McpSdkToolRunner")
                .contains("dev.hexaflow.adapters.nodes.tool.convert.PoiExcelToolRunner")
                .doesNotContain("com.networknt.schema.").doesNotContain("io.modelcontextprotocol.json.schema.")
                .doesNotContain("org.apache.poi.openxml4j.").doesNotContain("org.apache.logging.log4j.")
                .as("a store without knowledge opens no index").doesNotContain("org.apache.lucene.index.IndexWriter")
                .as("a new data directory gets the build's database file, so Flyway (and its JSON classes) stay "
                        + "unloaded").doesNotContain("org.flywaydb.").doesNotContain("tools.jackson.");
    }

    private static HttpResponse<String> get(JarServer server, String path) {
        return TestServer.exchange(HttpRequest.newBuilder(URI.create(server.baseUrl() + path)).GET(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }
}
