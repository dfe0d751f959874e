package dev.hexaflow.app;

import static dev.hexaflow.app.TestServer.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.persistence.PostgresCluster;
import dev.hexaflow.app.config.Configuration;
import dev.hexaflow.app.config.DatabaseServer;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two real servers on one PostgreSQL database share a key's rate by leased shares: each holds half the rate and
 * half the burst, so that together they admit no more than the limit allows, with no store round trip per request.
 */
class PostgresRequestRatesTest {

    @TempDir
    Path dataDir;

    private TestServer first;
    private TestServer second;

    @BeforeEach
    void startTwoInstances() {
        PostgresCluster cluster = PostgresCluster.get();
        String database = cluster.createDatabase();
        Configuration base = TestServer.config(dataDir);
        Configuration config = new Configuration(base.host(), 0, dataDir, Optional.of(TestServer.ADMIN_TOKEN),
                base.engine(), base.service(), Optional.of(new DatabaseServer(cluster.url(database),
                        PostgresCluster.USER, PostgresCluster.PASSWORD)));
        first = TestServer.start(config);
        second = TestServer.start(config);
    }

    @AfterEach
    void stopThem() {
        for (TestServer server : new TestServer[] {first, second}) {
            if (server != null) {
                server.close();
            }
        }
    }

    @Test
    void twoInstancesTogetherAdmitNoMoreThanTheBurstOfOneKey() throws InterruptedException {
        JsonNode imported = first.importApp("echo.yml");
        String appId = imported.get("app_id").asText();
        String key = imported.get("api_key").asText();
        HttpResponse<String> set = second.admin("PUT", "/admin/apps/" + appId + "/limits", "application/json",
                "{\"rate_per_key\": {\"per_minute\": 6, \"burst\": 10}}");
        assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
        // The first reads the limits set through the second after an exchange of counts that came after the
        // second started: by then each knows the other lives.
        long until = System.currentTimeMillis() + 15_000;
        while (!json(first.admin("GET", "/admin/apps/" + appId + "/limits", null, null)).path("own")
                .asBoolean() && System.currentTimeMillis() < until) {
            Thread.sleep(100);
        }

        int[] admitted = new int[2];
        HttpResponse<String> refused = null;
        for (int i = 0; i < 30; i++) {
            HttpResponse<String> answer = (i % 2 == 0 ? first : second).api(key).get("/v1/parameters");
            if (answer.statusCode() == 200) {
                admitted[i % 2]++;
            } else {
                refused = answer;
            }
        }

        assertThat(admitted[0] + admitted[1]).as("the two together: the burst of 10 (6 a minute refill none)")
                .isEqualTo(10);
        assertThat(admitted).as("each its half").containsExactly(5, 5);
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(json(refused).get("code").asText()).isEqualTo("too_many_requests");
        assertThat(Long.parseLong(refused.headers().firstValue("Retry-After").orElseThrow()))
                .as("a share of 3 a minute: a token within 20 s").isBetween(1L, 20L);
    }
}
