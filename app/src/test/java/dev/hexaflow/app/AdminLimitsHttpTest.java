package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.persistence.PostgresCluster;
import dev.hexaflow.app.config.Configuration;
import dev.hexaflow.app.config.DatabaseServer;
import dev.hexaflow.app.config.LimitSettings;
import dev.hexaflow.domain.limit.AppLimits;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An app's limits through the admin API of the real server: the server's defaults shown until the app has its own,
 * set, shown, reset; every mistake refused with 400 naming the field and nothing changed; kept over a restart, and
 * seen by a second instance on the same PostgreSQL within a few exchanges.
 */
class AdminLimitsHttpTest {

    private static final String LIMITS = """
            {"rate_per_key": {"per_minute": 60, "burst": 10}, "rate_per_end_user": {"per_minute": 20, "burst": 5},
             "active_runs": 8, "active_runs_per_end_user": 2, "queued_runs": 0,
             "budgets": [{"scope": "app", "period": "month", "measure": "tokens", "amount": 5000000},
                         {"scope": "end_user", "period": "day", "measure": "price", "amount": 1.5}],
             "on_crossing": "finish", "time_zone": "Europe/Berlin"}""";

    @TempDir
    Path dataDir;

    /** Every app's defaults: four runs at once, from the server's settings. */
    private Configuration config() {
        return TestServer.config(dataDir).withLimits(LimitSettings.fromEnvironment(Map.of(
                "HEXAFLOW_LIMIT_ACTIVE_RUNS", "4")));
    }

    @Test
    void theDefaultsAreShownThenTheAppsOwnSetShownAndReset() {
        try (TestServer server = TestServer.start(config())) {
            String app = server.importApp("echo.yml").get("app_id").asText();
            JsonNode defaults = ok(server.admin("GET", path(app), null, null));
            assertThat(defaults.get("app_id").asText()).isEqualTo(app);
            assertThat(defaults.get("own").asBoolean()).isFalse();
            assertThat(defaults.get("limits").get("active_runs").asInt()).isEqualTo(4);
            assertThat(defaults.get("limits").get("rate_per_key").isNull()).isTrue();

            JsonNode set = ok(server.admin("PUT", path(app), "application/json", LIMITS));
            assertThat(set.get("own").asBoolean()).isTrue();
            JsonNode shown = ok(server.admin("GET", path(app), null, null));
            assertThat(shown).isEqualTo(set);
            JsonNode limits = shown.get("limits");
            assertThat(limits.get("rate_per_key").get("per_minute").asInt()).isEqualTo(60);
            assertThat(limits.get("rate_per_key").get("burst").asInt()).isEqualTo(10);
            assertThat(limits.get("rate_per_end_user").get("burst").asInt()).isEqualTo(5);
            assertThat(limits.get("active_runs").asInt()).isEqualTo(8);
            assertThat(limits.get("active_runs_per_end_user").asInt()).isEqualTo(2);
            assertThat(limits.get("queued_runs").asInt()).isZero();
            assertThat(limits.get("budgets").get(0).get("amount").asLong()).isEqualTo(5_000_000);
            assertThat(limits.get("budgets").get(1).get("measure").asText()).isEqualTo("price");
            assertThat(limits.get("budgets").get(1).get("amount").asDouble()).isEqualTo(1.5);
            assertThat(limits.get("on_crossing").asText()).isEqualTo("finish");
            assertThat(limits.get("time_zone").asText()).isEqualTo("Europe/Berlin");

            JsonNode reset = ok(server.admin("DELETE", path(app), null, null));
            assertThat(reset).isEqualTo(defaults);
            assertThat(ok(server.admin("GET", path(app), null, null))).isEqualTo(defaults);
        }
    }

