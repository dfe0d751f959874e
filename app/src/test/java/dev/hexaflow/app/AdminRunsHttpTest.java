package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static dev.hexaflow.app.api.ServiceApi.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.app.api.ServiceApi;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator's runs: {@code /admin/runs} across apps with the admin token alone (no app key), each run whole with
 * its nodes and events, stopped and run again from there; an app's keys listed without the keys.
 */
class AdminRunsHttpTest {

    @TempDir
    static Path dataDir;
    static TestServer server;
    static String echoApp;
    static String echoKey;
    static String failsApp;
    static ServiceApi echo;
    static ServiceApi fails;
    static final List<String> echoRuns = new ArrayList<>();
    static String failedRun;

    @BeforeAll
    static void start() {
        server = TestServer.start(dataDir);
        JsonNode importedEcho = server.importApp("echo.yml");
        echoApp = importedEcho.get("app_id").asText();
        echoKey = importedEcho.get("api_key").asText();
        echo = server.api(echoKey);
        JsonNode importedFails = server.importApp("fails.yml");
        failsApp = importedFails.get("app_id").asText();
        fails = server.api(importedFails.get("api_key").asText());
        for (int i = 0; i < 7; i++) {
            JsonNode answer = json(echo.postJson("/v1/workflows/run", run(Map.of("query", "order " + i), "blocking",
                    i % 2 == 0 ? "ada" : "bob")));
            echoRuns.add(answer.get("workflow_run_id").asText());
        }
        failedRun = json(fails.postJson("/v1/workflows/run", run(Map.of(), "blocking", "cy")))
                .get("workflow_run_id").asText();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static JsonNode admin(String path) {
        HttpResponse<String> answer = server.admin("GET", path, null, null);
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        return TestServer.json(answer);
    }

    @Test
    void runsOfEveryAppAreListedNewestFirstAndPagedWithoutRepeatOrGap() {
        List<String> seen = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            JsonNode page = admin("/admin/runs?limit=3" + (cursor == null ? "" : "&cursor=" + cursor));
            page.get("data").forEach(run -> seen.add(run.get("id").asText()));
            cursor = page.get("next_cursor").isNull() ? null : page.get("next_cursor").asText();
            assertThat(page.get("has_more").asBoolean()).isEqualTo(cursor != null);
            pages++;
        } while (cursor != null && pages < 20);

        assertThat(seen).doesNotHaveDuplicates().containsAll(echoRuns).contains(failedRun);
        List<String> newestFirst = new ArrayList<>(echoRuns);
        java.util.Collections.reverse(newestFirst);
        assertThat(seen.stream().filter(echoRuns::contains).toList()).containsExactlyElementsOf(newestFirst);
    }

    @Test
    void filtersNarrowByAppStatusUserKeywordModeAndTime() {
        assertThat(ids(admin("/admin/runs?status=failed&limit=100"))).contains(failedRun)
                .doesNotContainAnyElementsOf(echoRuns);
        JsonNode ofEcho = admin("/admin/runs?app_id=" + echoApp + "&limit=100");
        assertThat(ids(ofEcho)).containsAll(echoRuns).doesNotContain(failedRun);
        ofEcho.get("data").forEach(run -> assertThat(run.get("app").get("id").asText()).isEqualTo(echoApp));
        JsonNode ofBob = admin("/admin/runs?app_id=" + echoApp + "&user=bob&limit=100");
        assertThat(ids(ofBob)).contains(echoRuns.get(1), echoRuns.get(3), echoRuns.get(5));
        ofBob.get("data").forEach(run -> assertThat(run.get("end_user").get("session_id").asText()).isEqualTo("bob"));
        assertThat(ids(admin("/admin/runs?keyword=order%205&limit=100"))).containsExactly(echoRuns.get(5));
        assertThat(ids(admin("/admin/runs?mode=advanced-chat&limit=100"))).isEmpty();
        assertThat(ids(admin("/admin/runs?created_at__before=2001-01-01&limit=100"))).isEmpty();
        JsonNode one = admin("/admin/runs?app_id=" + failsApp).get("data").get(0);
        assertThat(one.get("app").get("name").asText()).isEqualTo("Fails");
        assertThat(one.get("app").get("mode").asText()).isEqualTo("workflow");
        assertThat(one.get("end_user").get("session_id").asText()).isEqualTo("cy");
        assertThat(one.get("status").asText()).isEqualTo("failed");
    }

    private static Set<String> ids(JsonNode page) {
        Set<String> ids = new HashSet<>();
        page.get("data").forEach(run -> ids.add(run.get("id").asText()));
        return ids;
    }

    @Test
    void aFailedRunIsReadWholeWithItsFailingNodeAndItsEvents() {
        JsonNode run = admin("/admin/runs/" + failedRun);

        assertThat(run.get("status").asText()).isEqualTo("failed");
        assertThat(run.get("error").asText()).contains("the printer is on fire");
        assertThat(run.get("app").get("id").asText()).isEqualTo(failsApp);
        JsonNode burn = null;
        for (JsonNode node : run.get("node_executions")) {
            burn = node.get("node_id").asText().equals("burn") ? node : burn;
        }
        assertThat(burn).isNotNull();
        assertThat(burn.get("status").asText()).isEqualTo("failed");
        assertThat(burn.get("error").asText()).contains("the printer is on fire");
        assertThat(burn.get("inputs").isObject()).isTrue();
        assertThat(burn.get("elapsed_time").isNumber()).isTrue();
        List<String> events = new ArrayList<>();
        run.get("events").forEach(event -> events.add(event.get("data").path("event").asText(event.toString())));
        assertThat(events).startsWith("workflow_started").contains("node_finished").endsWith("workflow_finished");
    }

