package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.persistence.PostgresCluster;
import dev.hexaflow.app.ActiveRunsHttpTest.Started;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.app.config.Configuration;
import dev.hexaflow.app.config.DatabaseServer;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two real servers on one real PostgreSQL share an app's limit on runs at once: once their counts were exchanged
 * (every half second), one instance's runs block the other's, and their ends free the other's room.
 */
class PostgresActiveRunsTest {

    @TempDir
    Path dataDir;

    private TestServer first;
    private TestServer second;
    private final List<Started> running = new ArrayList<>();

    @BeforeEach
    void startTwoInstances() {
        String database = PostgresCluster.get().createDatabase();
        first = TestServer.start(config(database));
        second = TestServer.start(config(database));
    }

    @AfterEach
    void stopThem() {
        for (TestServer server : new TestServer[] {first, second}) {
            if (server != null) {
                server.close();
            }
        }
    }

    private Configuration config(String database) {
        PostgresCluster cluster = PostgresCluster.get();
        Configuration base = TestServer.config(dataDir);
        return new Configuration(base.host(), 0, dataDir, Optional.of(TestServer.ADMIN_TOKEN), base.engine(),
                base.service(), Optional.of(new DatabaseServer(cluster.url(database), PostgresCluster.USER,
                        PostgresCluster.PASSWORD)));
    }

    @Test
    void oneInstancesRunsBlockTheOthersOnceExchangedAndTheirEndsFreeIt() throws Exception {
        JsonNode slow = first.importApp("slow.yml");
        String key = slow.get("api_key").asText();
        ServiceApi onFirst = first.api(key);
        ServiceApi onSecond = second.api(key);
        HttpResponse<String> set = first.admin("PUT", "/admin/apps/" + slow.get("app_id").asText() + "/limits",
                "application/json", "{\"active_runs\": 2}");
        assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
        // The second instance reads the limits set through the first within an exchange.
        running.add(ActiveRunsHttpTest.streaming(onFirst, "ada"));
        running.add(ActiveRunsHttpTest.streaming(onFirst, "bob"));

        assertThat(until429(onSecond)).as("the second instance refuses once it heard of the first's two runs")
                .isTrue();
        // From then on, neither instance admits a third run while the two go on.
        for (ServiceApi api : List.of(onFirst, onSecond, onSecond)) {
            assertThat(probe(api)).isEqualTo(429);
        }

        stopAll(onFirst);
        HttpResponse<String> after = ActiveRunsHttpTest.untilNot429(onSecond, "eve");
        assertThat(after.statusCode()).as("the second admits again once the first's runs ended").isEqualTo(200);
    }

    @Test
    void runsStartedOnBothInstancesShareOneLimit() throws Exception {
        JsonNode slow = first.importApp("slow.yml");
        String key = slow.get("api_key").asText();
        ServiceApi onFirst = first.api(key);
        ServiceApi onSecond = second.api(key);
        assertThat(first.admin("PUT", "/admin/apps/" + slow.get("app_id").asText() + "/limits",
                "application/json", "{\"active_runs\": 2}").statusCode()).isEqualTo(200);
        running.add(ActiveRunsHttpTest.streaming(onFirst, "ada"));
        assertThat(until429Or(onSecond)).as("the second admits one run of its own").isTrue();

        // Each instance hears of the other's run within an exchange and then refuses a third.
        assertThat(until429(onFirst)).isTrue();
        assertThat(until429(onSecond)).isTrue();
        stopAll(onFirst);
    }

    /** Starts a slow run on the instance once it has room for it (a limit's refusal is retried). */
    private boolean until429Or(ServiceApi api) throws Exception {
        long until = System.nanoTime() + 30_000_000_000L;
        while (System.nanoTime() < until) {
            try {
                running.add(ActiveRunsHttpTest.streaming(api, "carl"));
                return true;
            } catch (AssertionError refused) {
                Thread.sleep(50);
            }
        }
        return false;
    }

    /**
     * A run's admission, and nothing more: its inputs are checked after it, so an admitted probe is refused for them
     * (400) and never runs, where a run that ran would wait for a JavaScript worker the slow runs hold.
     */
    private static int probe(ServiceApi api) {
        HttpResponse<String> answer = api.postJson("/v1/workflows/run", run(Map.of("millis", "soon"), "blocking",
                "eve"));
        assertThat(answer.statusCode()).as(answer.body()).isIn(400, 429);
        return answer.statusCode();
    }

    /** Whether the instance refuses a run within 30 s (once it heard of the other instance's runs). */
    private static boolean until429(ServiceApi api) throws InterruptedException {
        long until = System.nanoTime() + 30_000_000_000L;
        while (System.nanoTime() < until) {
            if (probe(api) == 429) {
                return true;
            }
            Thread.sleep(50);
        }
        return false;
    }

    private void stopAll(ServiceApi api) throws IOException {
        for (Started started : running) {
            api.postJson("/v1/workflows/tasks/" + started.taskId() + "/stop", Map.of("user", started.user()));
            while (started.lines().readLine() != null) {
                // to the stream's end
            }
        }
        running.clear();
    }
}
