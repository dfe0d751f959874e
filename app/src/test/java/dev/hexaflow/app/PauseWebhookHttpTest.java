package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.app.WebhookDeliveryHttpTest.Receiver;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.app.config.Configuration;
import dev.hexaflow.engine.EngineConfiguration;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The webhook of a run that waits for a person, on the real server with a receiver on loopback: a run naming a
 * callback_url pauses at the review app's form and the receiver gets the pause, signed, with the form's token;
 * once the form is answered, it gets the run's end, once.
 */
class PauseWebhookHttpTest {

    @TempDir
    Path dataDir;

    @Test
    void aPausedRunPostsItsPauseWithTheFormsTokenAndOnceAnsweredItsEndOnce() throws Exception {
        Configuration config = TestServer.config(dataDir).withEngine(EngineConfiguration.fromEnvironment(
                Map.of("HEXAFLOW_OUTBOUND_ALLOW", "127.0.0.1")));
        try (Receiver receiver = new Receiver(); TestServer server = TestServer.start(config.withService(
                config.service().withWebhooks(WebhookDeliveryHttpTest.QUICK)))) {
            JsonNode imported = server.importApp("review.yml");
            String appId = imported.get("app_id").asText();
            ServiceApi api = server.api(imported.get("api_key").asText());
            HttpResponse<String> rotated = server.admin("POST", "/admin/apps/" + appId + "/webhook-secret", null, null);
            String secret = TestServer.json(rotated).get("secret").asText();

            JsonNode blocking = json(api.postJson("/v1/workflows/run", Map.of("inputs", Map.of("draft", "the plan"),
                    "response_mode", "blocking", "user", "ada", "callback_url", receiver.url("/hook"))));
            String runId = blocking.get("workflow_run_id").asText();
            String token = blocking.get("data").get("reasons").get(0).get("form_token").asText();
            Receiver.Received pause = receiver.next();
            JsonNode paused = TestServer.json(new String(pause.body(), StandardCharsets.UTF_8));

            assertThat(pause.header("X-Hexaflow-Signature")).isEqualTo("sha256=" + WebhookDeliveryHttpTest.hmac(
                    secret, pause.header("X-Hexaflow-Timestamp"), pause.body()));
            assertThat(paused.get("event").asText()).isEqualTo("workflow_paused");
            assertThat(paused.get("workflow_run_id").asText()).isEqualTo(runId);
            assertThat(paused.get("task_id").asText()).isEqualTo(blocking.get("task_id").asText());
            assertThat(paused.get("data").get("status").asText()).isEqualTo("paused");
            assertThat(paused.get("data").get("paused_nodes").get(0).asText()).isEqualTo("review");
            JsonNode reason = paused.get("data").get("reasons").get(0);
            assertThat(reason.get("form_token").asText()).isEqualTo(token);
            assertThat(reason.get("form_content").asText()).startsWith("Please review: the plan");
            assertThat(reason.get("actions").findValuesAsText("id")).containsExactly("approve", "reject");
            assertThat(reason.has("inputs")).isTrue();
            assertThat(reason.has("expiration_time")).isTrue();

            HttpResponse<String> answered = api.postJson("/v1/form/human_input/" + token, Map.of("action", "approve",
                    "user", "ada", "inputs", Map.of("feedback", "ship it", "priority", "high")));
            assertThat(answered.statusCode()).as(answered.body()).isEqualTo(200);
            Receiver.Received end = receiver.next();

            assertThat(new String(end.body(), StandardCharsets.UTF_8))
                    .isEqualTo(api.get("/v1/workflows/run/" + runId).body());
            assertThat(TestServer.json(new String(end.body(), StandardCharsets.UTF_8)).get("status").asText())
                    .isEqualTo("succeeded");
            assertThat(end.header("X-Hexaflow-Delivery")).isNotEqualTo(pause.header("X-Hexaflow-Delivery"));
            Thread.sleep(1_000);
            assertThat(receiver.count()).as("the pause and the end, each once").isEqualTo(2);
            HttpResponse<String> listed = server.admin("GET", "/admin/apps/" + appId + "/deliveries", null, null);
            List<JsonNode> deliveries = StreamSupport.stream(TestServer.json(listed).get("data").spliterator(), false)
                    .toList();
            assertThat(deliveries).extracting(delivery -> delivery.get("kind").asText())
                    .containsExactlyInAnyOrder("completion", "paused");
            assertThat(deliveries).extracting(delivery -> delivery.get("state").asText())
                    .containsOnly("delivered");
        }
    }
}
