package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.app.api.ServiceApi;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An app's limits on runs at once, through the real server: past the limit a run is refused at once with 429 in
 * Dify's shape (a streaming request too, before any stream starts), another end user still runs under a per-user
 * limit, and a run's end gives its place back.
 */
class ActiveRunsHttpTest {

    @TempDir
    Path dataDir;

    private TestServer server;
    private final List<Started> running = new ArrayList<>();

    @BeforeEach
    void start() {
        server = TestServer.start(dataDir);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void aStreamingRunPastTheAppsLimitIsRefusedAtOnceWithJsonAndAnEndedRunGivesItsPlaceBack() throws Exception {
        JsonNode slow = server.importApp("slow.yml");
        ServiceApi api = server.api(slow.get("api_key").asText());
        limit(slow, "{\"active_runs\": 2}");
        running.add(streaming(api, "ada"));
        running.add(streaming(api, "bob"));

        long asked = System.nanoTime();
        HttpResponse<InputStream> refused = api.postStreaming("/v1/workflows/run", run(Map.of("millis", 20_000),
                "streaming", "eve"));
        double seconds = (System.nanoTime() - asked) / 1e9;
        String body = new String(refused.body().readAllBytes(), StandardCharsets.UTF_8);

        assertThat(refused.statusCode()).as(body).isEqualTo(429);
        assertThat(refused.headers().firstValue("Content-Type").orElse("")).startsWith("application/json");
        assertThat(seconds).isLessThan(2.0);
        JsonNode error = TestServer.json(body);
        assertThat(error.get("code").asText()).isEqualTo("too_many_requests");
        assertThat(error.get("status").asInt()).isEqualTo(429);
        assertThat(error.get("message").asText()).isEqualTo("Too many requests. Please try again later. The current "
                + "maximum concurrent requests allowed for " + slow.get("app_id").asText() + " is 2.");
        // A blocking run is refused the same way.
        HttpResponse<String> blocking = api.postJson("/v1/workflows/run", run(Map.of("millis", 10), "blocking",
                "eve"));
        assertThat(blocking.statusCode()).as(blocking.body()).isEqualTo(429);

        stopAll(api);
        HttpResponse<String> after = untilNot429(api, "eve");
        assertThat(after.statusCode()).as(after.body()).isEqualTo(200);
    }

    @Test
    void anEndUserPastItsOwnLimitIsRefusedWhileAnotherEndUserStillRuns() throws Exception {
        JsonNode slow = server.importApp("slow.yml");
        ServiceApi api = server.api(slow.get("api_key").asText());
        limit(slow, "{\"active_runs\": 3, \"active_runs_per_end_user\": 1}");
        running.add(streaming(api, "ada"));

        HttpResponse<String> again = api.postJson("/v1/workflows/run", run(Map.of("millis", 10), "blocking",
                "ada"));
        assertThat(again.statusCode()).as(again.body()).isEqualTo(429);
        assertThat(TestServer.json(again.body()).get("message").asText()).isEqualTo("Too many requests. Please try "
                + "again later. The current maximum concurrent requests allowed for each end user of "
                + slow.get("app_id").asText() + " is 1.");
        HttpResponse<String> other = api.postJson("/v1/workflows/run", run(Map.of("millis", 10), "blocking",
                "bob"));
        assertThat(other.statusCode()).as(other.body()).isEqualTo(200);

        stopAll(api);
        HttpResponse<String> after = untilNot429(api, "ada");
        assertThat(after.statusCode()).as(after.body()).isEqualTo(200);
    }

    @Test
    void withoutLimitsOfItsOwnAnAppRunsAsManyAsItIsAsked() throws Exception {
        JsonNode slow = server.importApp("slow.yml");
        ServiceApi api = server.api(slow.get("api_key").asText());
        running.add(streaming(api, "ada"));
        running.add(streaming(api, "ada"));
        HttpResponse<String> third = api.postJson("/v1/workflows/run", run(Map.of("millis", 10), "blocking", "ada"));
        assertThat(third.statusCode()).as(third.body()).isEqualTo(200);
        stopAll(api);
    }

    @Test
    void aWebhookCallPastTheLimitIsAnswered429AndOneAfterTheRunEndedStartsAnother() throws Exception {
        JsonNode hook = server.importApp("slow-webhook.yml");
        String appId = hook.get("app_id").asText();
        limit(hook, "{\"active_runs\": 1}");
        HttpResponse<String> trigger = server.admin("GET", "/admin/apps/" + appId + "/triggers/hook", null, null);
        String path = TestServer.json(trigger).get("url_path").asText();

        assertThat(callHook(path, 4_000).statusCode()).isEqualTo(200);
        HttpResponse<String> refused = callHook(path, 10);
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(429);
        assertThat(refused.body()).contains("maximum concurrent requests allowed for " + appId + " is 1");

        // A JavaScript worker may first take seconds to start, or be held by an earlier test's run till it times out.
        long until = System.nanoTime() + 60_000_000_000L;
        HttpResponse<String> later = refused;
        while (later.statusCode() == 429 && System.nanoTime() < until) {
            Thread.sleep(100);
            later = callHook(path, 10);
        }
        assertThat(later.statusCode()).as("admitted once the first run ended").isEqualTo(200);
    }

    private HttpResponse<String> callHook(String path, int millis) {
        return TestServer.exchange(HttpRequest.newBuilder(URI.create(server.baseUrl() + path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"millis\": " + millis + "}")),
                HttpResponse.BodyHandlers.ofString());
    }

    private void limit(JsonNode app, String limits) {
        HttpResponse<String> set = server.admin("PUT", "/admin/apps/" + app.get("app_id").asText() + "/limits",
                "application/json", limits);
        assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
    }

    /** A slow streaming run of {@code user}, once it started (its first event read). */
    static Started streaming(ServiceApi api, String user) throws IOException {
        HttpResponse<InputStream> stream = api.postStreaming("/v1/workflows/run", run(Map.of("millis", 20_000),
                "streaming", user));
        assertThat(stream.statusCode()).isEqualTo(200);
        BufferedReader lines = new BufferedReader(new InputStreamReader(stream.body(), StandardCharsets.UTF_8));
        String opening = lines.readLine();
        return new Started(user, TestServer.json(opening.substring(6)).get("task_id").asText(), lines);
    }

    /** Stops the slow runs and reads their streams to the end. */
    private void stopAll(ServiceApi api) throws IOException {
        for (Started started : running) {
            api.postJson("/v1/workflows/tasks/" + started.taskId() + "/stop", Map.of("user", started.user()));
            while (started.lines().readLine() != null) {
                // to the stream's end
            }
        }
        running.clear();
    }

    /** A quick run of {@code user}, asked until it is no longer refused or 30 s passed. */
    static HttpResponse<String> untilNot429(ServiceApi api, String user) throws InterruptedException {
        long until = System.nanoTime() + 30_000_000_000L;
        HttpResponse<String> answer;
        do {
            answer = api.postJson("/v1/workflows/run", run(Map.of("millis", 10), "blocking", user));
            if (answer.statusCode() != 429) {
                return answer;
            }
            Thread.sleep(50);
        } while (System.nanoTime() < until);
        return answer;
    }

    record Started(String user, String taskId, BufferedReader lines) {
    }
}
