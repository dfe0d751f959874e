package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.app.api.ServiceApi;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code "response_mode": "async"}: answered at once with 202 and the run's ids; the run goes on, is kept like
 * any other, and is followed by polling its detail or stopped by its task.
 */
class AsyncRunHttpTest {

    @TempDir
    static Path dataDir;
    static TestServer server;
    static ServiceApi api;
    static String siteCode;

    @BeforeAll
    static void start() {
        server = TestServer.start(dataDir);
        JsonNode imported = server.importApp("slow.yml");
        api = server.api(imported.get("api_key").asText());
        siteCode = imported.get("site_code").asText();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    static JsonNode startAsync(int millis, String user) {
        HttpResponse<String> answer = api.postJson("/v1/workflows/run", Map.of("inputs", Map.of("millis", millis),
                "response_mode", "async", "user", user));
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(202);
        return json(answer);
    }

    static JsonNode pollUntilEnded(String runId) throws InterruptedException {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (System.nanoTime() < deadline) {
            JsonNode run = json(api.get("/v1/workflows/run/" + runId));
            if (!run.get("status").asText().equals("running")) {
                return run;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("run " + runId + " did not end");
    }

    @Test
    void anAsyncRunIsAnsweredBeforeItEndsAndIsFollowedByItsDetailToItsEnd() throws Exception {
        long started = System.nanoTime();
        JsonNode accepted = startAsync(1500, "ada");
        double answeredIn = (System.nanoTime() - started) / 1e9;

        assertThat(answeredIn).as("answered without waiting for the 1.5 s run").isLessThan(1.0);
        assertThat(accepted.fieldNames()).toIterable().containsExactly("task_id", "workflow_run_id");
        String runId = accepted.get("workflow_run_id").asText();
        assertThat(json(api.get("/v1/workflows/run/" + runId)).get("status").asText()).isEqualTo("running");
        JsonNode ended = pollUntilEnded(runId);
        assertThat(ended.get("status").asText()).isEqualTo("succeeded");
        assertThat(ended.get("outputs").get("done").asBoolean()).isTrue();
        assertThat(json(api.get("/v1/workflows/logs?limit=100")).get("data").findValuesAsText("id"))
                .isNotEmpty();
    }

    /**
     * A blocking run nobody listens to is held in memory and kept at its end in one write; one that goes on past
     * the hold (a fifth of a second) is kept as it is then, and shows in the logs, running, long before it answers.
     */
    @Test
    void aLongBlockingRunShowsInTheLogsRunningLongBeforeItEndsAndEndedOnceItAnswers() throws Exception {
        java.util.concurrent.CompletableFuture<HttpResponse<String>> answer = java.util.concurrent.CompletableFuture
                .supplyAsync(() -> api.postJson("/v1/workflows/run", Map.of("inputs", Map.of("millis", 6000),
                        "response_mode", "blocking", "user", "held")));
        long started = System.nanoTime();
        String running = null;
        while (running == null && System.nanoTime() - started < 5_000_000_000L) {
            JsonNode page = json(api.get("/v1/workflows/logs?status=running&keyword=held&limit=10"));
            if (page.get("data").size() > 0) {
                running = page.get("data").get(0).get("workflow_run").get("id").asText();
            }
            Thread.sleep(50);
        }
        double seenAfter = (System.nanoTime() - started) / 1e9;
        assertThat(running).as("kept running before its 6 s end").isNotNull();
        assertThat(answer).as("seen after %.1f s, before the run answered", seenAfter).isNotDone();
        assertThat(json(api.get("/v1/workflows/run/" + running)).get("status").asText()).isEqualTo("running");

        JsonNode ended = json(answer.get(30, java.util.concurrent.TimeUnit.SECONDS));
        assertThat(ended.get("workflow_run_id").asText()).isEqualTo(running);
        assertThat(ended.get("data").get("status").asText()).isEqualTo("succeeded");
        assertThat(json(api.get("/v1/workflows/run/" + running)).get("status").asText()).isEqualTo("succeeded");
        assertThat(api.get("/v1/workflows/run/" + running + "/events").body()).as("its events, kept in two parts")
                .contains("workflow_started", "node_started", "workflow_finished");
    }

    @Test
    void anAsyncRunIsStoppedByItsTaskAndEndsStopped() throws Exception {
        JsonNode accepted = startAsync(10_000, "bob");

        HttpResponse<String> stop = api.postJson("/v1/workflows/tasks/" + accepted.get("task_id").asText()
                + "/stop", Map.of("user", "bob"));

        assertThat(json(stop).get("result").asText()).isEqualTo("success");
        JsonNode ended = pollUntilEnded(accepted.get("workflow_run_id").asText());
        assertThat(ended.get("status").asText()).isEqualTo("stopped");
    }

    @Test
    void aWebPagesTokenMayRunButNotAsyncForItCouldNotFollowTheRunAndWouldEscapeTheRequestCap() {
        TestServer.PageToken token = server.pageToken(siteCode, null);
        ServiceApi page = api.withKey(token.token());

        HttpResponse<String> async = page.postJson("/v1/workflows/run", Map.of("inputs", Map.of("millis", 1),
                "response_mode", "async", "user", token.user()));
        HttpResponse<String> blocking = page.postJson("/v1/workflows/run", Map.of("inputs", Map.of("millis", 1),
                "response_mode", "blocking", "user", token.user()));

        assertThat(async.statusCode()).as(async.body()).isEqualTo(403);
        assertThat(json(async).get("code").asText()).isEqualTo("forbidden");
        assertThat(blocking.statusCode()).isEqualTo(200);
    }

    @Test
    void anAsyncRunIsCheckedBeforeItStartsLikeAnyOther() {
        HttpResponse<String> noUser = api.postJson("/v1/workflows/run", Map.of("inputs", Map.of(),
                "response_mode", "async"));

        assertThat(noUser.statusCode()).isEqualTo(400);
        assertThat(json(noUser).get("message").asText()).isEqualTo("Arg user must be provided.");
    }
}
