package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.app.api.ServiceApi;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A paused run's form on its own page, with no app key (the token is the credential), on the real server: the
 * page, the form as its script reads it, a bad answer refused, the answer that lets the run succeed, the states
 * after it (already submitted, not found), and the limit on answers from one client address.
 */
class FormPageHttpTest {

    @TempDir
    Path dataDir;

    @Test
    void aFormOpensOnItsPageIsAnsweredByTokenAloneAndTheRunSucceeds() throws Exception {
        try (TestServer server = TestServer.start(dataDir)) {
            ServiceApi api = server.api(server.importApp("review.yml").get("api_key").asText());
            JsonNode paused = pause(api, "the plan");
            String token = paused.get("data").get("reasons").get(0).get("form_token").asText();
            String runId = paused.get("workflow_run_id").asText();

            HttpResponse<String> page = server.get("/form/" + token);
            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.headers().firstValue("Content-Type")).hasValueSatisfying(type ->
                    assertThat(type).startsWith("text/html"));
            assertThat(page.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(csp ->
                    assertThat(csp).contains("script-src 'self'"));
            assertThat(page.body()).contains("data-form-token=\"" + token + "\"", "<title>Review</title>",
                    "/web/form.js?v=").doesNotContain("<script>");
            assertThat(server.get("/web/form.js").statusCode()).isEqualTo(200);

            JsonNode form = json(server.get("/api/form/human_input/" + token));
            assertThat(form.get("form_content").asText()).isEqualTo(
                    "Please review: the plan\n\nFeedback: {{#$output.feedback#}}");
            assertThat(form.get("resolved_default_values").get("feedback").asText()).isEqualTo("looks fine");
            assertThat(form.get("user_actions").findValuesAsText("id")).containsExactly("approve", "reject");
            assertThat(form.get("expiration_time").asLong()).isGreaterThan(System.currentTimeMillis() / 1000);

            assertRefused(answer(server, token, "approve", Map.of("feedback", "ok")), 400, "invalid_form_data");
            HttpResponse<String> answered = answer(server, token, "approve",
                    Map.of("feedback", "ship it", "priority", "high"));
            assertThat(answered.statusCode()).as(answered.body()).isEqualTo(200);
            assertThat(answered.body()).isEqualTo("{}");
            JsonNode run = waitForEnd(api, runId);
            assertThat(run.get("status").asText()).isEqualTo("succeeded");
            assertThat(run.get("outputs").get("feedback").asText()).isEqualTo("ship it");

            assertRefused(server.get("/api/form/human_input/" + token), 412, "human_input_form_submitted");
            assertRefused(answer(server, token, "reject", Map.of("feedback", "no", "priority", "low")), 412,
                    "human_input_form_submitted");
            assertThat(server.get("/form/" + token).statusCode()).as("the page says it was answered").isEqualTo(200);
            assertRefused(server.get("/api/form/human_input/nope"), 404, "not_found");
            assertThat(server.get("/form/nope").statusCode()).isEqualTo(404);
        }
    }

    @Test
    void answersFromOneAddressPastThirtyAMinuteAreRefused() {
        try (TestServer server = TestServer.start(dataDir)) {
            List<Integer> statuses = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                statuses.add(answer(server, "nope", "approve", Map.of()).statusCode());
            }
            assertThat(statuses).containsOnly(404);
            HttpResponse<String> refused = answer(server, "nope", "approve", Map.of());
            assertRefused(refused, 429, "web_form_rate_limit_exceeded");
            assertThat(server.get("/api/form/human_input/nope").statusCode()).as("reading is not limited")
                    .isEqualTo(404);
        }
    }

    static JsonNode pause(ServiceApi api, String draft) {
        JsonNode blocking = json(api.postJson("/v1/workflows/run", Map.of("inputs", Map.of("draft", draft),
                "response_mode", "blocking", "user", "ada")));
        assertThat(blocking.get("data").get("status").asText()).isEqualTo("paused");
        return blocking;
    }

    private static HttpResponse<String> answer(TestServer server, String token, String action,
            Map<String, Object> inputs) {
        return server.send("POST", "/api/form/human_input/" + token, "application/json",
                ServiceApi.json(Map.of("action", action, "inputs", inputs)), null);
    }

    static JsonNode waitForEnd(ServiceApi api, String runId) throws InterruptedException {
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

    private static void assertRefused(HttpResponse<String> response, int status, String code) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        JsonNode body = json(response);
        assertThat(body.get("code").asText()).isEqualTo(code);
        assertThat(body.get("status").asInt()).isEqualTo(status);
    }
}
