package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static dev.hexaflow.app.api.ServiceApi.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.persistence.PostgresCluster;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.app.config.Configuration;
import dev.hexaflow.app.config.DatabaseServer;
import dev.hexaflow.app.config.TriggerSettings;
import dev.hexaflow.application.instances.service.InstanceLease;
import dev.hexaflow.engine.EngineConfiguration;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two real servers in-process on one real PostgreSQL 15 database and one data directory (the files every instance
 * mounts), driven as a load balancer would: whatever one instance keeps or changes, the other reads, hears of or
 * acts on.
 */
class PostgresInstancesTest {

    @TempDir
    Path dataDir;

    private String database;
    private TestServer first;
    private TestServer second;

    @BeforeEach
    void startTwoInstances() {
        database = PostgresCluster.get().createDatabase();
        first = TestServer.start(config(Optional.of(TestServer.ADMIN_TOKEN)));
        second = TestServer.start(config(Optional.of(TestServer.ADMIN_TOKEN)));
    }

    @AfterEach
    void stopThem() {
        for (TestServer server : new TestServer[] {first, second}) {
            if (server != null) {
                server.close();
            }
        }
    }

    private Configuration config(Optional<String> adminToken) {
        PostgresCluster cluster = PostgresCluster.get();
        Configuration base = TestServer.config(dataDir);
        // The webhook receiver of a test is on loopback, which the outbound policy otherwise refuses.
        EngineConfiguration engine = EngineConfiguration.fromEnvironment(Map.of("HEXAFLOW_OUTBOUND_ALLOW",
                "127.0.0.1"));
        // Both instances look for due schedules every second, so that they race for each tick of a test's schedule.
        return new Configuration(base.host(), 0, dataDir, adminToken, engine, base.service(),
                Optional.of(new DatabaseServer(cluster.url(database), PostgresCluster.USER, PostgresCluster.PASSWORD)))
                .withTriggers(new TriggerSettings(java.time.Duration.ofSeconds(1), 1024 * 1024, 100));
    }

    /**
     * A run paused on one instance is answered through the other: the answer's instance takes it and plays the rest,
     * while a follower on the first, attached before the answer, reads the rest from the store to the end; of two
     * answers at once, one through each instance, exactly one wins.
     */
    @Test
    void aRunPausedOnOneInstanceGoesOnWhenItsFormIsAnsweredThroughTheOther() throws Exception {
        String key = first.importApp("review.yml").get("api_key").asText();
        JsonNode paused = TestServer.json(first.api(key).postJson("/v1/workflows/run", Map.of("inputs",
                Map.of("draft", "shared"), "response_mode", "blocking", "user", "ada")));
        String token = paused.get("data").get("reasons").get(0).get("form_token").asText();
        String runId = paused.get("workflow_run_id").asText();
        CompletableFuture<String> followed = CompletableFuture.supplyAsync(
                () -> first.api(key).get("/v1/workflow/" + runId + "/events?user=ada&continue_on_pause=true").body());
        Thread.sleep(300);

        List<CompletableFuture<Integer>> answers = new ArrayList<>();
        for (TestServer server : List.of(first, second)) {
            answers.add(CompletableFuture.supplyAsync(() -> server.api(key).postJson(
                    "/v1/form/human_input/" + token, Map.of("action", "approve", "user", "ada", "inputs",
                            Map.of("feedback", server == first ? "from one" : "from two", "priority", "low")))
                    .statusCode()));
        }
        assertThat(answers.stream().map(CompletableFuture::join).sorted().toList())
                .containsExactly(200, 412);
        String stream = followed.get(30, TimeUnit.SECONDS);
        assertThat(stream).contains("\"event\":\"human_input_form_filled\"").contains("\"event\":\"workflow_finished\"");
        JsonNode run = TestServer.json(second.api(key).get("/v1/workflows/run/" + runId));
        assertThat(run.get("status").asText()).isEqualTo("succeeded");
        assertThat(run.get("outputs").get("feedback").asText()).isIn("from one", "from two");
    }

