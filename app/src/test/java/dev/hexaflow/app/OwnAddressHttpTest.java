package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static dev.hexaflow.app.api.ServiceApi.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.app.config.Configuration;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A workflow's request to this server's own address is refused like any loopback address's, by default: an end
 * user who names the URL cannot make the server call itself. The operator opens it with
 * HEXAFLOW_OUTBOUND_ALLOW_SELF; the demo apps read the campus feed through Hexaflow's own built-in tool and need
 * neither.
 */
class OwnAddressHttpTest {

    static final String FETCH = """
            app: {name: Fetch, mode: workflow}
            kind: app
            version: 0.5.0
            workflow:
              graph:
                nodes:
                  - {id: start, data: {type: start, title: Start, variables: [{variable: url, type: text-input}]}}
                  - id: get
                    data:
                      type: http-request
                      title: Get
                      method: get
                      url: '{{#start.url#}}'
                      headers: ''
                      params: ''
                      authorization: {type: no-auth}
                      body: {type: none, data: []}
                  - {id: end, data: {type: end, title: End, outputs: [{variable: status, value_selector: [get, status_code]}]}}
                edges:
                  - {source: start, target: get}
                  - {source: get, target: end}
            """;

    @TempDir
    Path dataDir;

    private JsonNode fetchOwnFeed(TestServer server) {
        String key = TestServer.json(server.admin("POST", "/admin/apps", "application/yaml", FETCH)).get("api_key")
                .asText();
        return json(server.api(key).postJson("/v1/workflows/run", run(Map.of("url", server.hexaflow.baseUrl()
                + "/v2/events/holidays.json"), "blocking", "ada"))).get("data");
    }

    @Test
    void aRequestToTheServersOwnAddressIsRefusedByDefaultAndTheDemoStillReadsTheFeed() {
        try (TestServer server = TestServer.start(dataDir)) {
            JsonNode refused = fetchOwnFeed(server);

            assertThat(refused.get("status").asText()).isEqualTo("failed");
            assertThat(refused.get("error").asText()).contains("127.0.0.1").contains("loopback")
                    .contains("HEXAFLOW_OUTBOUND_ALLOW");
            String demoKey = server.hexaflow.report().demoAppKey().orElseThrow();
            JsonNode demo = json(server.api(demoKey).postJson("/v1/workflows/run", run(Map.of("year", "2026"),
                    "blocking", "demo"))).get("data");
            assertThat(demo.get("status").asText()).as(demo.toString()).isEqualTo("succeeded");
            assertThat(demo.get("outputs").get("count").asInt()).isPositive();
        }
    }

    @Test
    void theOperatorMayLetWorkflowsCallTheServerItself() {
        Configuration config = TestServer.config(dataDir);
        try (TestServer server = TestServer.start(config.withService(config.service().withOutboundToItself(true)))) {
            JsonNode allowed = fetchOwnFeed(server);

            assertThat(allowed.get("status").asText()).as(allowed.toString()).isEqualTo("succeeded");
            assertThat(allowed.get("outputs").get("status").asInt()).isEqualTo(200);
        }
    }
}
