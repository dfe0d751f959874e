package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static dev.hexaflow.app.api.ServiceApi.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.nodes.tool.mcp.LoopbackMcpServer;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.app.config.Configuration;
import dev.hexaflow.engine.EngineConfiguration;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A workflow's tool that is not built in, bound by the operator to a tool of an MCP server on loopback: the app
 * imports with a warning before the binding and none after, and its runs call the server's tool.
 */
class McpToolRunHttpTest {

    @TempDir
    Path dataDir;

    /** The warnings GET /admin/apps shows for the app: what it waits on now. */
    static java.util.List<String> waitingOn(TestServer server, String appId) {
        for (JsonNode app : json(server.admin("GET", "/admin/apps", null, null)).get("data")) {
            if (app.get("app_id").asText().equals(appId)) {
                java.util.List<String> warnings = new java.util.ArrayList<>();
                app.get("warnings").forEach(warning -> warnings.add(warning.asText()));
                return warnings;
            }
        }
        throw new AssertionError("no app " + appId + " in /admin/apps");
    }

    @Test
    void aToolBoundToAnMcpServersToolRunsThereFromAWorkflowOverHttp() throws Exception {
        Configuration config = TestServer.config(dataDir).withEngine(EngineConfiguration.fromEnvironment(
                Map.of("HEXAFLOW_OUTBOUND_ALLOW", "127.0.0.1")));
        try (LoopbackMcpServer calculator = new LoopbackMcpServer("key-1");
                TestServer server = TestServer.start(config)) {
            JsonNode imported = server.importApp("mcp-tool.yml");
            assertThat(imported.get("warnings").toString()).contains("acme/calculator/calculator")
                    .contains("add_numbers");
            ServiceApi api = server.api(imported.get("api_key").asText());
            assertThat(waitingOn(server, imported.get("app_id").asText())).singleElement().asString()
                    .contains("acme/calculator/calculator/add_numbers");
            JsonNode unbound = json(api.postJson("/v1/workflows/run", run(Map.of("b", 3), "blocking", "ada")))
                    .get("data");
            assertThat(unbound.get("status").asText()).isEqualTo("failed");
            assertThat(unbound.get("error").asText()).contains("not built in and not bound");

            HttpResponse<String> registered = server.admin("PUT", "/admin/tools/servers/calc", "application/json",
                    "{\"url\": \"" + calculator.url() + "\", \"headers\": {\"X-Api-Key\": \"key-1\"}}");
            assertThat(registered.statusCode()).as(registered.body()).isBetween(200, 201);
            HttpResponse<String> bound = server.admin("PUT", "/admin/tools/bindings", "application/json",
                    "{\"provider\": \"acme/calculator/calculator\", \"tool\": \"add_numbers\", "
                            + "\"mcp\": {\"server\": \"calc\", \"tool\": \"add\"}}");
            assertThat(bound.statusCode()).as(bound.body()).isBetween(200, 201);

            assertThat(waitingOn(server, imported.get("app_id").asText())).as("bound since the import").isEmpty();
            JsonNode ran = json(api.postJson("/v1/workflows/run", run(Map.of("b", 3), "blocking", "ada")))
                    .get("data");
            assertThat(ran.get("status").asText()).as(ran.toString()).isEqualTo("succeeded");
            assertThat(ran.get("outputs").get("sum").asDouble()).isEqualTo(5.0);
            assertThat(ran.get("outputs").get("json").get(0).get("sum").asDouble()).isEqualTo(5.0);
            HttpResponse<String> republished = server.admin("PUT", "/admin/apps/" + imported.get("app_id").asText(),
                    "application/yaml", new String(McpToolRunHttpTest.class.getResourceAsStream(
                            "/apps/mcp-tool.yml").readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
                            .replace("Adds two numbers", "Adds two numbers, again"));
            assertThat(json(republished).get("warnings")).as(republished.body()).isEmpty();
        }
    }
}
