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
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /v1/workflows/run/{id}/events}: a run's frames as its stream had them, each with its number as
 * {@code id:}, from the first or after {@code Last-Event-ID} / {@code ?after=}, then live to the run's end; kept
 * in the database, so that they replay after a restart, and up to what was kept after a crash.
 */
class RunEventsHttpTest {

    @TempDir
    Path dataDir;
    TestServer server;
    String key;

    private void start() {
        server = TestServer.start(dataDir);
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private String importSlow() {
        key = server.importApp("slow.yml").get("api_key").asText();
        return key;
    }

    private HttpResponse<InputStream> streamRun(int millis) {
        return SseFrames.open(SseFrames.post(server.hexaflow.baseUrl(), "/v1/workflows/run", key,
                "{\"inputs\": {\"millis\": " + millis + "}, \"response_mode\": \"streaming\", \"user\": \"ada\"}"));
    }

    private HttpResponse<InputStream> events(String runId, String query, String lastEventId) {
        var request = SseFrames.get(server.hexaflow.baseUrl(), "/v1/workflows/run/" + runId + "/events" + query,
                key);
        if (lastEventId != null) {
            request.header("Last-Event-ID", lastEventId);
        }
        return SseFrames.open(request);
    }

    private static String runIdOf(String frame) {
        return json(SseFrames.data(frame).substring("data: ".length())).get("workflow_run_id").asText();
    }

    private static List<String> numbered(List<String> dataFrames, int from) {
        return IntStream.range(0, dataFrames.size()).mapToObj(i -> "id: " + (from + i) + "\n" + dataFrames.get(i))
                .toList();
    }

    private String status(String runId) {
        return json(server.api(key).get("/v1/workflows/run/" + runId)).get("status").asText();
    }

    @Test
    void aFinishedRunReplaysItsStreamsFramesByteForByteEachWithItsNumberThenTheStreamCloses() {
        start();
        importSlow();
        List<String> streamed = SseFrames.all(streamRun(10).body());
        String runId = runIdOf(streamed.get(0));

        HttpResponse<InputStream> replay = events(runId, "", null);
        List<String> replayed = SseFrames.all(replay.body());
        List<String> afterThree = SseFrames.all(events(runId, "?after=3", null).body());

        assertThat(replay.statusCode()).isEqualTo(200);
        assertThat(replay.headers().firstValue("Content-Type")).hasValueSatisfying(type ->
                assertThat(type).startsWith("text/event-stream"));
        assertThat(streamed).hasSize(9).noneMatch(frame -> frame.startsWith("id:"));
        assertThat(replayed).containsExactlyElementsOf(numbered(streamed, 1));
        assertThat(afterThree).containsExactlyElementsOf(replayed.subList(3, replayed.size()));
    }

    /** A frame's data with what differs from run to run (ids, times), at any depth, left out. */
    private static JsonNode comparable(String frame) {
        JsonNode data = json(SseFrames.data(frame).substring("data: ".length()));
        strip(data);
        return data;
    }

    private static void strip(JsonNode node) {
        if (node instanceof com.fasterxml.jackson.databind.node.ObjectNode object) {
            object.remove(List.of("workflow_run_id", "task_id", "id", "created_at", "finished_at", "elapsed_time",
                    "sys.workflow_run_id", "sys.timestamp"));
        }
        node.forEach(RunEventsHttpTest::strip);
    }

    /**
     * A blocking run is kept with references to its rows instead of copies of its frames; its replay makes the
     * frames a streamed run of the same app and inputs sends, in the same order, numbered from 1, and its
     * node_finished frames are its node executions as the node-executions route shows them.
     */
    @Test
    void aBlockingRunsEventsReplayAsTheFramesAStreamedRunOfTheSameInputsSends() {
        start();
        importSlow();
        List<String> streamed = SseFrames.all(streamRun(10).body());
        JsonNode blocking = json(server.api(key).postJson("/v1/workflows/run", java.util.Map.of("inputs",
                java.util.Map.of("millis", 10), "response_mode", "blocking", "user", "ada")));
        String runId = blocking.get("workflow_run_id").asText();

        List<String> replayed = SseFrames.all(events(runId, "", null).body());

        assertThat(replayed).hasSameSizeAs(streamed);
        for (int i = 0; i < replayed.size(); i++) {
            assertThat(replayed.get(i)).startsWith("id: " + (i + 1) + "\n");
            assertThat(comparable(replayed.get(i))).as("frame %d", i + 1).isEqualTo(comparable(streamed.get(i)));
        }
        JsonNode last = json(SseFrames.data(replayed.get(replayed.size() - 1)).substring("data: ".length()));
        assertThat(last.get("event").asText()).isEqualTo("workflow_finished");
        assertThat(last.get("workflow_run_id").asText()).isEqualTo(runId);
        assertThat(last.get("task_id").asText()).isEqualTo(blocking.get("task_id").asText());
        assertThat(last.get("data")).isEqualTo(blocking.get("data"));
        JsonNode executions = json(server.api(key).get("/v1/workflows/run/" + runId + "/node-executions"))
                .get("data");
        List<JsonNode> finished = replayed.stream().map(frame -> json(SseFrames.data(frame).substring(6)))
                .filter(frame -> frame.get("event").asText().equals("node_finished")).map(frame -> frame.get("data"))
                .toList();
        assertThat(finished).containsExactlyElementsOf(executions);
        assertThat(SseFrames.all(events(runId, "?after=3", null).body()))
                .containsExactlyElementsOf(replayed.subList(3, replayed.size()));
    }

    /**
     * A blocking run's text chunks are kept as short references holding their text: the replay gives back each
     * chunk as the stream sent it, whatever the text holds (quotes, a backslash, line breaks, characters JSON may
     * leave raw or must escape).
     */
    @Test
    void aBlockingRunsTextChunksReplayAsTheStreamSentThemWhateverTheirText() {
        start();
        key = server.importApp("echo.yml").get("api_key").asText();
        String text = "a \"quoted\" back\\slash,\nnew line\r\ttab \u2028 é 😀";
        List<String> streamed = SseFrames.all(SseFrames.open(SseFrames.post(server.hexaflow.baseUrl(),
                "/v1/workflows/run", key, new com.fasterxml.jackson.databind.ObjectMapper().valueToTree(java.util.Map.of(
                        "inputs", java.util.Map.of("query", text), "response_mode", "streaming", "user", "ada"))
                        .toString()))
                .body());
        String runId = json(server.api(key).postJson("/v1/workflows/run", java.util.Map.of("inputs",
                java.util.Map.of("query", text), "response_mode", "blocking", "user", "ada")))
                .get("workflow_run_id").asText();

        List<String> replayed = SseFrames.all(events(runId, "", null).body());

        List<JsonNode> chunks = replayed.stream().map(RunEventsHttpTest::comparable)
                .filter(frame -> frame.get("event").asText().equals("text_chunk")).toList();
        assertThat(chunks).as("the template's text streams in chunks").isNotEmpty();
        assertThat(chunks.stream().map(chunk -> chunk.get("data").get("text").asText())
                .reduce("", String::concat)).contains(text);
        assertThat(replayed).hasSameSizeAs(streamed);
        for (int i = 0; i < replayed.size(); i++) {
            assertThat(comparable(replayed.get(i))).as("frame %d", i + 1).isEqualTo(comparable(streamed.get(i)));
        }
    }

    /** A blocking run followed while it runs: kept in part at its hold's end, then live; every frame once. */
    @Test
    void aLongBlockingRunFollowedWhileItRunsTellsEveryFrameOnceInOrder() throws Exception {
        start();
        importSlow();
        java.util.concurrent.CompletableFuture<HttpResponse<String>> answer = java.util.concurrent
                .CompletableFuture.supplyAsync(() -> server.api(key).postJson("/v1/workflows/run", java.util.Map.of(
                        "inputs", java.util.Map.of("millis", 2500), "response_mode", "blocking", "user", "ada")));
        String runId = null;
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (runId == null && System.nanoTime() < deadline) {
            JsonNode page = json(server.api(key).get("/v1/workflows/logs?status=running"));
            if (page.get("data").size() > 0) {
                runId = page.get("data").get(0).get("workflow_run").get("id").asText();
            }
            Thread.sleep(20);
        }
        assertThat(runId).as("kept running past its hold").isNotNull();

        List<String> followed = SseFrames.all(events(runId, "", null).body());

        JsonNode ended = json(answer.get(30, java.util.concurrent.TimeUnit.SECONDS));
        assertThat(ended.get("data").get("status").asText()).isEqualTo("succeeded");
        assertThat(followed).hasSize(9);
        for (int i = 0; i < followed.size(); i++) {
            assertThat(followed.get(i)).startsWith("id: " + (i + 1) + "\n");
        }
        assertThat(followed.get(8)).contains("\"workflow_finished\"");
        assertThat(followed).containsExactlyElementsOf(SseFrames.all(events(runId, "", null).body()));
    }

    @Test
    void aStreamCutMidRunAndResumedWithLastEventIdLosesNoFrameAndRepeatsNone() throws Exception {
        start();
        importSlow();
        HttpResponse<InputStream> first = streamRun(1500);
        // Up to the slow node's start: the run goes on for a second and a half after the cut.
        List<String> before = SseFrames.until(first.body(), frame -> frame.contains("\"node_started\"")
                && frame.contains("\"node_id\":\"wait\""));
        first.body().close();
        String runId = runIdOf(before.get(0));
        assertThat(status(runId)).isEqualTo("running");

        HttpResponse<InputStream> resumed = events(runId, "", String.valueOf(before.size()));
        List<String> rest = SseFrames.all(resumed.body());

        assertThat(status(runId)).isEqualTo("succeeded");
        List<String> whole = new ArrayList<>(numbered(before, 1));
        whole.addAll(rest);
        assertThat(rest).first().asString().startsWith("id: " + (before.size() + 1) + "\n");
        assertThat(whole).containsExactlyElementsOf(SseFrames.all(events(runId, "", null).body()));
        assertThat(whole).hasSize(9).last().asString().contains("\"workflow_finished\"");
    }

    @Test
    void aFollowerOfARunningRunHearsItLiveToItsEnd() {
        start();
        importSlow();
        JsonNode accepted = json(server.api(key).postJson("/v1/workflows/run", java.util.Map.of("inputs",
                java.util.Map.of("millis", 800), "response_mode", "async", "user", "ada")));
        String runId = accepted.get("workflow_run_id").asText();
        assertThat(status(runId)).isEqualTo("running");

        List<String> followed = SseFrames.all(events(runId, "", null).body());

        assertThat(followed).hasSize(9);
        assertThat(followed.get(0)).startsWith("id: 1\ndata: {\"event\":\"workflow_started\"");
        assertThat(followed.get(8)).startsWith("id: 9\ndata: {\"event\":\"workflow_finished\"");
        assertThat(status(runId)).isEqualTo("succeeded");
    }

    @Test
    void anUnknownRunOrAnotherAppsRunIsNotFoundAndABadLastEventIdIsRefusedInDifysShape() {
        start();
        importSlow();
        String runId = runIdOf(SseFrames.all(streamRun(10).body()).get(0));
        String otherKey = server.importApp("slow.yml").get("api_key").asText();

        HttpResponse<String> unknown = server.api(key).get("/v1/workflows/run/no-such-run/events");
        HttpResponse<String> otherApps = server.api(otherKey).get("/v1/workflows/run/" + runId + "/events");
        HttpResponse<String> badHeader = TestServer.exchange(SseFrames.get(server.hexaflow.baseUrl(),
                "/v1/workflows/run/" + runId + "/events", key).header("Last-Event-ID", "abc"),
                HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> negative = server.api(key).get("/v1/workflows/run/" + runId + "/events?after=-1");

        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(json(unknown).get("code").asText()).isEqualTo("not_found");
        assertThat(otherApps.statusCode()).isEqualTo(404);
        assertThat(badHeader.statusCode()).isEqualTo(400);
        assertThat(json(badHeader).get("code").asText()).isEqualTo("invalid_param");
        assertThat(json(badHeader).get("status").asInt()).isEqualTo(400);
        assertThat(json(badHeader).get("message").asText()).contains("Last-Event-ID");
        assertThat(negative.statusCode()).isEqualTo(400);
    }

    @Test
    void aRunReplaysAfterARestartAndARunCutByACrashReplaysWhatWasKeptThenItsFailedEnd() {
        start();
        importSlow();
        List<String> finished = SseFrames.all(streamRun(10).body());
        String finishedId = runIdOf(finished.get(0));
        List<String> cut = SseFrames.all(streamRun(10).body());
        String cutId = runIdOf(cut.get(0));
        server.close();
        server = null;
        crashedAfterThreeEvents(cutId);

        start();
        List<String> replayed = SseFrames.all(events(finishedId, "", null).body());
        List<String> upToTheCrash = SseFrames.all(events(cutId, "", null).body());

        assertThat(replayed).containsExactlyElementsOf(numbered(finished, 1));
        assertThat(upToTheCrash.subList(0, 3)).containsExactlyElementsOf(numbered(cut.subList(0, 3), 1));
        // The crash kept no end: the replay ends with one made from the run's row, failed by the restart.
        assertThat(upToTheCrash).hasSize(4);
        assertThat(upToTheCrash.get(3)).startsWith("id: 4\ndata: {\"event\":\"workflow_finished\"")
                .contains("\"status\":\"failed\"").contains("The server stopped during the run.");
        assertThat(status(cutId)).isEqualTo("failed");
        // A client that was told that end and comes back is past the last event: nothing more.
        assertThat(SseFrames.all(events(cutId, "", "4").body())).isEmpty();
        assertThat(SseFrames.all(events(cutId, "?after=3", null).body())).containsExactly(upToTheCrash.get(3));
    }

    /** What a kill -9 after a run's third event was kept leaves: the run running, its later events not kept. */
    private void crashedAfterThreeEvents(String runId) {
        try (Storage storage = Storage.connect(dataDir)) {
            storage.migrate();
            storage.jdbi().useHandle(handle -> {
                handle.createUpdate("UPDATE run_count SET n = n - 1 WHERE status = 'succeeded' AND app_id = "
                        + "(SELECT app_id FROM workflow_run WHERE id = :id)").bind("id", runId).execute();
                handle.createUpdate("MERGE INTO run_count (app_id, status, n) KEY (app_id, status) SELECT app_id, "
                        + "'running', 1 FROM workflow_run WHERE id = :id").bind("id", runId).execute();
                handle.createUpdate("UPDATE workflow_run SET status = 'running', finished_at = NULL WHERE id = :id")
                        .bind("id", runId).execute();
                // The writer's batches are all or nothing: the crash kept the batches up to the third event.
                List<String> kept = handle.createQuery("SELECT data FROM run_event WHERE run_id = :id ORDER BY seq")
                        .bind("id", runId).mapTo(String.class).stream()
                        .flatMap(data -> java.util.Arrays.stream(data.split("\n"))).limit(3).toList();
                handle.createUpdate("DELETE FROM run_event WHERE run_id = :id").bind("id", runId).execute();
                handle.createUpdate("INSERT INTO run_event (run_id, seq, first_seq, data) VALUES (:id, 3, 1, :data)")
                        .bind("id", runId).bind("data", String.join("\n", kept)).execute();
            });
        }
    }
}