    /**
     * A schedule every second, both instances polling every second: each tick starts exactly one run, whichever
     * instance claims it, as the store's ticks and runs show.
     */
    @Test
    void eachTickOfAScheduleStartsExactlyOneRunAcrossBothInstances() throws Exception {
        String appId = first.importApp("schedule-trigger.yml").get("app_id").asText();
        ScheduleTriggerHttpTest.waitFor(() -> count("SELECT COUNT(*) FROM workflow_run WHERE triggered_from = "
                + "'schedule' AND status = 'succeeded'") >= 5, "five scheduled runs");
        second.admin("POST", "/admin/apps/" + appId + "/triggers/tick/disable", null, null);
        // A tick claimed just before the switch may still be starting its run, kept once the run ends.
        ScheduleTriggerHttpTest.waitFor(() -> count("SELECT COUNT(*) FROM trigger_tick WHERE run_id IS NULL") == 0
                && count("SELECT COUNT(*) FROM workflow_run WHERE triggered_from = 'schedule'")
                == count("SELECT COUNT(*) FROM trigger_tick"), "every tick's run kept");
        long ticks = count("SELECT COUNT(*) FROM trigger_tick");
        assertThat(count("SELECT COUNT(DISTINCT due_at) FROM trigger_tick")).isEqualTo(ticks);
        assertThat(count("SELECT COUNT(DISTINCT run_id) FROM trigger_tick WHERE outcome = 'FIRED'")).isEqualTo(ticks);
        assertThat(count("SELECT COUNT(*) FROM workflow_run WHERE triggered_from = 'schedule'")).isEqualTo(ticks);
        assertThat(count("SELECT COUNT(*) FROM trigger_tick t JOIN workflow_run r ON r.id = t.run_id"))
                .isEqualTo(ticks);
    }