    @Test
    void everyMistakeIsRefusedNamingTheFieldAndChangesNothing() {
        try (TestServer server = TestServer.start(config())) {
            String app = server.importApp("echo.yml").get("app_id").asText();
            JsonNode before = ok(server.admin("PUT", path(app), "application/json", LIMITS));
            Map<String, String> mistakes = Map.ofEntries(
                    Map.entry("{\"active_runs\": -1}", "active_runs"),
                    Map.entry("{\"active_runs_per_end_user\": -3}", "active_runs_per_end_user"),
                    Map.entry("{\"active_runs\": 2, \"queued_runs\": -1}", "queued_runs"),
                    Map.entry("{\"rate_per_key\": {\"per_minute\": 60, \"burst\": 0}}", "rate_per_key"),
                    Map.entry("{\"rate_per_end_user\": {\"per_minute\": 0, \"burst\": 5}}", "rate_per_end_user"),
                    Map.entry("{\"rate_per_key\": {\"per_minute\": 60, \"every\": 5}}", "rate_per_key"),
                    Map.entry(budget("\"team\"", "\"day\"", "\"tokens\"", "10"), "budgets[0].scope"),
                    Map.entry(budget("\"app\"", "\"week\"", "\"tokens\"", "10"), "budgets[0].period"),
                    Map.entry(budget("\"app\"", "\"day\"", "\"words\"", "10"), "budgets[0].measure"),
                    Map.entry(budget("\"app\"", "\"day\"", "\"tokens\"", "2.5"), "budgets[0].amount"),
                    Map.entry(budget("\"app\"", "\"day\"", "\"tokens\"", "0"), "budgets[0].amount"),
                    Map.entry("{\"budgets\": {\"scope\": \"app\"}}", "budgets"),
                    Map.entry("{\"queued_runs\": 4}", "queued_runs"),
                    Map.entry("{\"active_runs\": 2, \"burst\": 4}", "burst"),
                    Map.entry("{\"time_zone\": \"Mars/Olympus\"}", "time_zone"),
                    Map.entry("{\"on_crossing\": \"explode\"}", "on_crossing"),
                    Map.entry("{\"active_runs\": 1.5}", "active_runs"));
            mistakes.forEach((body, field) -> {
                HttpResponse<String> refused = server.admin("PUT", path(app), "application/json", body);
                assertThat(refused.statusCode()).as(body).isEqualTo(400);
                assertThat(TestServer.json(refused).get("message").asText()).as(body).contains(field);
                assertThat(refused.body()).as(body).doesNotContain("Exception");
            });
            for (String notAnObject : new String[] {"[1, 2]", "8", "\"limits\"", "{not json"}) {
                HttpResponse<String> refused = server.admin("PUT", path(app), "application/json", notAnObject);
                assertThat(refused.statusCode()).as(notAnObject).isEqualTo(400);
                assertThat(TestServer.json(refused).get("status").asInt()).isEqualTo(400);
            }
            assertThat(ok(server.admin("GET", path(app), null, null))).isEqualTo(before);

            for (String method : new String[] {"GET", "PUT", "DELETE"}) {
                HttpResponse<String> missing = server.admin(method, path("no-such-app"), "application/json",
                        method.equals("PUT") ? "{\"active_runs\": 1}" : null);
                assertThat(missing.statusCode()).as(method).isEqualTo(404);
                assertThat(TestServer.json(missing).get("message").asText()).isEqualTo("App not found.");
            }
            HttpResponse<String> noToken = server.send("GET", path(app), null, null, null);
            assertThat(noToken.statusCode()).isEqualTo(401);
        }
    }

    @Test
    void anAppsLimitsSurviveARestart() {
        String app;
        JsonNode set;
        try (TestServer server = TestServer.start(config())) {
            app = server.importApp("echo.yml").get("app_id").asText();
            set = ok(server.admin("PUT", path(app), "application/json", LIMITS));
        }
        try (TestServer again = TestServer.start(config())) {
            assertThat(ok(again.admin("GET", path(app), null, null))).isEqualTo(set);
        }
    }

    @Test
    void limitsSetOnOneInstanceAreSeenByAnotherOnTheSamePostgresql() throws InterruptedException {
        PostgresCluster cluster = PostgresCluster.get();
        String database = cluster.createDatabase();
        // Exchanges every 100 ms: "a few exchanges" is then well under the two seconds waited below.
        Configuration shared = TestServer.config(dataDir).withDatabase(new DatabaseServer(cluster.url(database),
                PostgresCluster.USER, PostgresCluster.PASSWORD)).withLimits(new LimitSettings(AppLimits.NONE,
                Duration.ofMillis(100)));
        try (TestServer first = TestServer.start(shared); TestServer second = TestServer.start(shared)) {
            String app = first.importApp("echo.yml").get("app_id").asText();
            JsonNode set = ok(first.admin("PUT", path(app), "application/json", LIMITS));
            assertThat(waitFor(second, app, true)).isEqualTo(set);
            ok(second.admin("DELETE", path(app), null, null));
            assertThat(waitFor(first, app, false).get("limits").get("active_runs").asInt()).isZero();
        }
    }

    /** The app's limits on {@code server} once their {@code own} is as asked, within 20 exchanges. */
    private static JsonNode waitFor(TestServer server, String app, boolean own) throws InterruptedException {
        JsonNode shown = null;
        for (int i = 0; i < 20; i++) {
            shown = ok(server.admin("GET", path(app), null, null));
            if (shown.get("own").asBoolean() == own) {
                return shown;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("after 2 s the other instance still shows " + shown);
    }

    private static String budget(String scope, String period, String measure, String amount) {
        return "{\"budgets\": [{\"scope\": " + scope + ", \"period\": " + period + ", \"measure\": " + measure
                + ", \"amount\": " + amount + "}]}";
    }

    private static JsonNode ok(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return TestServer.json(response);
    }

    private static String path(String app) {
        return "/admin/apps/" + app + "/limits";
    }
}
