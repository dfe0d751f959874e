package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.app.config.Configuration;
import dev.hexaflow.app.config.TriggerSettings;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A schedule on a real server and its H2 store: it fires every second (croniter's sixth field) for several ticks,
 * each tick once with one run kept as {@code schedule}; switched off, it fires no more; a tick missed while the server
 * was down is skipped by default and run once under {@code run_once}.
 */
class ScheduleTriggerHttpTest {

    @TempDir
    Path dataDir;
    TestServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private void start() {
        Configuration config = TestServer.config(dataDir).withTriggers(new TriggerSettings(Duration.ofSeconds(1),
                1024 * 1024, 100));
        server = TestServer.start(config);
    }

    @Test
    void aScheduleFiresEachTickOnceWithOneKeptRunTillItIsSwitchedOff() throws Exception {
        start();
        JsonNode imported = server.importApp("schedule-trigger.yml");
        String appId = imported.get("app_id").asText();
        ServiceApi api = server.api(imported.get("api_key").asText());
        JsonNode shown = TestServer.json(server.admin("GET", "/admin/apps/" + appId + "/triggers", null, null))
                .get("data").get(0);
        assertThat(shown.get("kind").asText()).isEqualTo("schedule");
        assertThat(shown.get("timezone").asText()).isEqualTo("Europe/Paris");
        assertThat(shown.get("next_fires")).hasSize(5);
        waitFor(() -> logs(api).get("total").asInt() >= 3, "three scheduled runs");

        server.admin("POST", "/admin/apps/" + appId + "/triggers/tick/disable", null, null);
        // A tick claimed just before the switch may still be starting its run, kept once the run ends.
        waitFor(() -> ticks().stream().allMatch(tick -> tick.runId() != null)
                && logs(api).get("total").asInt() == ticks().size(), "every tick's run kept");
        int runs = logs(api).get("total").asInt();
        Thread.sleep(2500);
        assertThat(logs(api).get("total").asInt()).as("runs after the switch is off").isEqualTo(runs);

        List<Tick> ticks = ticks();
        Set<String> runIds = new HashSet<>();
        for (Tick tick : ticks) {
            assertThat(tick.outcome()).isEqualTo("FIRED");
            assertThat(tick.runId()).isNotNull();
            runIds.add(tick.runId());
        }
        assertThat(runIds).hasSize(ticks.size()).hasSize(runs);
        for (JsonNode log : logs(api).get("data")) {
            assertThat(log.get("workflow_run").get("triggered_from").asText()).isEqualTo("schedule");
            assertThat(log.get("workflow_run").get("status").asText()).isEqualTo("succeeded");
            assertThat(runIds).contains(log.get("workflow_run").get("id").asText());
        }
        JsonNode disabled = TestServer.json(server.admin("GET", "/admin/apps/" + appId + "/triggers/tick", null,
                null));
        assertThat(disabled.get("enabled").asBoolean()).isFalse();
        assertThat(disabled.get("next_fires")).isEmpty();
    }

    @Test
    void aTickMissedWhileTheServerWasDownIsSkippedByDefaultAndRunOnceWhenTheScheduleSaysSo() throws Exception {
        start();
        String appId = server.importApp("schedule-trigger.yml").get("app_id").asText();
        long skipped = downFor(appId, Duration.ofMinutes(10));
        start();
        waitFor(() -> outcomeOf(skipped) != null, "the missed tick handled");
        assertThat(outcomeOf(skipped)).isEqualTo("SKIPPED");

        server.admin("PUT", "/admin/apps/" + appId + "/triggers/tick/missed-ticks", "application/json",
                "{\"policy\": \"run_once\"}");
        long ranOnce = downFor(appId, Duration.ofMinutes(30));
        start();
        waitFor(() -> outcomeOf(ranOnce) != null, "the missed tick handled");
        assertThat(outcomeOf(ranOnce)).isEqualTo("FIRED");
        assertThat(ticks().stream().filter(tick -> tick.dueAt() > ranOnce && tick.dueAt() < skipped))
                .as("the half hour of missed seconds is one tick, not one each").isEmpty();
    }

    /**
     * Stops the server as if it had been down for {@code down}: the schedule's next tick is set that far back, as
     * the store would hold it had nothing fired since. Answers that tick.
     */
    private long downFor(String appId, Duration down) throws SQLException {
        server.close();
        server = null;
        long due = Instant.now().minus(down).getEpochSecond();
        try (Connection db = TestServer.database(dataDir); PreparedStatement update = db.prepareStatement(
                "UPDATE app_trigger SET next_fire_at = ? WHERE app_id = ?")) {
            update.setLong(1, due);
            update.setString(2, appId);
            assertThat(update.executeUpdate()).isEqualTo(1);
        }
        return due;
    }

    private String outcomeOf(long dueAt) {
        return ticks().stream().filter(tick -> tick.dueAt() == dueAt).map(Tick::outcome).findFirst().orElse(null);
    }

    record Tick(long dueAt, String outcome, String runId) {
    }

    private List<Tick> ticks() {
        List<Tick> ticks = new ArrayList<>();
        try (Connection db = TestServer.database(dataDir); PreparedStatement query = db.prepareStatement(
                "SELECT due_at, outcome, run_id FROM trigger_tick ORDER BY due_at"); ResultSet rows = query.executeQuery()) {
            while (rows.next()) {
                ticks.add(new Tick(rows.getLong(1), rows.getString(2), rows.getString(3)));
            }
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
        return ticks;
    }

    private static JsonNode logs(ServiceApi api) {
        HttpResponse<String> answer = api.get("/v1/workflows/logs?limit=100");
        assertThat(answer.statusCode()).isEqualTo(200);
        return ServiceApi.json(answer);
    }

    static void waitFor(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
        for (int i = 0; i < 300; i++) {
            if (condition.getAsBoolean()) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("waited 15 s for " + what);
    }
}
