package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer.Script;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.app.config.McpServerSettings;
import dev.hexaflow.engine.EngineConfiguration;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Apps published as MCP servers, called by the official MCP Java SDK's client over Streamable HTTP on a real
 * server: the tool listed with the app's start form as its schema, a call kept as a run of its own in the app's
 * logs, a chatflow's answer, the switch and the new URL, MCP errors for bad arguments and a failed run, and the
 * limits (the body, the calls at once, a call's wait) each tried past.
 */
class McpServerHttpTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    Path dataDir;
    TestServer server;

    @BeforeEach
    void start() {
        server = started(Duration.ofSeconds(60), 8);
    }

    /**
     * A server whose MCP servers read 4 KiB, answer {@code maxCalls} requests at once and wait {@code callWait} for
     * a run. The SDK's client may send its "initialized" notification while its next request is on the way, so only
     * the test of the limit itself allows one.
     */
    private TestServer started(Duration callWait, int maxCalls) {
        return TestServer.start(TestServer.config(dataDir)
                .withMcpServer(new McpServerSettings(4 * 1024, maxCalls, callWait)));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void aWorkflowAppIsOneToolWhoseCallIsARunKeptInItsLogs() {
        JsonNode app = server.importApp("echo.yml");
        String appId = app.get("app_id").asText();
        assertThat(admin("GET", appId, "").get("status").asText()).isEqualTo("inactive");
        JsonNode on = admin("POST", appId, "/enable");
        assertThat(on.get("url_path").asText()).matches("/mcp/server/[a-z0-9]{32}/mcp");
        assertThat(on.get("description").asText()).isEqualTo("Says back what it is told.");

        try (McpSyncClient client = client(on.get("url_path").asText())) {
            McpSchema.InitializeResult hello = client.initialize();
            assertThat(hello.serverInfo().name()).isEqualTo("Hexaflow");
            assertThat(hello.instructions()).isEqualTo("Says back what it is told.");
            List<McpSchema.Tool> tools = client.listTools().tools();
            assertThat(tools).hasSize(1);
            McpSchema.Tool tool = tools.get(0);
            assertThat(tool.name()).isEqualTo("Echo");
            assertThat(tool.description()).isEqualTo("Says back what it is told.");
            assertThat(tool.inputSchema().get("required")).isEqualTo(List.of("query"));
            assertThat(properties(tool)).containsOnlyKeys("query", "tone");
            assertThat(properties(tool).get("tone")).isEqualTo(Map.of("description", "", "type",
                    "string", "enum", List.of("calm", "loud")));

            McpSchema.CallToolResult result = client.callTool(new McpSchema.CallToolRequest("Echo",
                    Map.of("query", "hi", "tone", "loud")));
            assertThat(result.isError()).isFalse();
            assertThat(text(result)).isEqualTo("{\"answer\": \"You said: hi (loud)\", \"query\": \"hi\"}");
        }
        ServiceApi api = server.api(app.get("api_key").asText());
        JsonNode logs = ServiceApi.json(api.get("/v1/workflows/logs?created_by_end_user_session_id="
                + on.get("id").asText()));
        assertThat(logs.get("total").asInt()).isEqualTo(1);
        assertThat(logs.get("data").get(0).get("workflow_run").get("status").asText()).isEqualTo("succeeded");
    }

    @Test
    void theOperatorsDescriptionsReachTheToolAndAChatflowTakesItsQuery() {
        JsonNode app = server.importApp("tea-chat.yml");
        String appId = app.get("app_id").asText();
        HttpResponse<String> described = server.admin("PUT", "/admin/apps/" + appId + "/mcp-server",
                "application/json", "{\"description\": \"Knows tea\", \"parameters\": {}}");
        assertThat(described.statusCode()).isEqualTo(200);
        assertThat(TestServer.json(described).get("status").asText()).isEqualTo("inactive");
        String path = admin("POST", appId, "/enable").get("url_path").asText();

        try (McpSyncClient client = client(path)) {
            client.initialize();
            McpSchema.Tool tool = client.listTools().tools().get(0);
            assertThat(tool.name()).isEqualTo("Tea chat");
            assertThat(tool.description()).isEqualTo("Knows tea");
            assertThat(tool.inputSchema().get("required")).isEqualTo(List.of("query"));
            McpSchema.CallToolResult result = client.callTool(new McpSchema.CallToolRequest("Tea chat",
                    Map.of("query", "Is green tea hot?")));
            assertThat(result.isError()).isFalse();
            assertThat(text(result)).startsWith("You said: Is green tea hot?");
        }
    }

    @Test
    void aChatbotTakesAQueryAndATextGeneratorItsInputsAlone() {
        server.close();
        try (FakeModelServer model = new FakeModelServer()) {
            server = TestServer.start(TestServer.config(dataDir).withMcpServer(new McpServerSettings(4 * 1024, 8,
                    Duration.ofSeconds(60))).withEngine(EngineConfiguration.fromEnvironment(Map.of(
                    "HEXAFLOW_LLM_MODELS", "*=local-model")).withLlm(model.baseUrl(), "sk-t")));
            model.answer(Script.text("Welcome Ada", 7, 3));
            String chatbot = admin("POST", server.importApp("easy-chat.yml").get("app_id").asText(), "/enable")
                    .get("url_path").asText();
            try (McpSyncClient client = client(chatbot)) {
                client.initialize();
                McpSchema.Tool tool = client.listTools().tools().get(0);
                assertThat(tool.inputSchema().get("required")).isEqualTo(List.of("query", "name"));
                McpSchema.CallToolResult said = client.callTool(new McpSchema.CallToolRequest(tool.name(),
                        Map.of("query", "hello", "name", "Ada")));
                assertThat(said.isError()).isFalse();
                assertThat(text(said)).isEqualTo("Welcome Ada");
            }

            model.answer(Script.text("Waves fold on the shore", 9, 5));
            String poet = admin("POST", server.importApp("easy-completion.yml").get("app_id").asText(), "/enable")
                    .get("url_path").asText();
            try (McpSyncClient client = client(poet)) {
                client.initialize();
                McpSchema.Tool tool = client.listTools().tools().get(0);
                assertThat(tool.inputSchema().get("required")).isEqualTo(List.of("subject"));
                assertThat(properties(tool)).containsOnlyKeys("subject", "style");
                McpSchema.CallToolResult poem = client.callTool(new McpSchema.CallToolRequest(tool.name(),
                        Map.of("subject", "the sea", "style", "haiku")));
                assertThat(poem.isError()).isFalse();
                assertThat(text(poem)).isEqualTo("Waves fold on the shore");
            }
            assertThat(model.requests()).hasSize(2);
        }
    }

    @Test
    void aServerThatIsOffOrWhoseUrlWasRenewedAnswersNothing() {
        String appId = server.importApp("echo.yml").get("app_id").asText();
        String old = admin("POST", appId, "/enable").get("url_path").asText();
        String renewed = admin("POST", appId, "/new-url").get("url_path").asText();
        assertThat(renewed).isNotEqualTo(old);
        assertRefused(post(old, ping()), 404, "Server Not Found");
        try (McpSyncClient client = client(old)) {
            assertThatThrownBy(client::initialize).isInstanceOf(RuntimeException.class);
        }
        try (McpSyncClient client = client(renewed)) {
            assertThat(client.initialize().serverInfo().name()).isEqualTo("Hexaflow");
        }
        admin("POST", appId, "/disable");
        assertRefused(post(renewed, ping()), 404, "Server Not Found");
        assertRefused(post("/mcp/server/nosuchcode/mcp", ping()), 404, "Server Not Found");
        String never = server.importApp("tea-chat.yml").get("app_id").asText();
        assertThat(admin("GET", never, "").get("url_path").isNull()).isTrue();
        assertThat(server.admin("POST", "/admin/apps/" + never + "/mcp-server/new-url", null, null).statusCode())
                .isEqualTo(404);
    }

    @Test
    void badArgumentsAnUnknownToolAndAFailedRunAreMcpErrors() {
        String echo = admin("POST", server.importApp("echo.yml").get("app_id").asText(), "/enable")
                .get("url_path").asText();
        try (McpSyncClient client = client(echo)) {
            client.initialize();
            McpSchema.CallToolResult missing = callOrError(client, "Echo", Map.of("tone", "calm"));
            assertThat(missing.isError()).isTrue();
            assertThat(text(missing)).contains("query");
            McpSchema.CallToolResult tooLong = callOrError(client, "Echo", Map.of("query", "x".repeat(51)));
            assertThat(tooLong.isError()).isTrue();
            assertThat(text(tooLong)).contains("query");
            assertThatThrownBy(() -> client.callTool(new McpSchema.CallToolRequest("Nope", Map.of())))
                    .isInstanceOf(McpError.class);
        }
        String fails = admin("POST", server.importApp("fails.yml").get("app_id").asText(), "/enable")
                .get("url_path").asText();
        try (McpSyncClient client = client(fails)) {
            client.initialize();
            String name = client.listTools().tools().get(0).name();
            McpSchema.CallToolResult failed = client.callTool(new McpSchema.CallToolRequest(name, Map.of()));
            assertThat(failed.isError()).isTrue();
            assertThat(text(failed)).contains("the printer is on fire");
        }
    }

    @Test
    void aBodyPastTheLimitACallPastTheCallsAtOnceAndARunPastTheWaitAreRefusedOrCutShort() throws Exception {
        server.close();
        server = started(Duration.ofSeconds(2), 1);
        JsonNode app = server.importApp("slow.yml");
        String path = admin("POST", app.get("app_id").asText(), "/enable").get("url_path").asText();
        String large = "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\", \"params\": {\"x\": \""
                + "x".repeat(5 * 1024) + "\"}}";
        assertRefused(post(path, large), 413, "4096 bytes");

        String call = "{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": \"tools/call\", \"params\": {\"name\": \"Slow\","
                + " \"arguments\": {\"millis\": 4000}}}";
        CompletableFuture<HttpResponse<String>> slow = HTTP.sendAsync(request(path, call),
                HttpResponse.BodyHandlers.ofString());
        // Once its run is kept the call holds the one place until its wait is over: another request finds none.
        ServiceApi api = server.api(app.get("api_key").asText());
        long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (ServiceApi.json(api.get("/v1/workflows/logs")).get("total").asInt() == 0
                && System.nanoTime() < until) {
            Thread.sleep(50);
        }
        assertRefused(post(path, ping()), 429, "Too many MCP calls at once");

        JsonNode cut = TestServer.json(slow.get().body());
        assertThat(cut.get("result").get("isError").asBoolean()).isTrue();
        assertThat(cut.get("result").get("content").get(0).get("text").asText()).contains("goes on past 2 s");
        String runId = cut.get("result").get("_meta").get("workflow_run_id").asText();
        long done = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        String status = "running";
        while (status.equals("running") && System.nanoTime() < done) {
            Thread.sleep(200);
            status = ServiceApi.json(api.get("/v1/workflows/run/" + runId)).get("status").asText();
        }
        assertThat(status).isEqualTo("succeeded");
        assertThat(post(path, ping()).statusCode()).isEqualTo(200);
    }

    /** A call the SDK checks against the schema (an error result) or the run's form refuses (an MCP error). */
    private static McpSchema.CallToolResult callOrError(McpSyncClient client, String tool, Map<String, Object> args) {
        try {
            return client.callTool(new McpSchema.CallToolRequest(tool, args));
        } catch (McpError e) {
            assertThat(e.getJsonRpcError().code()).isEqualTo(McpSchema.ErrorCodes.INVALID_PARAMS);
            return McpSchema.CallToolResult.builder().addTextContent(e.getMessage()).isError(true).build();
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> properties(McpSchema.Tool tool) {
        return (Map<String, Object>) tool.inputSchema().get("properties");
    }

    private McpSyncClient client(String path) {
        return McpClient.sync(HttpClientStreamableHttpTransport.builder(server.baseUrl()).endpoint(path).build())
                .requestTimeout(Duration.ofSeconds(20)).initializationTimeout(Duration.ofSeconds(10)).build();
    }

    private JsonNode admin(String method, String appId, String tail) {
        HttpResponse<String> answer = server.admin(method, "/admin/apps/" + appId + "/mcp-server" + tail, null, null);
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        return TestServer.json(answer);
    }

    private static String text(McpSchema.CallToolResult result) {
        return ((McpSchema.TextContent) result.content().get(0)).text();
    }

    private static String ping() {
        return "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\"}";
    }

    private HttpRequest request(String path, String body) {
        return HttpRequest.newBuilder(URI.create(server.baseUrl() + path)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    private HttpResponse<String> post(String path, String body) {
        return ServiceApi.bounded(HTTP, request(path, body), HttpResponse.BodyHandlers.ofString());
    }

    private static void assertRefused(HttpResponse<String> answer, int status, String message) {
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(status);
        JsonNode body = TestServer.json(answer);
        assertThat(body.get("jsonrpc").asText()).isEqualTo("2.0");
        assertThat(body.get("error").get("message").asText()).contains(message);
    }
}
