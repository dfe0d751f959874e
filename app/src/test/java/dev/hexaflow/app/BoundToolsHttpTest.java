package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static dev.hexaflow.app.api.ServiceApi.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.nodes.fakes.FakeHttpTarget;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.application.tools.service.WorkflowAppToolRunner;
import dev.hexaflow.engine.EngineConfiguration;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Api and workflow tools on the real server: a Dify api tool bound over the admin API to an operation of an
 * OpenAPI document served on loopback, and a Dify workflow tool bound to another app, which runs as a run of its
 * own; an app that calls itself stops at Dify's depth.
 */
class BoundToolsHttpTest {

    private static final String SHOP_API = """
            openapi: 3.0.1
            info: {title: Shop, version: "1"}
            servers: [{url: "%s"}]
            paths:
              /shops/{shop}/items:
                get:
                  operationId: listItems
                  parameters:
                    - {name: shop, in: path, required: true, schema: {type: string}}
                    - {name: q, in: query, schema: {type: string}}
                    - {name: X-Trace, in: header, required: true, schema: {type: string}}
            """;

    @TempDir
    Path dataDir;

    private TestServer start() {
        return TestServer.start(TestServer.config(dataDir).withEngine(EngineConfiguration.fromEnvironment(
                Map.of("HEXAFLOW_OUTBOUND_ALLOW", "127.0.0.1"))));
    }

    private static HttpResponse<String> bind(TestServer server, String body) {
        return server.admin("PUT", "/admin/tools/bindings", "application/json", body);
    }

    @Test
    void anApiToolBoundToAnOpenApiOperationCallsTheApiWhereTheDocumentSays() {
        try (FakeHttpTarget api = new FakeHttpTarget(); TestServer server = start()) {
            String document = api.serve("shop.yaml", "application/yaml", SHOP_API.formatted(api.url(""))
                    .getBytes(StandardCharsets.UTF_8));
            JsonNode imported = server.importApp("api-tool.yml");
            assertThat(imported.get("warnings").toString()).contains("5b6e3c1a-8f3e-4d1c-9c55-0f1b2a3c4d5e/listItems")
                    .contains("--openapi DOCUMENT OPERATION_ID");

            HttpResponse<String> bound = bind(server, "{\"provider\": \"5b6e3c1a-8f3e-4d1c-9c55-0f1b2a3c4d5e\", "
                    + "\"tool\": \"listItems\", \"openapi\": {\"document\": \"" + document + "\", \"operation\": "
                    + "\"listItems\"}}");
            assertThat(bound.statusCode()).as(bound.body()).isEqualTo(201);
            ServiceApi client = server.api(imported.get("api_key").asText());
            JsonNode ran = json(client.postJson("/v1/workflows/run", run(Map.of("shop", "north"), "blocking",
                    "ada"))).get("data");

            assertThat(ran.get("status").asText()).as(ran.toString()).isEqualTo("succeeded");
            assertThat(ran.get("outputs").get("text").asText()).isEqualTo("{\"echo\":\"GET\"}");
            assertThat(ran.get("outputs").get("json").toString()).isEqualTo("[{\"echo\":\"GET\"}]");
            FakeHttpTarget.Seen call = api.seen().get(api.seen().size() - 1);
            assertThat(call.uri()).isEqualTo("/shops/north/items?q=green+north");
            assertThat(call.headers()).containsEntry("x-trace", "trace-7");
        }
    }

    @Test
    void anApiToolBoundWithAKeySendsItToTheDocumentsServerOnly() {
        try (FakeHttpTarget documents = new FakeHttpTarget(); FakeHttpTarget api = new FakeHttpTarget();
                TestServer server = start()) {
            String document = documents.serve("shop.yaml", "application/yaml", SHOP_API.formatted(api.url(""))
                    .getBytes(StandardCharsets.UTF_8));
            JsonNode imported = server.importApp("api-tool.yml");
            HttpResponse<String> bound = bind(server, "{\"provider\": \"5b6e3c1a-8f3e-4d1c-9c55-0f1b2a3c4d5e\", "
                    + "\"tool\": \"listItems\", \"openapi\": {\"document\": \"" + document + "\", \"operation\": "
                    + "\"listItems\", \"auth\": {\"type\": \"api_key_header\", \"prefix\": \"bearer\", "
                    + "\"value\": \"sk-shop-1\"}}}");
            assertThat(bound.statusCode()).as(bound.body()).isEqualTo(201);

            JsonNode ran = json(server.api(imported.get("api_key").asText()).postJson("/v1/workflows/run",
                    run(Map.of("shop", "north"), "blocking", "ada"))).get("data");

            assertThat(ran.get("status").asText()).as(ran.toString()).isEqualTo("succeeded");
            assertThat(api.seen()).singleElement().satisfies(call -> assertThat(call.headers())
                    .containsEntry("authorization", "Bearer sk-shop-1"));
            assertThat(documents.seen()).allSatisfy(call -> assertThat(call.headers())
                    .doesNotContainKey("authorization"));
            assertThat(ran.toString()).doesNotContain("sk-shop-1");
        }
    }

