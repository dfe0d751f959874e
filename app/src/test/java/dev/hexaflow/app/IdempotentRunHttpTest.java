package dev.hexaflow.app;

import static dev.hexaflow.app.TestServer.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.app.wiring.Storage;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An {@code Idempotency-Key} on a run request: the same key and body from the same app and user answer the same
 * run (blocking: its result, streaming: its events, async: the same ids), racing retries make one run, another
 * body is a conflict, and the key holds across a restart.
 */
class IdempotentRunHttpTest {

    @TempDir
    Path dataDir;
    TestServer server;
    String key;

    String appId;

    @BeforeEach
    void start() {
        server = TestServer.start(dataDir);
        JsonNode imported = server.importApp("slow.yml");
        key = imported.get("api_key").asText();
        appId = imported.get("app_id").asText();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private static String body(int millis, String mode, String user) {
        return "{\"inputs\": {\"millis\": " + millis + "}, \"response_mode\": \"" + mode + "\", \"user\": \""
                + user + "\"}";
    }

    private HttpResponse<String> run(String idempotencyKey, String body) {
        return TestServer.exchange(SseFrames.post(server.hexaflow.baseUrl(), "/v1/workflows/run", key, body)
                .header("Idempotency-Key", idempotencyKey), HttpResponse.BodyHandlers.ofString());
    }

    private long runsOf(String user) {
        return json(server.api(key).get("/v1/workflows/logs?created_by_end_user_session_id=" + user)).get("total")
                .asLong();
    }

    @Test
    void eightRacingRetriesWithOneKeyMakeOneRunAndAllAnswerItsResult() throws Exception {
        ExecutorService clients = Executors.newFixedThreadPool(8);
        CountDownLatch go = new CountDownLatch(1);
        try {
            List<Future<HttpResponse<String>>> answers = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                answers.add(clients.submit(() -> {
                    go.await();
                    return run("order-42", body(300, "blocking", "ada"));
                }));
            }
            go.countDown();
            List<JsonNode> bodies = new ArrayList<>();
            for (Future<HttpResponse<String>> answer : answers) {
                HttpResponse<String> response = answer.get();
                assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
                bodies.add(json(response));
            }

            Set<String> runIds = bodies.stream().map(b -> b.get("workflow_run_id").asText())
                    .collect(Collectors.toSet());
            assertThat(runIds).hasSize(1);
            assertThat(bodies).allMatch(b -> b.get("data").get("status").asText().equals("succeeded"));
            assertThat(bodies.stream().map(JsonNode::toString).collect(Collectors.toSet())).hasSize(1);
            assertThat(runsOf("ada")).isEqualTo(1);
        } finally {
            clients.shutdownNow();
        }
    }

    @Test
    void theSameKeyWithAnotherBodyIsAConflictInDifysShapeAndKeysArePerUser() {
        HttpResponse<String> first = run("k-1", body(10, "blocking", "ada"));

        HttpResponse<String> otherBody = run("k-1", body(11, "blocking", "ada"));
        HttpResponse<String> otherUser = run("k-1", body(11, "blocking", "bob"));

        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(otherBody.statusCode()).isEqualTo(409);
        assertThat(json(otherBody).get("code").asText()).isEqualTo("idempotency_key_conflict");
        assertThat(json(otherBody).get("status").asInt()).isEqualTo(409);
        assertThat(json(otherBody).get("message").asText()).contains("k-1");
        assertThat(otherUser.statusCode()).isEqualTo(200);
        assertThat(json(otherUser).get("workflow_run_id").asText())
                .isNotEqualTo(json(first).get("workflow_run_id").asText());
    }

    @Test
    void aKeyLongerThan255CharactersOrBlankIsRefused() {
        HttpResponse<String> tooLong = run("k".repeat(256), body(10, "blocking", "ada"));
        HttpResponse<String> longest = run("k".repeat(255), body(10, "blocking", "ada"));

        assertThat(tooLong.statusCode()).isEqualTo(400);
        assertThat(json(tooLong).get("code").asText()).isEqualTo("invalid_param");
        assertThat(longest.statusCode()).isEqualTo(200);
    }

    @Test
    void anAsyncRetryAnswersTheSameIdsAndAStreamingRetryReplaysTheRunsEventsFromTheFirst() {
        HttpResponse<String> accepted = run("async-1", body(600, "async", "ada"));
        HttpResponse<String> again = run("async-1", body(600, "async", "ada"));
        String runId = json(accepted).get("workflow_run_id").asText();

        HttpResponse<InputStream> streamed = SseFrames.open(SseFrames.post(server.hexaflow.baseUrl(),
                "/v1/workflows/run", key, body(400, "streaming", "ada")).header("Idempotency-Key", "stream-1"));
        List<String> original = SseFrames.all(streamed.body());
        HttpResponse<InputStream> retried = SseFrames.open(SseFrames.post(server.hexaflow.baseUrl(),
                "/v1/workflows/run", key, body(400, "streaming", "ada")).header("Idempotency-Key", "stream-1"));
        List<String> replayed = SseFrames.all(retried.body());

        assertThat(accepted.statusCode()).isEqualTo(202);
        assertThat(again.statusCode()).isEqualTo(202);
        assertThat(again.body()).isEqualTo(accepted.body());
        assertThat(retried.statusCode()).isEqualTo(200);
        assertThat(replayed).hasSize(original.size());
        for (int i = 0; i < original.size(); i++) {
            assertThat(replayed.get(i)).isEqualTo("id: " + (i + 1) + "\n" + original.get(i));
        }
        assertThat(json(server.api(key).get("/v1/workflows/run/" + runId)).get("status").asText())
                .isIn("running", "succeeded");
    }

    @Test
    void aKeyWhoseRunNeverStartedIsFreeAgainAndTheRetryStartsTheRun() {
        server.close();
        // What a server stopped between claiming a key and keeping its run's start leaves: a claim of a run that
        // does not exist, made longer ago than any start takes.
        try (Storage storage = Storage.connect(dataDir)) {
            storage.migrate();
            storage.jdbi().useHandle(handle -> handle.createUpdate("INSERT INTO idempotency_key (app_id, end_user, "
                    + "idem_key, fingerprint, run_id, task_id, created_at) VALUES (:app, 'ada', 'orphan', 'fp', "
                    + "'never-kept', 'never-kept-task', :at)").bind("app", appId)
                    .bind("at", java.time.Instant.now().getEpochSecond() - 120).execute());
        }
        server = TestServer.start(dataDir);

        HttpResponse<String> retried = run("orphan", body(10, "blocking", "ada"));
        HttpResponse<String> again = run("orphan", body(10, "blocking", "ada"));

        assertThat(retried.statusCode()).as(retried.body()).isEqualTo(200);
        assertThat(json(retried.body()).get("data").get("status").asText()).isEqualTo("succeeded");
        assertThat(again.body()).as("the key now names the run it started").isEqualTo(retried.body());
        assertThat(runsOf("ada")).isEqualTo(1);
    }

    @Test
    void aKeyHoldsAcrossARestartOnTheSameData() {
        HttpResponse<String> first = run("restart-1", body(10, "blocking", "ada"));
        server.close();

        server = TestServer.start(dataDir);
        HttpResponse<String> after = run("restart-1", body(10, "blocking", "ada"));

        assertThat(after.statusCode()).isEqualTo(200);
        assertThat(after.body()).isEqualTo(first.body());
        assertThat(runsOf("ada")).isEqualTo(1);
    }
}