    private long count(String sql) {
        PostgresCluster cluster = PostgresCluster.get();
        try (Connection db = DriverManager.getConnection(cluster.url(database), PostgresCluster.USER,
                PostgresCluster.PASSWORD); PreparedStatement query = db.prepareStatement(sql);
                java.sql.ResultSet rows = query.executeQuery()) {
            rows.next();
            return rows.getLong(1);
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void eachInstanceListsBothLiveLeasesAndNamesItselfAsTheOneAnswering() throws InterruptedException {
        JsonNode listed = null;
        // Each instance tells where it serves with its first renewal after its start.
        for (int i = 0; i < 100 && (listed == null || listed.get("instances").size() < 2
                || listed.get("instances").findValuesAsText("origin").contains("null")); i++) {
            listed = TestServer.json(first.admin("GET", "/admin/instances", null, null));
            Thread.sleep(100);
        }

        assertThat(listed.get("shared").asBoolean()).isTrue();
        assertThat(listed.get("store").get("status").asText()).isEqualTo("ok");
        assertThat(listed.get("instances")).hasSize(2).allSatisfy(instance ->
                assertThat(instance.get("live").asBoolean()).isTrue());
        assertThat(listed.get("instances").findValuesAsText("answering")).containsExactlyInAnyOrder("true", "false");
        String firstPort = first.baseUrl().substring(first.baseUrl().lastIndexOf(':') + 1);
        for (JsonNode instance : listed.get("instances")) {
            assertThat(instance.get("origin").asText().endsWith(":" + firstPort))
                    .isEqualTo(instance.get("answering").asBoolean());
        }
    }

    @Test
    void aRunAndAnUploadKeptByOneInstanceAreReadOnTheOther() {
        JsonNode reader = first.importApp("reader.yml");
        JsonNode echo = first.importApp("echo.yml");
        ServiceApi echoOnFirst = first.api(echo.get("api_key").asText());
        ServiceApi echoOnSecond = second.api(echo.get("api_key").asText());

        JsonNode ran = json(echoOnFirst.postJson("/v1/workflows/run", run(Map.of("query", "kept"), "blocking", "ada")));
        String runId = ran.get("workflow_run_id").asText();

        JsonNode detail = json(echoOnSecond.get("/v1/workflows/run/" + runId));
        assertThat(detail.get("status").asText()).isEqualTo("succeeded");
        assertThat(detail.get("outputs").get("answer").asText()).isEqualTo("You said: kept (calm)");
        assertThat(json(echoOnSecond.get("/v1/workflows/logs")).get("data").get(0).get("workflow_run").get("id")
                .asText()).isEqualTo(runId);
        assertThat(json(echoOnSecond.get("/v1/workflows/run/" + runId + "/node-executions")).get("data"))
                .isNotEmpty();

        // An upload to one instance is read by a run on the other: the files are where both reach them.
        String file = first.api(reader.get("api_key").asText()).upload("ada", "notes.txt", "text/plain",
                "shared notes".getBytes(StandardCharsets.UTF_8));
        HttpResponse<String> read = second.api(reader.get("api_key").asText()).postJson("/v1/workflows/run",
                Map.of("inputs", Map.of("doc", Map.of("transfer_method", "local_file", "upload_file_id", file,
                        "type", "document")), "response_mode", "blocking", "user", "ada"));
        assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
        assertThat(read.body()).contains("shared notes");
    }

    @Test
    void aStopSentToTheInstanceThatDoesNotRunTheTaskStopsItWithinASecond() throws Exception {
        SlowStream slow = slowStream(first, 20_000);
        ServiceApi onFirst = first.api(slow.app().get("api_key").asText());
        ServiceApi onSecond = second.api(slow.app().get("api_key").asText());
        BufferedReader lines = slow.lines();
        JsonNode started = slow.started();
        String taskId = started.get("task_id").asText();

        // Another user's stop, sent to either instance, stops nothing.
        assertThat(onSecond.postJson("/v1/workflows/tasks/" + taskId + "/stop", Map.of("user", "eve")).body())
                .isEqualTo("{\"result\":\"success\"}");
        Thread.sleep(300);
        assertThat(json(onFirst.get("/v1/workflows/run/" + started.get("workflow_run_id").asText())).get("status")
                .asText()).isEqualTo("running");

        long asked = System.nanoTime();
        HttpResponse<String> stop = onSecond.postJson("/v1/workflows/tasks/" + taskId + "/stop", Map.of("user",
                "ada"));
        String rest = readAll(lines);
        double seconds = (System.nanoTime() - asked) / 1e9;

        assertThat(stop.body()).isEqualTo("{\"result\":\"success\"}");
        assertThat(seconds).isLessThan(1.0);
        assertThat(rest).contains("\"event\":\"workflow_finished\"").contains("\"status\":\"stopped\"");
        assertThat(json(onSecond.get("/v1/workflows/run/" + started.get("workflow_run_id").asText())).get("status")
                .asText()).isEqualTo("stopped");
    }

    @Test
    void aKeyRevokedAndAVersionPublishedOnOneInstanceAreSeenByTheOtherWithinASecond() throws Exception {
        JsonNode echo = first.importApp("echo.yml");
        String appId = echo.get("app_id").asText();
        String key = echo.get("api_key").asText();
        ServiceApi onSecond = second.api(key);
        // The second instance now holds the key, the app and its version in memory.
        assertThat(json(onSecond.postJson("/v1/workflows/run", run(Map.of("query", "a"), "blocking", "ada")))
                .get("data").get("outputs").get("answer").asText()).startsWith("You said:");

        String changed = new String(PostgresInstancesTest.class.getResourceAsStream("/apps/echo.yml").readAllBytes(),
                StandardCharsets.UTF_8).replace("You said:", "You typed:");
        assertThat(first.admin("PUT", "/admin/apps/" + appId, "application/yaml", changed).statusCode())
                .isEqualTo(200);
        assertThat(within(1000, () -> json(onSecond.postJson("/v1/workflows/run", run(Map.of("query", "b"),
                "blocking", "ada"))).get("data").get("outputs").get("answer").asText().startsWith("You typed:")))
                .as("the version published on the first instance runs on the second").isTrue();

        assertThat(first.admin("DELETE", "/admin/apps/" + appId + "/keys/" + key, null, null).statusCode())
                .isEqualTo(200);
        assertThat(within(1000, () -> onSecond.get("/v1/parameters").statusCode() == 401))
                .as("the key revoked on the first instance is refused on the second").isTrue();
    }

    @Test
    void aPageTokenAndASignedFileUrlMadeByOneInstanceAreTakenByTheOther() throws IOException {
        JsonNode echo = first.importApp("echo.yml");
        TestServer.PageToken token = first.pageToken(echo.get("site_code").asText(), null);

        HttpResponse<String> ran = second.api(token.token()).postJson("/v1/workflows/run", run(Map.of("query",
                "from the page"), "blocking", token.user()));
        assertThat(ran.statusCode()).as(ran.body()).isEqualTo(200);

        // A file's preview URL, signed by the instance that answered the turn, is served by the other.
        ServiceApi files = first.api(first.importApp("chatflow-files.yml").get("api_key").asText());
        String upload = files.upload("uma", "minutes.txt", "text/plain", "signed".getBytes(StandardCharsets.UTF_8));
        String turn = new String(files.postStreaming("/v1/chat-messages", Map.of("query", "my file", "inputs",
                Map.of(), "user", "uma", "response_mode", "streaming", "files", List.of(Map.of("type", "document",
                        "transfer_method", "local_file", "upload_file_id", upload)))).body().readAllBytes(),
                StandardCharsets.UTF_8);
        java.util.regex.Matcher url = java.util.regex.Pattern.compile("\"url\":\"(/files/" + upload
                + "/file-preview\\?[^\"]+)\"").matcher(turn);
        assertThat(url.find()).as(turn).isTrue();
        HttpResponse<String> fetched = second.get(url.group(1).replace("\\u0026", "&"));
        assertThat(fetched.statusCode()).as(fetched.body()).isEqualTo(200);
        assertThat(fetched.body()).isEqualTo("signed");
        HttpResponse<String> forged = second.get(url.group(1).replace("\\u0026", "&").replaceAll("sign=[^&]+",
                "sign=AAAA"));
        assertThat(forged.statusCode()).isEqualTo(403);
    }

    @Test
    void theAdminTokenMadeByTheFirstInstanceIsTheOneOfEveryOther() {
        stopThem();
        first = null;
        second = null;
        database = PostgresCluster.get().createDatabase();
        first = TestServer.start(config(Optional.empty()));
        second = TestServer.start(config(Optional.empty()));

        String token = first.hexaflow.report().newAdminToken().orElseThrow();
        assertThat(second.hexaflow.report().newAdminToken()).as("made once, shown once").isEmpty();
        assertThat(second.send("GET", "/admin/apps", null, null, token).statusCode()).isEqualTo(200);
        assertThat(second.send("GET", "/admin/apps", null, null, "hfa-" + "x".repeat(40)).statusCode())
                .isEqualTo(401);
    }

    @Test
    void instancesStartingAtOnceOnANewDatabaseMakeOneFirstStartAndEachRunsTheDemoThatReadsTheSharedFeed()
            throws Exception {
        stopThem();
        first = null;
        second = null;
        database = PostgresCluster.get().createDatabase();
        CompletableFuture<TestServer> one = CompletableFuture.supplyAsync(
                () -> TestServer.start(config(Optional.of(TestServer.ADMIN_TOKEN))));
        CompletableFuture<TestServer> two = CompletableFuture.supplyAsync(
                () -> TestServer.start(config(Optional.of(TestServer.ADMIN_TOKEN))));
        first = one.get();
        second = two.get();
        List<TestServer> made = java.util.stream.Stream.of(first, second)
                .filter(server -> server.hexaflow.report().newCampusKey().isPresent()).toList();

        assertThat(made).as("one first start: one campus key, one pair of demo apps").hasSize(1);
        assertThat(TestServer.json(first.admin("GET", "/admin/apps", null, null)).get("data").size()).isEqualTo(2);
        TestServer other = made.get(0) == first ? second : first;
        // The demo reads the campus feed through Hexaflow's built-in tool: on any instance, from the shared store.
        String demoKey = made.get(0).hexaflow.report().demo().orElseThrow().apiKey();
        assertThat(within(3_000, () -> json(other.api(demoKey).postJson("/v1/workflows/run", run(Map.of("year",
                "2026"), "blocking", "demo"))).get("data").get("status").asText().equals("succeeded")))
                .as("the demo run on the instance that did not import it").isTrue();
    }

    @Test
    void aFirstStartWhoseInstanceDiedBeforeFinishingIsMadeByTheNextStartOnceItsLeaseLapsed() throws Exception {
        stopThem();
        second = null;
        database = PostgresCluster.get().createDatabase();
        first = TestServer.start(config(Optional.of(TestServer.ADMIN_TOKEN)));
        assertThat(first.hexaflow.report().newCampusKey()).as("the first start, made").isPresent();
        first.close();
        first = null;
        // As if the instance that claimed the first start had died in it: claimed, never marked done.
        String claimant = UUID.randomUUID().toString();
        long now = System.currentTimeMillis();
        try (Connection sql = DriverManager.getConnection(PostgresCluster.get().url(database), PostgresCluster.USER,
                PostgresCluster.PASSWORD)) {
            execute(sql, "DELETE FROM server_state WHERE name = 'first_start_done'");
            execute(sql, "UPDATE server_state SET claimed_by = ? WHERE name = 'first_start'", claimant);
            execute(sql, "INSERT INTO instance_lease (id, started_at, renewed_at) VALUES (?, ?, ?)", claimant, now,
                    now + 60_000);
        }
        try (TestServer whileItLives = TestServer.start(config(Optional.of(TestServer.ADMIN_TOKEN)))) {
            assertThat(whileItLives.hexaflow.report().newCampusKey()).as("not taken from a live instance").isEmpty();
            assertThat(whileItLives.hexaflow.report().demo()).isEmpty();
        }
        try (Connection sql = DriverManager.getConnection(PostgresCluster.get().url(database), PostgresCluster.USER,
                PostgresCluster.PASSWORD)) {
            execute(sql, "UPDATE instance_lease SET renewed_at = ? WHERE id = ?",
                    now - InstanceLease.LASTS.toMillis() - 1_000, claimant);
        }

        first = TestServer.start(config(Optional.of(TestServer.ADMIN_TOKEN)));

        assertThat(first.hexaflow.report().newCampusKey()).as("taken over once the claimant's lease lapsed")
                .isPresent();
        assertThat(first.hexaflow.report().demo()).isPresent();
        assertThat(first.get("/v2/events/holidays.json?key=" + first.campusKey()).statusCode()).isEqualTo(200);
        second = TestServer.start(config(Optional.of(TestServer.ADMIN_TOKEN)));
        assertThat(second.hexaflow.report().newCampusKey()).as("done, so made once").isEmpty();
    }

    @Test
    void runsOfAnInstanceWhoseLeaseRanOutAreFailedByAnotherAndALiveInstancesRunsAreNot() throws Exception {
        // A run of the first instance, going on while a third instance starts and every instance sweeps.
        SlowStream running = slowStream(first, 2 * InstanceLease.RENEW_EVERY.toMillis() + 1500);
        JsonNode slow = running.app();
        String appId = slow.get("app_id").asText();
        ServiceApi onFirst = first.api(slow.get("api_key").asText());
        BufferedReader lines = running.lines();
        String live = running.started().get("workflow_run_id").asText();
        // A run of an instance that died: its lease was last renewed longer ago than a lease lasts.
        String dead = UUID.randomUUID().toString();
        String orphan = UUID.randomUUID().toString();
        long now = System.currentTimeMillis();
        try (Connection sql = DriverManager.getConnection(PostgresCluster.get().url(database), PostgresCluster.USER,
                PostgresCluster.PASSWORD)) {
            execute(sql, "INSERT INTO instance_lease (id, started_at, renewed_at) VALUES (?, ?, ?)", dead, now - 60_000,
                    now - InstanceLease.LASTS.toMillis() - 1_000);
            execute(sql, "INSERT INTO workflow_run (id, app_id, workflow_id, task_id, status, inputs, created_at, "
                    + "instance_id) VALUES (?, ?, ?, ?, 'running', '{}', ?, ?)", orphan, appId,
                    slow.get("workflow_id").asText(), UUID.randomUUID().toString(), now / 1000 - 30, dead);
            execute(sql, "UPDATE run_count SET n = n + 1 WHERE app_id = ? AND status = 'running'", appId);
        }
        try (TestServer third = TestServer.start(config(Optional.of(TestServer.ADMIN_TOKEN)))) {
            JsonNode failed = json(third.api(slow.get("api_key").asText()).get("/v1/workflows/run/" + orphan));
            assertThat(failed.get("status").asText()).as("failed at the third instance's start").isEqualTo("failed");
            assertThat(failed.get("error").asText()).isEqualTo(InstanceLease.REASON);

            String rest = readAll(lines);
            assertThat(rest).contains("\"status\":\"succeeded\"");
            assertThat(json(onFirst.get("/v1/workflows/run/" + live)).get("status").asText())
                    .as("the live instance's run went on to its end").isEqualTo("succeeded");
        }
        try (Connection sql = DriverManager.getConnection(PostgresCluster.get().url(database), PostgresCluster.USER,
                PostgresCluster.PASSWORD); PreparedStatement leases = sql.prepareStatement(
                        "SELECT COUNT(*) FROM instance_lease")) {
            var count = leases.executeQuery();
            count.next();
            assertThat(count.getInt(1)).as("the dead lease forgotten, the stopped third instance's given up")
                    .isEqualTo(2);
        }
    }

    @Test
    void documentsLeftIndexingByAnInstanceWhoseLeaseRanOutEndErrorAtTheNextStartAndALiveInstancesAreLeftToIt()
            throws Exception {
        first.admin("POST", "/admin/knowledge/bases", "application/json",
                "{\"id\": \"handbook\", \"name\": \"Handbook\"}");
        String live = TestServer.json(first.admin("POST", "/admin/knowledge/bases/handbook/documents",
                "application/json", "{\"name\": \"leave.md\", \"text\": \"Paid leave: 25 days.\"}")).get("id")
                .asText();
        String orphan = TestServer.json(first.admin("POST", "/admin/knowledge/bases/handbook/documents",
                "application/json", "{\"name\": \"parking.md\", \"text\": \"Bikes park below.\"}")).get("id")
                .asText();
        // The first instance is indexing one document still; an instance that died was indexing the other.
        String dead = UUID.randomUUID().toString();
        long now = System.currentTimeMillis();
        try (Connection sql = DriverManager.getConnection(PostgresCluster.get().url(database), PostgresCluster.USER,
                PostgresCluster.PASSWORD)) {
            execute(sql, "INSERT INTO instance_lease (id, started_at, renewed_at) VALUES (?, ?, ?)", dead, now - 60_000,
                    now - InstanceLease.LASTS.toMillis() - 1_000);
            execute(sql, "UPDATE knowledge_document SET status = 'indexing' WHERE id = ?", live);
            execute(sql, "UPDATE knowledge_document SET status = 'indexing', instance_id = ? WHERE id = ?", dead,
                    orphan);
        }

        try (TestServer third = TestServer.start(config(Optional.of(TestServer.ADMIN_TOKEN)))) {
            ServiceApi knowledge = third.api(TestServer.json(third.admin("POST", "/admin/datasets/keys", null, null))
                    .get("key").asText());
            JsonNode ended = json(knowledge.get("/v1/datasets/handbook/documents/" + orphan));
            JsonNode going = json(knowledge.get("/v1/datasets/handbook/documents/" + live));

            assertThat(ended.get("indexing_status").asText()).as("ended at the third instance's start")
                    .isEqualTo("error");
            assertThat(ended.get("error").asText()).startsWith("The server indexing the document stopped answering");
            assertThat(going.get("indexing_status").asText()).as("the live instance's, left to it")
                    .isEqualTo("indexing");
        }
    }

    @Test
    void anInstanceThatFindsItsLeaseGoneStopsTheRunsItStillHas() throws Exception {
        SlowStream slow = slowStream(first, 12_000);
        BufferedReader lines = slow.lines();
        String runId = slow.started().get("workflow_run_id").asText();
        int port = first.hexaflow.port();

        // As if the first instance had paused longer than a lease lasts: the others have forgotten its lease.
        long gone = System.nanoTime();
        try (Connection sql = DriverManager.getConnection(PostgresCluster.get().url(database), PostgresCluster.USER,
                PostgresCluster.PASSWORD)) {
            execute(sql, "DELETE FROM instance_lease WHERE origin = ?", "127.0.0.1:" + port);
        }
        String rest = readAll(lines);
        double seconds = (System.nanoTime() - gone) / 1e9;

        assertThat(seconds).as("its run ended within a renewal and a sweep").isLessThan(
                2 * InstanceLease.RENEW_EVERY.toSeconds() + 2);
        assertThat(rest).contains("\"event\":\"workflow_finished\"");
        assertThat(json(second.api(slow.app().get("api_key").asText()).get("/v1/workflows/run/" + runId))
                .get("status").asText()).as("failed by the other instance's sweep, or stopped here: not running, not "
                        + "succeeded")
                .isIn("failed", "stopped");
    }

    @Test
    void aStreamOfARunOnOneInstanceIsFollowedOnTheOtherToItsEnd() throws Exception {
        SlowStream slow = slowStream(first, 1500);
        String runId = slow.started().get("workflow_run_id").asText();

        HttpResponse<InputStream> followed = SseFrames.open(SseFrames.get(second.hexaflow.baseUrl(),
                "/v1/workflows/run/" + runId + "/events", slow.app().get("api_key").asText()));
        String told = new String(followed.body().readAllBytes(), StandardCharsets.UTF_8);
        String streamed = slow.opening() + "\n" + readAll(slow.lines());

        assertThat(followed.statusCode()).isEqualTo(200);
        assertThat(events(told)).as("the same events, in the same order")
                .containsExactlyElementsOf(events(streamed));
        assertThat(told).contains("\"event\":\"workflow_finished\"");
    }

    @Test
    void campusUsesCountedOnBothInstancesAtOnceEachGetTheirOwnNumber() throws Exception {
        String key = first.campusKey();
        List<Long> counts = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            TestServer server = i % 2 == 0 ? first : second;
            counts.add(TestServer.json(server.get("/v2/events/holidays.json?key=" + key)).get("meta")
                    .get("requests").asLong());
        }
        assertThat(counts).containsExactlyElementsOf(java.util.stream.LongStream.rangeClosed(1, 20).boxed()
                .toList());

        assertThat(first.admin("PUT", "/admin/campus/holidays", "text/csv",
                "date,holiday\n2027-07-01,Canada Day\n").statusCode()).isEqualTo(200);
        assertThat(within(1000, () -> TestServer.json(second.get("/v2/events/holidays.json")).get("data").size()
                == 1)).as("a data set imported on one instance is served by the other").isTrue();
    }

    @Test
    void aDocumentAddedThroughOneInstanceIsFoundThroughTheOther() throws Exception {
        first.admin("POST", "/admin/knowledge/bases", "application/json",
                "{\"id\": \"handbook\", \"name\": \"Handbook\"}");
        HttpResponse<String> added = first.admin("POST", "/admin/knowledge/bases/handbook/documents",
                "application/json", "{\"name\": \"leave.md\", \"text\": \"Paid leave: 25 days a year.\"}");
        assertThat(added.statusCode()).as(added.body()).isEqualTo(201);

        Supplier<String> search = () -> second.admin("POST", "/admin/knowledge/bases/handbook/retrieve",
                "application/json", "{\"query\": \"paid leave\", \"retrieval_model\": {\"search_method\": "
                        + "\"keyword_search\"}}").body();
        assertThat(within(2000, () -> search.get().contains("Paid leave: 25 days a year.")))
                .as(search.get()).isTrue();

        // The other instance applies the document changed, not its whole index: a second document added, then
        // the first one's text replaced through the Knowledge API, each found there.
        assertThat(first.admin("POST", "/admin/knowledge/bases/handbook/documents", "application/json",
                "{\"name\": \"parental.md\", \"text\": \"Parental leave: 16 weeks.\"}").statusCode())
                .isEqualTo(201);
        assertThat(within(2000, () -> search.get().contains("Parental leave: 16 weeks.")))
                .as(search.get()).isTrue();
        String key = TestServer.json(first.admin("POST", "/admin/datasets/keys", null, null)).get("key").asText();
        String document = TestServer.json(added).get("id").asText();
        HttpResponse<String> updated = first.send("POST", "/v1/datasets/handbook/documents/" + document
                + "/update-by-text", "application/json", "{\"text\": \"Paid leave: 30 days a year.\"}", key);
        assertThat(updated.statusCode()).as(updated.body()).isEqualTo(200);
        assertThat(within(2000, () -> search.get().contains("Paid leave: 30 days a year.")))
                .as(search.get()).isTrue();
        assertThat(search.get()).contains("Parental leave: 16 weeks.").doesNotContain("25 days");
    }

    @Test
    void idempotentRetriesOnBothInstancesAnswerOneRunAnAsyncRunIsPolledOnTheOtherAndEachWebhookGoesOnce()
            throws Exception {
        JsonNode slow = first.importApp("slow.yml");
        String key = slow.get("api_key").asText();
        String body = "{\"inputs\": {\"millis\": 300}, \"response_mode\": \"blocking\", \"user\": \"ada\"}";
        List<java.util.concurrent.Future<HttpResponse<String>>> retries = new ArrayList<>();
        java.util.concurrent.ExecutorService clients = java.util.concurrent.Executors.newFixedThreadPool(4);
        try {
            for (int i = 0; i < 4; i++) {
                TestServer server = i % 2 == 0 ? first : second;
                retries.add(clients.submit(() -> TestServer.exchange(SseFrames.post(server.hexaflow.baseUrl(),
                        "/v1/workflows/run", key, body).header("Idempotency-Key", "once"),
                        HttpResponse.BodyHandlers.ofString())));
            }
            java.util.Set<String> runs = new java.util.HashSet<>();
            for (var retry : retries) {
                HttpResponse<String> answer = retry.get();
                assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
                assertThat(json(answer).get("data").get("status").asText()).isEqualTo("succeeded");
                runs.add(json(answer).get("workflow_run_id").asText());
            }
            assertThat(runs).as("one run, whichever instance answered").hasSize(1);
            assertThat(json(second.api(key).get("/v1/workflows/logs?created_by_end_user_session_id=ada")).get("total")
                    .asInt()).isEqualTo(1);
        } finally {
            clients.shutdownNow();
        }

        HttpResponse<String> async = first.api(key).postJson("/v1/workflows/run", Map.of("inputs", Map.of("millis",
                500), "response_mode", "async", "user", "bob"));
        assertThat(async.statusCode()).as(async.body()).isEqualTo(202);
        String asyncRun = json(async).get("workflow_run_id").asText();
        assertThat(within(10_000, () -> json(second.api(key).get("/v1/workflows/run/" + asyncRun)).get("status")
                .asText().equals("succeeded"))).as("polled to its end on the other instance").isTrue();

        try (WebhookDeliveryHttpTest.Receiver receiver = new WebhookDeliveryHttpTest.Receiver()) {
            List<String> called = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                TestServer server = i % 2 == 0 ? first : second;
                called.add(json(server.api(key).postJson("/v1/workflows/run", Map.of("inputs", Map.of("millis", 1),
                        "response_mode", "blocking", "user", "cal", "callback_url", receiver.url("/hook"))))
                        .get("workflow_run_id").asText());
            }
            receiver.awaitRequests("/hook", called.size());
            java.util.Set<String> posted = new java.util.HashSet<>();
            for (int i = 0; i < called.size(); i++) {
                posted.add(TestServer.json(new String(receiver.next().body(), StandardCharsets.UTF_8)).get("id")
                        .asText());
            }
            Thread.sleep(1_500); // both instances poll at least once more: a second post would come now
            assertThat(posted).as("each run's webhook posted").containsExactlyInAnyOrderElementsOf(called);
            assertThat(receiver.count()).as("once, by one of the two").isEqualTo(called.size());
        }
    }

