package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer.Script;
import dev.hexaflow.adapters.persistence.PostgresCluster;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.app.config.Configuration;
import dev.hexaflow.app.config.DatabaseServer;
import dev.hexaflow.engine.EngineConfiguration;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two instances on one PostgreSQL share one budget: what a run spent on the first is refused on the second once
 * both have exchanged their counts (every half second), not a budget per instance.
 */
class PostgresBudgetsTest {

    @TempDir
    Path dataDir;
    FakeModelServer model;
    TestServer first;
    TestServer second;

    @AfterEach
    void stop() {
        for (TestServer server : new TestServer[] {first, second}) {
            if (server != null) {
                server.close();
            }
        }
        if (model != null) {
            model.close();
        }
    }

    @Test
    void whatOneInstanceSpentIsRefusedOnTheOtherAfterAnExchange() throws InterruptedException {
        String database = PostgresCluster.get().createDatabase();
        model = new FakeModelServer();
        model.answer(Script.text("fine", 7, 3));
        first = TestServer.start(config(database));
        second = TestServer.start(config(database));
        JsonNode imported = first.importApp("two-model-calls.yml");
        String appId = imported.get("app_id").asText();
        String key = imported.get("api_key").asText();
        HttpResponse<String> set = first.admin("PUT", "/admin/apps/" + appId + "/limits", "application/json",
                "{\"budgets\": [{\"scope\": \"app\", \"period\": \"day\", \"amount\": 15}],"
                        + " \"on_crossing\": \"finish\"}");
        assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
        Thread.sleep(1_500); // the second instance reads the limits at its next exchange

        HttpResponse<String> spent = first.api(key).postJson("/v1/workflows/run", ServiceApi.run(Map.of(),
                "blocking", "ada"));
        assertThat(spent.statusCode()).as(spent.body()).isEqualTo(200);

        long deadline = System.currentTimeMillis() + 10_000;
        HttpResponse<String> refused;
        do {
            Thread.sleep(200);
            refused = second.admin("GET", "/admin/apps/" + appId + "/budgets", null, null);
        } while (TestServer.json(refused).get("budgets").get(0).get("spent").asLong() < 20
                && System.currentTimeMillis() < deadline);
        HttpResponse<String> run = second.api(key).postJson("/v1/workflows/run", ServiceApi.run(Map.of(),
                "blocking", "bob"));
        assertThat(run.statusCode()).as(run.body()).isEqualTo(429);
        assertThat(TestServer.json(run).get("message").asText()).startsWith("The app's daily budget of 15 tokens");
    }

    private Configuration config(String database) {
        PostgresCluster cluster = PostgresCluster.get();
        Configuration base = TestServer.config(dataDir);
        EngineConfiguration engine = EngineConfiguration.fromEnvironment(Map.of("HEXAFLOW_LLM_MODELS",
                "*=local-model")).withLlm(model.baseUrl(), "sk-fake-model-key-0123");
        return new Configuration(base.host(), 0, dataDir, Optional.of(TestServer.ADMIN_TOKEN), engine,
                base.service(), Optional.of(new DatabaseServer(cluster.url(database), PostgresCluster.USER,
                        PostgresCluster.PASSWORD)));
    }
}
