package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static dev.hexaflow.app.api.ServiceApi.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.domain.workflow.GraphRules;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DSL files whose graphs are as large as a file may make them: a chain past the node limit is refused like any other
 * bad file (400 {@code invalid_dsl} naming the limit), never a 500, and the server goes on; a chain as long as the
 * limit imports and runs, its skipped branch included, with no walk that holds a stack frame per node.
 */
class LargeGraphHttpTest {

    @TempDir
    static Path dataDir;
    static TestServer server;

    @BeforeAll
    static void start() {
        server = TestServer.start(dataDir);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void aChainOfTenThousandNodesIsRefusedAsInvalidDslNamingTheLimitAndTheServerGoesOn() {
        int before = json(server.admin("GET", "/admin/apps", null, null)).get("data").size();

        HttpResponse<String> response = server.admin("POST", "/admin/apps", "application/yaml", chain(10_000));

        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        JsonNode body = json(response);
        assertThat(body.get("code").asText()).isEqualTo("invalid_dsl");
        assertThat(body.get("problems")).extracting(problem -> problem.get("message").asText()).containsExactly(
                "the workflow has 10000 nodes; a workflow may have at most " + GraphRules.MAX_NODES
                        + " (iteration and loop children included)");
        assertThat(json(server.admin("GET", "/admin/apps", null, null)).get("data")).hasSize(before);
        JsonNode echo = server.importApp("echo.yml");
        HttpResponse<String> ran = server.api(echo.get("api_key").asText()).postJson("/v1/workflows/run",
                run(Map.of("query", "still here"), "blocking", "u"));
        assertThat(json(ran).at("/data/outputs/answer").asText()).isEqualTo("You said: still here (calm)");
    }

    @Test
    void aChainAsLongAsTheLimitOnABranchNotTakenImportsAndItsRunSkipsItWholeAndSucceeds() {
        HttpResponse<String> imported = server.admin("POST", "/admin/apps", "application/yaml",
                chain(GraphRules.MAX_NODES));
        assertThat(imported.statusCode()).as(imported.body()).isEqualTo(201);

        HttpResponse<String> ran = server.api(json(imported).get("api_key").asText()).postJson("/v1/workflows/run",
                run(Map.of("q", "short"), "blocking", "u"));

        assertThat(ran.statusCode()).as(ran.body()).isEqualTo(200);
        assertThat(json(ran).at("/data/status").asText()).as(ran.body()).isEqualTo("succeeded");
        assertThat(json(ran).at("/data/outputs/answer").asText()).isEqualTo("short");
        assertThat(json(ran).at("/data/total_steps").asInt()).isEqualTo(3);
    }

    /**
     * {@code size} nodes: a start, an if-else whose true branch goes straight to the end and whose false branch is a
     * chain of template-transform nodes to the same end.
     */
    private static String chain(int size) {
        int links = size - 3;
        StringBuilder dsl = new StringBuilder("""
                app: {name: Long chain, mode: workflow}
                kind: app
                version: 0.3.0
                workflow:
                  graph:
                    nodes:
                      - id: start
                        data: {type: start, title: Start, variables: [{variable: q, label: Q, type: text-input}]}
                      - id: branch
                        data:
                          type: if-else
                          title: Short?
                          cases:
                            - case_id: 'true'
                              logical_operator: and
                              conditions: [{variable_selector: [start, q], comparison_operator: is, value: short}]
                      - id: end
                        data: {type: end, title: End, outputs: [{variable: answer, value_selector: [start, q]}]}
                """);
        for (int i = 1; i <= links; i++) {
            dsl.append("      - {id: n").append(i).append(", data: {type: template-transform, title: N").append(i)
                    .append(", template: x, variables: []}}\n");
        }
        dsl.append("    edges:\n");
        dsl.append("      - {source: start, target: branch}\n");
        dsl.append("      - {source: branch, sourceHandle: 'true', target: end}\n");
        dsl.append("      - {source: branch, sourceHandle: 'false', target: n1}\n");
        for (int i = 1; i < links; i++) {
            dsl.append("      - {source: n").append(i).append(", target: n").append(i + 1).append("}\n");
        }
        dsl.append("      - {source: n").append(links).append(", target: end}\n");
        return dsl.toString();
    }
}