    /** A slow run streamed from {@code server}: its app, its stream's first line (workflow_started) and the rest. */
    private record SlowStream(JsonNode app, JsonNode started, String opening, BufferedReader lines) {
    }

    private static SlowStream slowStream(TestServer server, long millis) throws IOException {
        JsonNode slow = server.importApp("slow.yml");
        HttpResponse<InputStream> stream = server.api(slow.get("api_key").asText()).postStreaming(
                "/v1/workflows/run", run(Map.of("millis", millis), "streaming", "ada"));
        BufferedReader lines = new BufferedReader(new InputStreamReader(stream.body(), StandardCharsets.UTF_8));
        String opening = lines.readLine();
        return new SlowStream(slow, TestServer.json(opening.substring(6)), opening, lines);
    }

    private static List<String> events(String stream) {
        List<String> events = new ArrayList<>();
        for (String frame : stream.split("\n\n")) {
            for (String line : frame.split("\n")) {
                if (line.startsWith("data: ")) {
                    events.add(TestServer.json(line.substring(6)).get("event").asText());
                }
            }
        }
        return events;
    }

    /** Whether {@code condition} holds within {@code millis}, asked every 20 ms. */
    private static boolean within(long millis, java.util.function.BooleanSupplier condition)
            throws InterruptedException {
        long until = System.nanoTime() + millis * 1_000_000;
        while (System.nanoTime() < until) {
            if (condition.getAsBoolean()) {
                return true;
            }
            Thread.sleep(20);
        }
        return condition.getAsBoolean();
    }

    private static void execute(Connection sql, String statement, Object... values) throws SQLException {
        try (PreparedStatement update = sql.prepareStatement(statement)) {
            for (int i = 0; i < values.length; i++) {
                update.setObject(i + 1, values[i]);
            }
            assertThat(update.executeUpdate()).as(statement).isEqualTo(1);
        }
    }

    private static String readAll(BufferedReader lines) throws IOException {
        StringBuilder all = new StringBuilder();
        String line;
        while ((line = lines.readLine()) != null) {
            all.append(line).append('\n');
        }
        return all.toString();
    }
}
