package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static dev.hexaflow.app.api.ServiceApi.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.adapters.nodes.tool.mcp.LoopbackMcpServer;
import dev.hexaflow.adapters.nodes.tool.mcp.McpTestTools;
import dev.hexaflow.engine.EngineConfiguration;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tool files on the real server: an MCP server on loopback answers an image, the tool node's {@code files} holds
 * it as a tool file with a signed URL, and that URL, and only it, serves the bytes.
 */
class ToolFilesHttpTest {

    @TempDir
    Path dataDir;

    private static JsonNode drawn(TestServer server, LoopbackMcpServer painter) {
        server.admin("PUT", "/admin/tools/servers/painter", "application/json", "{\"url\": \"" + painter.url()
                + "\", \"headers\": {\"X-Api-Key\": \"key-1\"}}");
        HttpResponse<String> bound = server.admin("PUT", "/admin/tools/bindings", "application/json",
                "{\"provider\": \"acme/painter/painter\", \"tool\": \"draw\", \"mcp\": {\"server\": \"painter\", "
                        + "\"tool\": \"picture\"}}");
        assertThat(bound.statusCode()).as(bound.body()).isEqualTo(201);
        JsonNode imported = server.importApp("mcp-picture.yml");
        return json(server.api(imported.get("api_key").asText()).postJson("/v1/workflows/run", run(Map.of(),
                "blocking", "ada"))).get("data");
    }

    private static TestServer start(Path dataDir) {
        return TestServer.start(TestServer.config(dataDir).withEngine(EngineConfiguration.fromEnvironment(
                Map.of("HEXAFLOW_OUTBOUND_ALLOW", "127.0.0.1"))));
    }

    @Test
    void anMcpImageBecomesAToolFileServedAtItsSignedUrl() throws Exception {
        try (LoopbackMcpServer painter = new LoopbackMcpServer("key-1"); TestServer server = start(dataDir)) {
            JsonNode ran = drawn(server, painter);

            assertThat(ran.get("status").asText()).as(ran.toString()).isEqualTo("succeeded");
            assertThat(ran.get("outputs").get("text").asText()).isEqualTo("a picture");
            JsonNode file = ran.get("outputs").get("files").get(0);
            assertThat(file.get("dify_model_identity").asText()).isEqualTo("__dify__file__");
            assertThat(file.get("type").asText()).isEqualTo("image");
            assertThat(file.get("transfer_method").asText()).isEqualTo("tool_file");
            assertThat(file.get("mime_type").asText()).isEqualTo("image/png");
            assertThat(file.get("extension").asText()).isEqualTo(".png");
            assertThat(file.get("size").asLong()).isEqualTo(McpTestTools.PICTURE.length);
            String url = file.get("url").asText();
            assertThat(url).matches("/files/tools/" + file.get("related_id").asText()
                    + "\\.png\\?timestamp=\\d+&nonce=[a-z0-9]{32}&sign=[A-Za-z0-9_=-]+");

            HttpResponse<byte[]> served = server.getBytes(url);
            assertThat(served.statusCode()).isEqualTo(200);
            assertThat(served.body()).isEqualTo(McpTestTools.PICTURE);
            assertThat(served.headers().firstValue("content-type")).hasValueSatisfying(type -> assertThat(type)
                    .startsWith("image/png"));
            assertThat(served.headers().firstValue("content-security-policy")).contains("sandbox");
        }
    }

    @Test
    void aUrlWhoseSignatureOrIdIsNotTheServersIsRefused() throws Exception {
        try (LoopbackMcpServer painter = new LoopbackMcpServer("key-1"); TestServer server = start(dataDir)) {
            String url = drawn(server, painter).get("outputs").get("files").get(0).get("url").asText();
            String otherId = url.replaceFirst("/files/tools/[^.]+",
                    "/files/tools/00000000-0000-0000-0000-000000000000");
            String otherTime = url.replaceFirst("timestamp=\\d+", "timestamp=1");

            // Another first character than the signature's own: "A" would leave one signature in 64 as it was.
            char first = url.charAt(url.indexOf("sign=") + "sign=".length());
            assertThat(server.getBytes(url.replaceFirst("sign=.", "sign=" + (first == 'A' ? 'B' : 'A')))
                    .statusCode()).isEqualTo(403);
            assertThat(server.getBytes(otherId).statusCode()).isEqualTo(403);
            assertThat(server.getBytes(otherTime).statusCode()).isEqualTo(403);
            assertThat(server.getBytes(url.replace(".png?", ".mp3?")).statusCode()).isEqualTo(404);
            assertThat(server.getBytes(url.substring(0, url.indexOf('?'))).statusCode()).isEqualTo(403);
        }
    }

    @Test
    void theAudioToolsSpeechIsAToolFileOfTheSpeechEndpointsBytes() {
        try (FakeModelServer speech = new FakeModelServer(); TestServer server = TestServer.start(TestServer.config(
                dataDir).withEngine(EngineConfiguration.fromEnvironment(Map.of()).withLlm(speech.baseUrl(), null)))) {
            JsonNode imported = server.importApp("tts-tool.yml");
            assertThat(imported.get("warnings")).as("audio/tts is built in").isEmpty();

            JsonNode ran = json(server.api(imported.get("api_key").asText()).postJson("/v1/workflows/run",
                    run(Map.of("q", "Hello there."), "blocking", "ada"))).get("data");

            assertThat(ran.get("status").asText()).as(ran.toString()).isEqualTo("succeeded");
            assertThat(ran.get("outputs").get("text").asText()).isEqualTo("Audio generated successfully");
            JsonNode file = ran.get("outputs").get("files").get(0);
            assertThat(file.get("type").asText()).isEqualTo("audio");
            assertThat(file.get("mime_type").asText()).isEqualTo("audio/mpeg");
            assertThat(file.get("extension").asText()).isEqualTo(".mp3");
            HttpResponse<byte[]> served = server.getBytes(file.get("url").asText());
            assertThat(new String(served.body(), java.nio.charset.StandardCharsets.UTF_8))
                    .isEqualTo("MP3:nova:Hello there.");
        }
    }
}
