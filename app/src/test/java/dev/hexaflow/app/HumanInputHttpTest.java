package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.app.api.ServiceApi;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run that waits for a person, over Dify's Service API on the real server and store: it streams to its pause,
 * its form opens by token and refuses a bad answer (the run still paused), the first answer wins and the run goes
 * on, followed over {@code /v1/workflow/{id}/events?continue_on_pause=true}; and a paused run outlives its server.
 */
class HumanInputHttpTest {

    @TempDir
    Path dataDir;

    @Test
    void aRunPausesForItsFormAndGoesOnWhenTheFormIsAnswered() throws Exception {
        try (TestServer server = TestServer.start(dataDir)) {
            ServiceApi api = server.api(server.importApp("review.yml").get("api_key").asText());
            List<JsonNode> frames = stream(api, "the plan");
            assertThat(frames).extracting(frame -> frame.get("event").asText())
                    .contains("workflow_started", "human_input_required").last().isEqualTo("workflow_paused");
            JsonNode required = frames.stream().filter(frame -> frame.get("event").asText()
                    .equals("human_input_required")).findFirst().orElseThrow().get("data");
            assertThat(required.get("form_content").asText()).isEqualTo(
                    "Please review: the plan\n\nFeedback: {{#$output.feedback#}}");
            assertThat(required.get("resolved_default_values").get("feedback").asText()).isEqualTo("looks fine");
            String token = required.get("form_token").asText();
            String runId = frames.get(0).get("workflow_run_id").asText();
            JsonNode paused = frames.get(frames.size() - 1).get("data");
            assertThat(paused.get("paused_nodes").get(0).asText()).isEqualTo("review");
            assertThat(paused.get("reasons").get(0).get("form_token").asText()).isEqualTo(token);
            assertThat(json(api.get("/v1/workflows/run/" + runId)).get("status").asText()).isEqualTo("paused");

            JsonNode form = json(api.get("/v1/form/human_input/" + token));
            assertThat(form.get("user_actions").findValuesAsText("id")).containsExactly("approve", "reject");
            assertRefused(api.postJson("/v1/form/human_input/" + token, answer("nope", "ok", "low")), 400,
                    "invalid_form_data", "Invalid action: nope");
            assertRefused(api.postJson("/v1/form/human_input/" + token, Map.of("action", "approve", "user", "ada",
                    "inputs", Map.of("feedback", "ok"))), 400, "invalid_form_data", "Missing required inputs: priority");
            assertRefused(api.postJson("/v1/form/human_input/" + token, answer("approve", "ok", "urgent")), 400,
                    "invalid_form_data", "Invalid value for select input 'priority': urgent");
            assertRefused(api.get("/v1/workflow/" + runId + "/events?user=someone-else"), 404, "not_found", null);
            assertThat(json(api.get("/v1/workflows/run/" + runId)).get("status").asText()).isEqualTo("paused");
            assertThat(json(api.get("/v1/workflows/paused")).get("data").findValuesAsText("workflow_run_id"))
                    .containsExactly(runId);
            assertThat(json(server.admin("GET", "/admin/forms", null, null)).get("data")
                    .findValuesAsText("form_token")).containsExactly(token);
            assertThat(json(server.admin("GET", "/admin/runs/" + runId, null, null)).get("forms").get(0)
                    .get("node_id").asText()).isEqualTo("review");

            CompletableFuture<List<JsonNode>> followed = CompletableFuture.supplyAsync(() -> frames(api.getStreaming(
                    "/v1/workflow/" + runId + "/events?user=ada&continue_on_pause=true")));
            Thread.sleep(300); // the follower is attached before the answer
            HttpResponse<String> answered = api.postJson("/v1/form/human_input/" + token,
                    answer("approve", "ship it", "high"));
            assertThat(answered.statusCode()).as(answered.body()).isEqualTo(200);
            List<JsonNode> after = followed.get(30, TimeUnit.SECONDS);
            assertThat(after).extracting(frame -> frame.get("event").asText())
                    .contains("human_input_form_filled").last().isEqualTo("workflow_finished");
            assertThat(after.get(0).get("data").get("reason").asText()).isEqualTo("resumption");
            JsonNode finished = after.get(after.size() - 1).get("data");
            assertThat(finished.get("status").asText()).isEqualTo("succeeded");
            assertThat(finished.get("outputs").get("feedback").asText()).isEqualTo("ship it");

            // The same answer again is the one given; another is refused, the form being used.
            assertThat(api.postJson("/v1/form/human_input/" + token, answer("approve", "ship it", "high"))
                    .statusCode()).isEqualTo(200);
            assertRefused(api.postJson("/v1/form/human_input/" + token, answer("reject", "no", "low")), 412,
                    "human_input_form_submitted", null);
            List<JsonNode> endAlone = frames(api.getStreaming("/v1/workflow/" + runId + "/events?user=ada"));
            assertThat(endAlone).extracting(frame -> frame.get("event").asText()).containsExactly("workflow_finished");
        }
    }

