package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static dev.hexaflow.app.api.ServiceApi.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.app.cli.UsageException;
import dev.hexaflow.app.config.Configuration;
import dev.hexaflow.app.config.ServiceSettings;
import dev.hexaflow.domain.app.RunRetention;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs past the retention are let go: their detail, logs and node executions are gone, the newest stay, other
 * apps keep theirs; and the settings are read and refused as every other setting is.
 */
class RunRetentionHttpTest {

    @TempDir
    Path dataDir;

    @Test
    void theNewestRunsOfEachAppStayAndTheOlderOnesAreGoneWithEverythingTheyHad() {
        Configuration config = TestServer.config(dataDir).withService(TestServer.config(dataDir).service()
                .withRetention(new RunRetention(Optional.empty(), OptionalInt.of(2))));
        try (TestServer server = TestServer.start(config)) {
            ServiceApi echo = server.api(server.importApp("echo.yml").get("api_key").asText());
            ServiceApi other = server.api(server.importApp("echo.yml").get("api_key").asText());
            List<String> runs = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                runs.add(json(echo.postJson("/v1/workflows/run", run(Map.of("query", "run " + i), "blocking",
                        "ada"))).get("workflow_run_id").asText());
            }
            String theirs = json(other.postJson("/v1/workflows/run", run(Map.of("query", "theirs"), "blocking",
                    "bob"))).get("workflow_run_id").asText();

            assertThat(server.hexaflow.pruneRunsNow()).isEqualTo(3);

            assertThat(json(echo.get("/v1/workflows/logs?limit=100")).get("data").size()).isEqualTo(2);
            assertThat(json(echo.get("/v1/workflows/logs?limit=100")).get("total").asInt()).isEqualTo(2);
            for (String gone : runs.subList(0, 3)) {
                assertThat(echo.get("/v1/workflows/run/" + gone).statusCode()).isEqualTo(404);
                assertThat(echo.get("/v1/workflows/run/" + gone + "/node-executions").statusCode()).isEqualTo(404);
            }
            for (String kept : runs.subList(3, 5)) {
                assertThat(json(echo.get("/v1/workflows/run/" + kept)).get("status").asText())
                        .isEqualTo("succeeded");
            }
            assertThat(other.get("/v1/workflows/run/" + theirs).statusCode()).isEqualTo(200);
            assertThat(server.hexaflow.pruneRunsNow()).isZero();
        }
    }

    @Test
    void withoutRetentionNothingIsEverPruned() {
        try (TestServer server = TestServer.start(dataDir)) {
            ServiceApi echo = server.api(server.importApp("echo.yml").get("api_key").asText());
            echo.postJson("/v1/workflows/run", run(Map.of("query", "kept"), "blocking", "ada"));

            assertThat(server.hexaflow.pruneRunsNow()).isZero();
            assertThat(json(echo.get("/v1/workflows/logs")).get("total").asInt()).isEqualTo(1);
        }
    }

    @Test
    void theRetentionSettingsAreReadAndABadOneIsRefusedNamingIt() {
        ServiceSettings settings = ServiceSettings.fromEnvironment(Map.of("HEXAFLOW_RUN_RETENTION_DAYS", "30",
                "HEXAFLOW_RUN_RETENTION_COUNT", "1000"));
        assertThat(settings.retention().maxAge()).contains(Duration.ofDays(30));
        assertThat(settings.retention().keepPerApp()).hasValue(1000);
        assertThat(ServiceSettings.fromEnvironment(Map.of()).retention().prunes()).isFalse();
        assertThatThrownBy(() -> ServiceSettings.fromEnvironment(Map.of("HEXAFLOW_RUN_RETENTION_DAYS", "-1")))
                .isInstanceOf(UsageException.class).hasMessageContaining("HEXAFLOW_RUN_RETENTION_DAYS");
    }
}