    @Test
    void aWorkflowToolRunsTheBoundAppAsARunOfItsOwnListedInItsLogs() {
        try (TestServer server = start()) {
            JsonNode echo = server.importApp("echo.yml");
            JsonNode caller = server.importApp("workflow-tool.yml");
            assertThat(caller.get("warnings").toString()).contains("--app APP_ID");

            HttpResponse<String> bound = bind(server, "{\"provider\": \"9d1c2b3a-0000-4c1d-8e2f-123456789abc\", "
                    + "\"tool\": \"echo\", \"app\": \"" + echo.get("app_id").asText() + "\"}");
            assertThat(bound.statusCode()).as(bound.body()).isEqualTo(201);
            JsonNode ran = json(server.api(caller.get("api_key").asText()).postJson("/v1/workflows/run",
                    run(Map.of("word", "hi"), "blocking", "ada"))).get("data");

            assertThat(ran.get("status").asText()).as(ran.toString()).isEqualTo("succeeded");
            assertThat(ran.get("outputs").get("text").asText())
                    .isEqualTo("{\"answer\": \"You said: hi (loud)\", \"query\": \"hi\"}");
            assertThat(ran.get("outputs").get("json").get(0).get("answer").asText()).isEqualTo("You said: hi (loud)");
            JsonNode logs = json(server.api(echo.get("api_key").asText()).get("/v1/workflows/logs"));
            assertThat(logs.get("total").asInt()).isEqualTo(1);
            assertThat(logs.get("data").get(0).get("workflow_run").get("status").asText()).isEqualTo("succeeded");
        }
    }

    @Test
    void anAppThatCallsItselfAsAToolStopsAtDifysDepthAndFails() {
        try (TestServer server = start()) {
            JsonNode caller = server.importApp("workflow-tool.yml");
            bind(server, "{\"provider\": \"9d1c2b3a-0000-4c1d-8e2f-123456789abc\", \"tool\": \"echo\", "
                    + "\"app\": \"" + caller.get("app_id").asText() + "\"}");

            JsonNode ran = json(server.api(caller.get("api_key").asText()).postJson("/v1/workflows/run",
                    run(Map.of("word", "hi"), "blocking", "ada"))).get("data");

            assertThat(ran.get("status").asText()).isEqualTo("failed");
            assertThat(ran.get("error").asText()).contains("Max workflow call depth 5 reached.");
            JsonNode logs = json(server.api(caller.get("api_key").asText()).get("/v1/workflows/logs?limit=100"));
            assertThat(logs.get("total").asInt()).isEqualTo(WorkflowAppToolRunner.MAX_DEPTH + 1);
        }
    }

    @Test
    void aRunMayStartAtMostItsBudgetOfRunsThroughWorkflowToolsWhateverItsBreadth() {
        try (TestServer server = start()) {
            JsonNode echo = server.importApp("echo.yml");
            JsonNode caller = server.importApp("workflow-tool-fanout.yml");
            bind(server, "{\"provider\": \"9d1c2b3a-0000-4c1d-8e2f-123456789abc\", \"tool\": \"echo\", "
                    + "\"app\": \"" + echo.get("app_id").asText() + "\"}");
            ServiceApi api = server.api(caller.get("api_key").asText());

            JsonNode within = json(api.postJson("/v1/workflows/run", run(Map.of("count", 3), "blocking", "ada")))
                    .get("data");
            JsonNode over = json(api.postJson("/v1/workflows/run", run(Map.of("count",
                    WorkflowAppToolRunner.MAX_RUNS_PER_ROOT + 1), "blocking", "ada"))).get("data");

            assertThat(within.get("status").asText()).as(within.toString()).isEqualTo("succeeded");
            assertThat(within.get("outputs").get("texts")).hasSize(3);
            assertThat(over.get("status").asText()).isEqualTo("failed");
            assertThat(over.get("error").asText()).contains("at most " + WorkflowAppToolRunner.MAX_RUNS_PER_ROOT
                    + " runs through workflow tools");
            JsonNode logs = json(server.api(echo.get("api_key").asText()).get("/v1/workflows/logs"));
            assertThat(logs.get("total").asInt()).isEqualTo(3 + WorkflowAppToolRunner.MAX_RUNS_PER_ROOT);
        }
    }
}
