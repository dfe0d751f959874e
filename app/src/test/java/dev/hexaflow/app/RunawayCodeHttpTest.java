package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static dev.hexaflow.app.api.ServiceApi.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.app.config.Configuration;
import dev.hexaflow.engine.EngineConfiguration;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JavaScript whose work is inside a built-in (a fill of a billion items) cannot take the server: the run's code
 * ends by its timeout plus a second once its worker is up, and the server answers other requests in under a second
 * meanwhile.
 */
class RunawayCodeHttpTest {

    private static final String RUNAWAY = """
            app: {name: Runaway, mode: workflow}
            kind: app
            version: 0.5.0
            workflow:
              graph:
                nodes:
                  - {id: start, data: {type: start, title: Start, variables: []}}
                  - id: fill
                    data:
                      type: code
                      title: Fill
                      code_language: javascript
                      code: "function main() { var a = new Array(2**30); a.fill(1); return {n: a.length}; }"
                      variables: []
                      outputs: {n: {type: number}}
                  - {id: end, data: {type: end, title: End, outputs: [{variable: n, value_selector: [fill, n]}]}}
                edges:
                  - {source: start, target: fill}
                  - {source: fill, target: end}
            """;

    @TempDir
    Path dataDir;

    @Test
    void aBuiltInFillingABillionItemsEndsByTheCodeTimeoutWhileHealthAnswersWithinASecond() throws Exception {
        Configuration config = TestServer.config(dataDir).withEngine(EngineConfiguration.fromEnvironment(
                Map.of("HEXAFLOW_CODE_TIMEOUT_SECONDS", "3")));
        try (TestServer server = TestServer.start(config)) {
            HttpResponse<String> imported = server.admin("POST", "/admin/apps", "application/yaml", RUNAWAY);
            assertThat(imported.statusCode()).as(imported.body()).isEqualTo(201);
            ServiceApi api = server.api(TestServer.json(imported).get("api_key").asText());
            // A JavaScript worker started first: the code's time counts from when its worker is up.
            HttpResponse<String> warm = server.admin("POST", "/admin/apps", "application/yaml",
                    RUNAWAY.replace("var a = new Array(2**30); a.fill(1); return {n: a.length};", "return {n: 1};")
                            .replace("name: Runaway", "name: Warm"));
            assertThat(json(server.api(TestServer.json(warm).get("api_key").asText()).postJson("/v1/workflows/run",
                    run(Map.of(), "blocking", "ada"))).get("data").get("status").asText()).isEqualTo("succeeded");

            long began = System.nanoTime();
            CompletableFuture<HttpResponse<String>> runaway = CompletableFuture.supplyAsync(() ->
                    api.postJson("/v1/workflows/run", run(Map.of(), "blocking", "ada")));
            List<Double> healthSeconds = new ArrayList<>();
            while (!runaway.isDone() && healthSeconds.size() < 40) {
                long asked = System.nanoTime();
                assertThat(server.get("/health").statusCode()).isEqualTo(200);
                healthSeconds.add((System.nanoTime() - asked) / 1e9);
                Thread.sleep(200);
            }
            HttpResponse<String> response = runaway.get(10, TimeUnit.SECONDS);
            double runSeconds = (System.nanoTime() - began) / 1e9;

            JsonNode data = json(response).get("data");
            assertThat(data.get("status").asText()).as(response.body()).isEqualTo("failed");
            assertThat(data.get("error").asText()).containsAnyOf("timed out after 3s", "MiB of memory");
            assertThat(runSeconds).as("seconds of a run whose code may take 3").isLessThan(4.5);
            assertThat(healthSeconds).as("health answers while the code runs").hasSizeGreaterThan(5)
                    .allSatisfy(seconds -> assertThat(seconds).isLessThan(1.0));
        }
    }
}
