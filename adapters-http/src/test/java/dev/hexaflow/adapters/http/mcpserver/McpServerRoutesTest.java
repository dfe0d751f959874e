package dev.hexaflow.adapters.http.mcpserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.mcpserver.port.in.ServeMcpServerUseCase;
import io.javalin.Javalin;
import io.javalin.testtools.JavalinTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The MCP server door alone, on a hand-written use case with one code: an unknown code is 404 with a JSON-RPC error
 * before its body is read, a body past the limit 413, a body that is no JSON-RPC message 400, a notification 202,
 * GET 405; the SDK's server answers initialize and tools/list, and a call reaches the use case with its arguments.
 */
class McpServerRoutesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CODE = "c".repeat(32);
    private static final String PATH = "/mcp/server/" + CODE + "/mcp";

    private final List<Map<String, Object>> calls = Collections.synchronizedList(new ArrayList<>());
    private final ServeMcpServerUseCase serve = new ServeMcpServerUseCase() {
        @Override
        public McpAppTool open(String code) {
            if (!code.equals(CODE)) {
                throw new ApiException(ApiError.NOT_FOUND, "Server Not Found");
            }
            return new McpAppTool("s1", "a1", "Echo", "Says it back", Map.of("type", "object", "properties",
                    Map.of("query", Map.of("type", "string", "description", "")), "required", List.of("query")), "1");
        }

        @Override
        public McpToolAnswer call(String code, Map<String, Object> arguments) {
            calls.add(arguments);
            return new McpToolAnswer("{\"answer\": \"" + arguments.get("query") + "\"}", false, "run-1");
        }
    };

    private Javalin app() {
        return Javalin.create(config -> new McpServerRoutes(serve, "test", 1024, 4, Duration.ofSeconds(5))
                .addTo(config.routes));
    }

    @Test
    void refusalsAreJsonRpcErrorsWithTheirHttpStatus() {
        JavalinTest.test(app(), (server, client) -> {
            var unknown = client.post("/mcp/server/" + "d".repeat(32) + "/mcp", "x".repeat(4096));
            assertThat(unknown.code()).isEqualTo(404);
            JsonNode body = JSON.readTree(unknown.body().string());
            assertThat(body.get("jsonrpc").asText()).isEqualTo("2.0");
            assertThat(body.get("id").isNull()).isTrue();
            assertThat(body.get("error").get("message").asText()).isEqualTo("Server Not Found");

            assertThat(client.post(PATH, "x".repeat(2048)).code()).isEqualTo(413);
            var notJsonRpc = client.post(PATH, "[1, 2");
            assertThat(notJsonRpc.code()).isEqualTo(400);
            assertThat(JSON.readTree(notJsonRpc.body().string()).get("error").get("code").asInt()).isEqualTo(-32700);
            assertThat(client.get(PATH).code()).isEqualTo(405);
            assertThat(client.post(PATH, "{\"jsonrpc\": \"2.0\", \"method\": \"notifications/initialized\"}").code())
                    .isEqualTo(202);
        });
    }

    @Test
    void theSdksServerListsTheToolAndACallReachesTheUseCase() {
        JavalinTest.test(app(), (server, client) -> {
            JsonNode hello = JSON.readTree(client.post(PATH, "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": "
                    + "\"initialize\", \"params\": {\"protocolVersion\": \"2025-06-18\", \"capabilities\": {}, "
                    + "\"clientInfo\": {\"name\": \"t\", \"version\": \"1\"}}}").body().string());
            assertThat(hello.get("result").get("serverInfo").get("name").asText()).isEqualTo("Hexaflow");
            assertThat(hello.get("result").get("instructions").asText()).isEqualTo("Says it back");

            JsonNode listed = JSON.readTree(client.post(PATH, "{\"jsonrpc\": \"2.0\", \"id\": \"two\", \"method\": "
                    + "\"tools/list\"}").body().string());
            assertThat(listed.get("id").asText()).isEqualTo("two");
            assertThat(listed.get("result").get("tools").get(0).get("name").asText()).isEqualTo("Echo");

            JsonNode called = JSON.readTree(client.post(PATH, "{\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": "
                    + "\"tools/call\", \"params\": {\"name\": \"Echo\", \"arguments\": {\"query\": \"hi\"}}}")
                    .body().string());
            assertThat(called.get("result").get("content").get(0).get("text").asText())
                    .isEqualTo("{\"answer\": \"hi\"}");
            assertThat(called.get("result").get("isError").asBoolean()).isFalse();
            assertThat(calls).containsExactly(Map.of("query", "hi"));
        });
    }
}
