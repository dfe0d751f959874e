package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static dev.hexaflow.app.api.ServiceApi.run;
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
 * {@code GET /v1/workflows/run/{id}/node-executions}: each node's execution of a run as Dify's console shows it,
 * paged, for a run with parallel branches and an iteration; another app's run answers as one that does not exist.
 */
class NodeExecutionsHttpTest {

    @TempDir
    static Path dataDir;
    static TestServer server;
    static ServiceApi api;
    static String runId;

    @BeforeAll
    static void start() {
        server = TestServer.start(dataDir);
        api = server.api(server.importApp("branches.yml").get("api_key").asText());
        JsonNode answer = json(api.postJson("/v1/workflows/run", run(Map.of(), "blocking", "ada")));
        assertThat(answer.get("data").get("status").asText()).as(answer.toString()).isEqualTo("succeeded");
        assertThat(answer.get("data").get("outputs").get("doubled").toString()).isEqualTo("[2,4,6]");
        runId = answer.get("workflow_run_id").asText();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void everyNodeOfTheRunIsListedInStartOrderWithItsInputsOutputsAndIterationIndex() {
        JsonNode page = json(api.get("/v1/workflows/run/" + runId + "/node-executions?limit=100"));

        List<JsonNode> nodes = new ArrayList<>();
        page.get("data").forEach(nodes::add);
        // start, code, side, iteration, end, and the iteration's start and inner node once per item
        assertThat(page.get("total").asInt()).isEqualTo(nodes.size()).isEqualTo(11);
        assertThat(nodes.stream().filter(node -> node.get("node_type").asText().equals("iteration-start")))
                .hasSize(3);
        assertThat(page.get("has_more").asBoolean()).isFalse();
        assertThat(nodes).extracting(node -> node.get("index").asInt()).isSorted();
        assertThat(nodes).allSatisfy(node -> {
            assertThat(node.get("status").asText()).isEqualTo("succeeded");
            assertThat(node.get("finished_at").asLong()).isGreaterThanOrEqualTo(node.get("created_at").asLong());
        });
        List<JsonNode> inner = nodes.stream().filter(node -> node.get("node_id").asText().equals("code_inner_node"))
                .toList();
        assertThat(inner).extracting(node -> node.get("outputs").get("result").asInt()).containsExactly(2, 4, 6);
        assertThat(inner).extracting(node -> node.get("iteration_id").asText()).containsOnly("iteration_node");
        assertThat(inner).extracting(node -> node.get("execution_metadata").get("iteration_index").asInt())
                .containsExactly(0, 1, 2);
        JsonNode side = nodes.stream().filter(node -> node.get("node_id").asText().equals("side_node"))
                .findFirst().orElseThrow();
        assertThat(side.get("node_type").asText()).isEqualTo("template-transform");
        assertThat(side.get("outputs").get("output").asText()).isEqualTo("side");
        assertThat(side.get("predecessor_node_id").asText()).isEqualTo("start_node");
    }

    static final String FAILS_WITH_AN_INPUT = """
            app: {name: Fails on its input, mode: workflow}
            kind: app
            version: 0.5.0
            workflow:
              environment_variables:
                - {name: token, value_type: secret, value: s3cret-token}
              graph:
                nodes:
                  - {id: start, data: {type: start, title: Start, variables: [{variable: q, type: text-input}]}}
                  - id: burn
                    data:
                      type: code
                      title: Burn
                      code_language: javascript
                      code: "function main({q, t}) { throw new Error('cannot take ' + q); }"
                      variables:
                        - {variable: q, value_selector: [start, q]}
                        - {variable: t, value_selector: [env, token]}
                      outputs: {done: {type: boolean}}
                  - {id: end, data: {type: end, title: End, outputs: [{variable: done, value_selector: [burn, done]}]}}
                edges:
                  - {source: start, target: burn}
                  - {source: burn, target: end}
            """;

    @Test
    void aFailedNodeKeepsTheInputsItReadButNoEnvironmentVariable() {
        JsonNode imported = TestServer.json(server.admin("POST", "/admin/apps", "application/yaml",
                FAILS_WITH_AN_INPUT));
        ServiceApi fails = server.api(imported.get("api_key").asText());
        JsonNode answer = json(fails.postJson("/v1/workflows/run", run(Map.of("q", "the order"), "blocking", "ada")));
        assertThat(answer.get("data").get("status").asText()).isEqualTo("failed");

        JsonNode burn = null;
        for (JsonNode node : json(fails.get("/v1/workflows/run/" + answer.get("workflow_run_id").asText()
                + "/node-executions?limit=100")).get("data")) {
            burn = node.get("node_id").asText().equals("burn") ? node : burn;
        }

        assertThat(burn).isNotNull();
        assertThat(burn.get("status").asText()).isEqualTo("failed");
        assertThat(burn.get("error").asText()).contains("cannot take the order");
        assertThat(burn.get("inputs").isObject()).as(burn.toString()).isTrue();
        assertThat(burn.get("inputs").get("start.q").asText()).isEqualTo("the order");
        assertThat(burn.toString()).doesNotContain("s3cret-token");
    }

    @Test
    void pagesSplitTheListWithoutLosingOrRepeatingANode() {
        List<String> ids = new ArrayList<>();
        for (int page = 1; page <= 4; page++) {
            JsonNode answer = json(api.get("/v1/workflows/run/" + runId + "/node-executions?limit=3&page=" + page));
            answer.get("data").forEach(node -> ids.add(node.get("id").asText()));
            assertThat(answer.get("has_more").asBoolean()).isEqualTo(page < 4);
        }
        JsonNode all = json(api.get("/v1/workflows/run/" + runId + "/node-executions?limit=100"));
        assertThat(ids).containsExactlyElementsOf(all.get("data").findValuesAsText("id"));
        assertThat(json(api.get("/v1/workflows/run/" + runId + "/node-executions?page=5&limit=3")).get("data"))
                .isEmpty();
    }

    @Test
    void aBadPageOrAnUnknownOrForeignRunIsRefusedInDifysShape() {
        HttpResponse<String> limit = api.get("/v1/workflows/run/" + runId + "/node-executions?limit=101");
        assertThat(limit.statusCode()).isEqualTo(400);
        assertThat(json(limit).get("code").asText()).isEqualTo("invalid_param");
        HttpResponse<String> text = api.get("/v1/workflows/run/" + runId + "/node-executions?page=x");
        assertThat(json(text).get("message").asText()).isEqualTo("page must be a whole number, was 'x'");

        ServiceApi other = server.api(server.importApp("echo.yml").get("api_key").asText());
        HttpResponse<String> foreign = other.get("/v1/workflows/run/" + runId + "/node-executions");
        HttpResponse<String> unknown = other.get("/v1/workflows/run/no-such-run/node-executions");
        assertThat(foreign.statusCode()).isEqualTo(404);
        assertThat(foreign.body()).isEqualTo(unknown.body());
        assertThat(api.withKey("app-wrong").get("/v1/workflows/run/" + runId + "/node-executions").statusCode())
                .isEqualTo(401);
    }
}
