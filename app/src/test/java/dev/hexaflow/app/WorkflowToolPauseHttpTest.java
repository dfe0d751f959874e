package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.app.api.ServiceApi;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An app run as a workflow tool that waits for a person, on the real server and store: its caller pauses at the
 * tool node with a form of its own standing for the called run's, and answering either form lets both runs end,
 * the caller's outputs carrying the called run's.
 */
class WorkflowToolPauseHttpTest {

    private static final String PROVIDER = "3c7e9a10-0000-4d2b-9f00-00000000beef";

    @TempDir
    Path dataDir;

    /** The review app bound as the caller's tool: the caller's and the review app's keys. */
    private record Apps(ServiceApi caller, ServiceApi review) {
    }

    private static Apps importBoth(TestServer server) {
        JsonNode review = server.importApp("review.yml");
        JsonNode caller = server.importApp("review-tool.yml");
        HttpResponse<String> bound = server.admin("PUT", "/admin/tools/bindings", "application/json",
                "{\"provider\": \"" + PROVIDER + "\", \"tool\": \"review\", \"app\": \""
                        + review.get("app_id").asText() + "\"}");
        assertThat(bound.statusCode()).as(bound.body()).isEqualTo(201);
        return new Apps(server.api(caller.get("api_key").asText()), server.api(review.get("api_key").asText()));
    }

    @Test
    void aCallerPausesWithTheCalledAppsFormAndItsAnswerEndsBothRuns() throws Exception {
        try (TestServer server = TestServer.start(dataDir)) {
            Apps apps = importBoth(server);

            List<JsonNode> frames = frames(apps.caller().postStreaming("/v1/workflows/run", Map.of("inputs",
                    Map.of("draft", "the plan"), "response_mode", "streaming", "user", "ada")));

            assertThat(frames).extracting(frame -> frame.get("event").asText())
                    .contains("workflow_started", "human_input_required").last().isEqualTo("workflow_paused");
            JsonNode required = event(frames, "human_input_required");
            assertThat(required.get("node_id").asText()).isEqualTo("call");
            assertThat(required.get("form_content").asText()).isEqualTo(
                    "Please review: the plan\n\nFeedback: {{#$output.feedback#}}");
            assertThat(required.get("actions").findValuesAsText("id")).containsExactly("approve", "reject");
            String token = required.get("form_token").asText();
            String callerRun = frames.get(0).get("workflow_run_id").asText();
            JsonNode calledForm = json(apps.review().get("/v1/workflows/paused")).get("data").get(0);
            String calledRun = calledForm.get("workflow_run_id").asText();
            assertThat(calledForm.get("form_token").asText()).isNotEqualTo(token);
            assertThat(json(apps.caller().get("/v1/workflows/run/" + callerRun)).get("status").asText())
                    .isEqualTo("paused");
            assertThat(json(apps.caller().get("/v1/form/human_input/" + token)).get("form_content").asText())
                    .startsWith("Please review: the plan");

            HttpResponse<String> answered = apps.caller().postJson("/v1/form/human_input/" + token,
                    answer("approve", "ship it"));

            assertThat(answered.statusCode()).as(answered.body()).isEqualTo(200);
            JsonNode called = waitForEnd(apps.review(), calledRun);
            assertThat(called.get("status").asText()).isEqualTo("succeeded");
            assertThat(called.get("outputs").get("feedback").asText()).isEqualTo("ship it");
            JsonNode caller = waitForEnd(apps.caller(), callerRun);
            assertThat(caller.get("status").asText()).as(caller.toString()).isEqualTo("succeeded");
            assertThat(caller.get("outputs").get("json").get(0).get("feedback").asText()).isEqualTo("ship it");
            assertThat(caller.get("outputs").get("text").asText()).contains("\"priority\": \"high\"");
            // Both forms are used: the same answer again is the one given, another is refused.
            assertThat(apps.caller().postJson("/v1/form/human_input/" + token, answer("approve", "ship it"))
                    .statusCode()).isEqualTo(200);
            assertThat(apps.caller().postJson("/v1/form/human_input/" + token, answer("reject", "no"))
                    .statusCode()).isEqualTo(412);
            assertThat(json(apps.caller().get("/v1/workflows/paused")).get("data")).isEmpty();
        }
    }

    @Test
    void answeringTheCalledRunsOwnFormEndsTheCallerToo() throws Exception {
        try (TestServer server = TestServer.start(dataDir)) {
            Apps apps = importBoth(server);
            JsonNode paused = json(apps.caller().postJson("/v1/workflows/run", Map.of("inputs",
                    Map.of("draft", "the plan"), "response_mode", "blocking", "user", "ada")));
            String callerRun = paused.get("workflow_run_id").asText();
            assertThat(paused.get("data").get("status").asText()).isEqualTo("paused");
            JsonNode calledForm = json(apps.review().get("/v1/workflows/paused")).get("data").get(0);

            HttpResponse<String> answered = apps.review().postJson("/v1/form/human_input/"
                    + calledForm.get("form_token").asText(), answer("reject", "not yet"));

            assertThat(answered.statusCode()).as(answered.body()).isEqualTo(200);
            JsonNode caller = waitForEnd(apps.caller(), callerRun);
            assertThat(caller.get("status").asText()).as(caller.toString()).isEqualTo("succeeded");
            assertThat(caller.get("outputs").get("json").get(0).get("shown").asText())
                    .isEqualTo("Please review: the plan\n\nFeedback: not yet");
            String callerToken = paused.get("data").get("reasons").get(0).get("form_token").asText();
            assertThat(apps.caller().postJson("/v1/form/human_input/" + callerToken, answer("approve", "ok"))
                    .statusCode()).isEqualTo(412);
        }
    }

    private static Map<String, Object> answer(String action, String feedback) {
        return Map.of("action", action, "user", "ada", "inputs", Map.of("feedback", feedback, "priority", "high"));
    }

    private static JsonNode event(List<JsonNode> frames, String name) {
        return frames.stream().filter(frame -> frame.get("event").asText().equals(name)).findFirst().orElseThrow()
                .get("data");
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
}