    @Test
    void anUnknownRunABadCursorOrFilterAndNoTokenAreRefusedInTheAdminShape() {
        assertThat(server.admin("GET", "/admin/runs/no-such-run", null, null).statusCode()).isEqualTo(404);
        assertThat(server.admin("GET", "/admin/runs?cursor=zzz", null, null).statusCode()).isEqualTo(400);
        assertThat(server.admin("GET", "/admin/runs?status=exploded", null, null).statusCode()).isEqualTo(400);
        assertThat(server.admin("GET", "/admin/runs?limit=500", null, null).statusCode()).isEqualTo(400);
        assertThat(server.admin("POST", "/admin/runs/" + failedRun + "/rerun", "application/json",
                "{\"version\": \"oldest\"}").statusCode()).isEqualTo(400);
        HttpResponse<String> keyOnly = server.send("GET", "/admin/runs", null, null, echoKey);
        assertThat(keyOnly.statusCode()).isEqualTo(401);
        assertThat(TestServer.json(keyOnly).has("code")).isTrue();
    }

    @Test
    void aRunIsRunAgainWithTheSameInputsForTheSameUser() throws InterruptedException {
        String first = echoRuns.get(3);
        HttpResponse<String> answer = server.admin("POST", "/admin/runs/" + first + "/rerun", "application/json",
                "{\"version\": \"newest\"}");
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(202);
        String again = TestServer.json(answer).get("workflow_run_id").asText();
        assertThat(again).isNotEqualTo(first);

        JsonNode rerun = awaitEnd(again);
        JsonNode original = admin("/admin/runs/" + first);
        assertThat(rerun.get("status").asText()).isEqualTo("succeeded");
        assertThat(rerun.get("inputs").get("query")).isEqualTo(original.get("inputs").get("query"));
        assertThat(rerun.get("outputs")).isEqualTo(original.get("outputs"));
        assertThat(rerun.get("end_user").get("session_id").asText()).isEqualTo("bob");
    }

    @Test
    void aRunningRunIsStoppedFromItsPage() throws InterruptedException {
        JsonNode slow = server.importApp("slow.yml");
        ServiceApi api = server.api(slow.get("api_key").asText());
        HttpResponse<String> started = api.postJson("/v1/workflows/run", Map.of("inputs", Map.of("millis", 20_000),
                "response_mode", "async", "user", "dee"));
        assertThat(started.statusCode()).as(started.body()).isEqualTo(202);
        String runId = json(started).get("workflow_run_id").asText();
        awaitNodeRunning(runId);

        HttpResponse<String> stopped = server.admin("POST", "/admin/runs/" + runId + "/stop", null, null);

        assertThat(stopped.statusCode()).as(stopped.body()).isEqualTo(200);
        assertThat(TestServer.json(stopped).get("stopped").asBoolean()).isTrue();
        assertThat(awaitEnd(runId).get("status").asText()).isEqualTo("stopped");
        JsonNode again = TestServer.json(server.admin("POST", "/admin/runs/" + runId + "/stop", null, null));
        assertThat(again.get("stopped").asBoolean()).isFalse();
    }

    @Test
    void anAppsKeysAreListedMaskedWithWhenTheyWereLastUsedAndRevokedByTheirId() {
        HttpResponse<String> issued = server.admin("POST", "/admin/apps/" + echoApp + "/keys", null, null);
        String second = TestServer.json(issued).get("api_key").asText();

        JsonNode keys = admin("/admin/apps/" + echoApp + "/keys");

        assertThat(keys.toString()).doesNotContain(echoKey).doesNotContain(second);
        assertThat(keys.get("data")).hasSize(2);
        JsonNode used = keys.get("data").get(0);
        assertThat(used.get("hint").asText()).isEqualTo("app-\u2026" + echoKey.substring(echoKey.length() - 4));
        assertThat(used.get("last_used_at").asLong()).isGreaterThan(0);
        JsonNode unused = keys.get("data").get(1);
        assertThat(unused.get("last_used_at").isNull()).isTrue();

        assertThat(server.admin("DELETE", "/admin/apps/" + echoApp + "/keys/" + unused.get("id").asText(), null,
                null).statusCode()).isEqualTo(200);
        assertThat(admin("/admin/apps/" + echoApp + "/keys").get("data")).hasSize(1);
        assertThat(server.api(second).get("/v1/info").statusCode()).isEqualTo(401);
        assertThat(server.admin("GET", "/admin/apps/no-such-app/keys", null, null).statusCode()).isEqualTo(404);
    }

    private static void awaitNodeRunning(String runId) throws InterruptedException {
        for (int i = 0; i < 200; i++) {
            JsonNode run = admin("/admin/runs/" + runId);
            for (JsonNode node : run.get("node_executions")) {
                if (node.get("node_id").asText().equals("wait")) {
                    return;
                }
            }
            Thread.sleep(25);
        }
        throw new AssertionError("the slow node never started");
    }

    private static JsonNode awaitEnd(String runId) throws InterruptedException {
        for (int i = 0; i < 400; i++) {
            HttpResponse<String> answer = server.admin("GET", "/admin/runs/" + runId, null, null);
            if (answer.statusCode() == 200) {
                JsonNode run = TestServer.json(answer);
                if (!run.get("status").asText().equals("running")) {
                    return run;
                }
            }
            Thread.sleep(25);
        }
        throw new AssertionError("the run " + runId + " never ended");
    }
}