    @Test
    void aBlockingRunAnswersItsPauseAndOfTwoAnswersAtOnceOneWins() throws Exception {
        try (TestServer server = TestServer.start(dataDir)) {
            ServiceApi api = server.api(server.importApp("review.yml").get("api_key").asText());
            JsonNode blocking = json(api.postJson("/v1/workflows/run", Map.of("inputs", Map.of("draft", "v1"),
                    "response_mode", "blocking", "user", "ada")));
            assertThat(blocking.get("data").get("status").asText()).isEqualTo("paused");
            String token = blocking.get("data").get("reasons").get(0).get("form_token").asText();
            String runId = blocking.get("workflow_run_id").asText();

            List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
            for (String action : List.of("approve", "reject")) {
                answers.add(CompletableFuture.supplyAsync(() -> api.postJson("/v1/form/human_input/" + token,
                        answer(action, action, "low"))));
            }
            List<Integer> statuses = answers.stream().map(CompletableFuture::join).map(HttpResponse::statusCode)
                    .sorted().toList();
            assertThat(statuses).containsExactly(200, 412);
            JsonNode run = waitForEnd(api, runId);
            assertThat(run.get("status").asText()).isEqualTo("succeeded");
            assertThat(run.get("outputs").size()).as("one branch's outputs").isEqualTo(run.get("outputs")
                    .has("shown") ? 1 : 2);
        }
    }

    @Test
    void aPausedRunOutlivesItsServerAndGoesOnInTheNextOne() throws Exception {
        String key;
        String token;
        String runId;
        try (TestServer server = TestServer.start(dataDir)) {
            key = server.importApp("review.yml").get("api_key").asText();
            JsonNode blocking = json(server.api(key).postJson("/v1/workflows/run", Map.of("inputs",
                    Map.of("draft", "v9"), "response_mode", "blocking", "user", "ada")));
            token = blocking.get("data").get("reasons").get(0).get("form_token").asText();
            runId = blocking.get("workflow_run_id").asText();
        }
        try (TestServer again = TestServer.start(dataDir)) {
            ServiceApi api = again.api(key);
            assertThat(json(api.get("/v1/workflows/run/" + runId)).get("status").asText()).isEqualTo("paused");
            assertThat(json(api.get("/v1/form/human_input/" + token)).get("form_content").asText())
                    .startsWith("Please review: v9");
            assertThat(api.postJson("/v1/form/human_input/" + token, answer("reject", "later", "low")).statusCode())
                    .isEqualTo(200);
            JsonNode run = waitForEnd(api, runId);
            assertThat(run.get("outputs").get("shown").asText()).isEqualTo("Please review: v9\n\nFeedback: later");
        }
    }

    private static Map<String, Object> answer(String action, String feedback, String priority) {
        return Map.of("action", action, "user", "ada", "inputs", Map.of("feedback", feedback, "priority", priority));
    }

    private static List<JsonNode> stream(ServiceApi api, String draft) {
        return frames(api.postStreaming("/v1/workflows/run", Map.of("inputs", Map.of("draft", draft),
                "response_mode", "streaming", "user", "ada")));
    }

    private static List<JsonNode> frames(HttpResponse<InputStream> response) {
        assertThat(response.statusCode()).isEqualTo(200);
        return SseFrames.all(response.body()).stream().filter(frame -> frame.contains("data: "))
                .map(frame -> TestServer.json(SseFrames.data(frame).substring(6))).toList();
    }

    private static JsonNode waitForEnd(ServiceApi api, String runId) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            JsonNode run = json(api.get("/v1/workflows/run/" + runId));
            String status = run.get("status").asText();
            if (!status.equals("running") && !status.equals("paused")) {
                return run;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("run " + runId + " did not end");
    }

    private static void assertRefused(HttpResponse<String> response, int status, String code, String message) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        JsonNode body = json(response);
        assertThat(body.get("code").asText()).isEqualTo(code);
        if (message != null) {
            assertThat(body.get("message").asText()).isEqualTo(message);
        }
    }
}
