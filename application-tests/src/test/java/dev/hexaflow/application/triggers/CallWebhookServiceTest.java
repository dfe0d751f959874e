package dev.hexaflow.application.triggers;

import static dev.hexaflow.application.triggers.TriggerBed.order;
import static dev.hexaflow.application.triggers.TriggerBed.orderHook;
import static dev.hexaflow.application.triggers.TriggerBed.plugin;
import static dev.hexaflow.application.triggers.TriggerBed.post;
import static dev.hexaflow.application.triggers.TriggerBed.webhook;
import static dev.hexaflow.application.triggers.TriggerBed.workflow;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunWorkflowCommand;
import dev.hexaflow.application.triggers.port.in.CallWebhookUseCase.WebhookAnswer;
import dev.hexaflow.application.triggers.port.in.CallWebhookUseCase.WebhookRefused;
import dev.hexaflow.application.triggers.service.CallWebhookService;
import dev.hexaflow.domain.trigger.WebhookAuth;
import dev.hexaflow.domain.trigger.WebhookCall;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * A call of a webhook trigger's URL, checked in Dify's order: an unknown or switched-off URL is not found, a call
 * that fails the operator's authentication is unauthorised, a call that does not fit the published node is a bad
 * request with Dify's message; a good call starts one run from the node with Dify's four inputs, and is answered
 * with the node's response. A plugin trigger, once bound, takes a third party's event the same way.
 */
class CallWebhookServiceTest {

    private final TriggerBed bed = new TriggerBed();
    private final CallWebhookService webhooks = bed.webhooks();
    private final String app = bed.importApp("v1", workflow(orderHook("hook"), plugin("github")));

    private String code(String nodeId) {
        return bed.trigger(app, nodeId).code();
    }

    @Test
    void aGoodCallStartsARunFromTheNodeWithDifysFourInputs() {
        webhooks.call(code("hook"), order());

        assertThat(bed.started).hasSize(1);
        RunWorkflowCommand run = bed.started.get(0);
        assertThat(run.appId()).isEqualTo(app);
        assertThat(run.triggerNodeId()).isEqualTo("hook");
        assertThat(run.user()).isEqualTo("webhook-trigger");
        assertThat(run.inputs()).containsOnlyKeys("webhook_data", "webhook_headers", "webhook_query_params",
                "webhook_body");
        assertThat(run.inputs().get("webhook_body")).isEqualTo(Map.of("item", "apple", "count", 2));
        assertThat(run.inputs().get("webhook_query_params")).as("a configured number is converted")
                .isEqualTo(Map.of("priority", 2L));
        assertThat(map(run.inputs().get("webhook_headers"))).containsEntry("X-Shop-Id", "s-1");
        assertThat(map(run.inputs().get("webhook_data"))).containsEntry("method", "POST")
                .containsEntry("body", run.inputs().get("webhook_body"))
                .containsEntry("query_params", run.inputs().get("webhook_query_params"));
    }

    @Test
    void aGoodCallIsAnsweredAtOnceWithDifysDefaultResponse() {
        WebhookAnswer answer = webhooks.call(code("hook"), order());

        assertThat(answer.runId()).isEqualTo("run-1");
        assertThat(answer.taskId()).isEqualTo("task-run-1");
        assertThat(answer.response().status()).isEqualTo(200);
        assertThat(answer.response().body()).isEqualTo(Map.of("status", "success", "message",
                "Webhook processed successfully"));
        assertThat(answer.ownBody()).isFalse();
        assertThat(answer.waited()).isFalse();
        assertThat(answer.ended()).isNull();
    }

    @Test
    void aNodesOwnStatusAndResponseBodyAreItsAnswer() {
        bed.publish(app, "v2", workflow(webhook("hook", Map.of("status_code", 202, "response_body",
                "{\"accepted\": true}"))));

        WebhookAnswer answer = webhooks.call(code("hook"), order());

        assertThat(answer.response().status()).isEqualTo(202);
        assertThat(answer.response().jsonText()).isEqualTo("{\"accepted\": true}");
        assertThat(answer.ownBody()).isTrue();
    }

    @Test
    void anUnknownCodeIsNotFoundAndStartsNothing() {
        assertRefused(() -> webhooks.call("no-such-code", order()), 404, "Not Found",
                "Webhook not found: no-such-code");
    }

    @Test
    void aWebhookSwitchedOffIsNotFound() {
        bed.manage().setEnabled(app, "hook", false);

        assertRefused(() -> webhooks.call(code("hook"), order()), 404, "Not Found",
                "Webhook trigger is disabled for webhook " + code("hook"));
    }

    @Test
    void aPluginTriggerNotYetBoundIsNotFound() {
        assertRefused(() -> webhooks.call(code("github"), post(Map.of(), Map.of(), Map.of("title", "Bug"))), 404,
                "Not Found", "Plugin trigger github is not bound to this webhook");
    }

    @Test
    void anOldUrlIsNotFoundOnceANewOneIsMade() {
        String old = code("hook");
        bed.manage().newUrl(app, "hook");

        assertRefused(() -> webhooks.call(old, order()), 404, "Not Found", "Webhook not found: " + old);
        webhooks.call(code("hook"), order());
        assertThat(bed.started).hasSize(1);
    }

    @Test
    void aCallWithoutTheBearerTokenTheOperatorSetIsUnauthorised() {
        bed.manage().setAuth(app, "hook", WebhookAuth.bearer("sixteen-chars-ok"));

        assertRefused(() -> webhooks.call(code("hook"), order()), 401, "Unauthorized",
                "The request is not signed or authenticated as this webhook requires (bearer)");
        assertRefused(() -> webhooks.call(code("hook"), withAuthorization("Bearer sixteen-chars-no")), 401,
                "Unauthorized", "The request is not signed or authenticated as this webhook requires (bearer)");

        webhooks.call(code("hook"), withAuthorization("Bearer sixteen-chars-ok"));
        assertThat(bed.started).hasSize(1);
    }

    @Test
    void aCallSignedWithTheSecretIsAdmittedAndAnotherSignatureIsNot() {
        bed.manage().setAuth(app, "hook", WebhookAuth.hmac(null, "sixteen-chars-ok"));
        Map<String, Object> body = Map.of("item", "pear", "count", 1);
        byte[] raw = String.valueOf(body).getBytes(StandardCharsets.UTF_8);
        String good = HexFormat.of().formatHex(WebhookAuth.signature("sixteen-chars-ok", raw));
        String bad = HexFormat.of().formatHex(WebhookAuth.signature("another-secret-0", raw));

        assertRefused(() -> webhooks.call(code("hook"), post(Map.of("X-Shop-Id", List.of("s-1"),
                "X-Hexaflow-Signature", List.of(bad)), Map.of(), body)), 401, "Unauthorized",
                "The request is not signed or authenticated as this webhook requires (hmac)");
        webhooks.call(code("hook"), post(Map.of("X-Shop-Id", List.of("s-1"), "X-Hexaflow-Signature",
                List.of("sha256=" + good)), Map.of(), body));
        assertThat(bed.started).hasSize(1);
    }

    @Test
    void aCallThatDoesNotFitTheNodeIsABadRequestWithDifysMessageAndStartsNothing() {
        assertBadRequest(post(Map.of("X-Shop-Id", List.of("s-1")), Map.of(), Map.of("item", "apple")),
                "Required body parameter missing: count");
        assertBadRequest(post(Map.of(), Map.of(), Map.of("item", "apple", "count", 2)),
                "Required header missing: X-Shop-Id");
        assertBadRequest(new WebhookCall("GET", null, Map.of("X-Shop-Id", List.of("s-1")), Map.of(), null, Map.of(),
                null), "HTTP method mismatch. Expected POST, got GET");
        assertBadRequest(post(Map.of("X-Shop-Id", List.of("s-1")), Map.of("priority", List.of("high")),
                Map.of("item", "apple", "count", 2)),
                "Parameter 'priority' validation failed: Cannot convert 'high' to number");
        assertBadRequest(post(Map.of("X-Shop-Id", List.of("s-1")), Map.of(), Map.of("item", "apple", "count",
                "two")), "Parameter 'count' validation failed: Expected number, got str");
    }

    @Test
    void theNewestPublishedNodeDecidesWhatACallMustHold() {
        webhooks.call(code("hook"), order()); // reads version v1 once
        bed.publish(app, "v2", workflow(webhook("hook", Map.of("body", List.of(Map.of("name", "item", "type",
                "string", "required", true))))));

        webhooks.call(code("hook"), post(Map.of("X-Shop-Id", List.of("s-1")), Map.of(), Map.of("item", "apple")));

        assertThat(bed.started).hasSize(2);
        assertThat(bed.started.get(1).inputs().get("webhook_body")).isEqualTo(Map.of("item", "apple"));
    }

    @Test
    void aRunRefusedForTooManyRunsIsTooManyRequests() {
        bed.refusal = new ApiException(ApiError.TOO_MANY_REQUESTS, "Too many requests. Please try again later.");

        assertRefused(() -> webhooks.call(code("hook"), order()), 429, "Too Many Requests",
                "Too many requests. Please try again later.");
    }

    @Test
    void aBoundPluginTriggerStartsARunWithTheEventsVariables() {
        bed.manage().setEnabled(app, "github", true);

        WebhookAnswer answer = webhooks.call(code("github"), post(Map.of(), Map.of(), Map.of("title", "Bug",
                "number", 7)));

        RunWorkflowCommand run = bed.started.get(0);
        assertThat(run.triggerNodeId()).isEqualTo("github");
        assertThat(run.user()).isEqualTo("plugin-trigger");
        assertThat(run.inputs()).isEqualTo(Map.of("title", "Bug", "number", 7));
        assertThat(answer.response().body()).containsEntry("status", "success");
        assertRefused(() -> webhooks.call(code("github"), post(Map.of(), Map.of(), List.of(1, 2))), 400,
                "Bad Request", "A plugin trigger's event is a JSON object of its variables");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return (Map<String, Object>) value;
    }

    private static WebhookCall withAuthorization(String value) {
        return post(Map.of("X-Shop-Id", List.of("s-1"), "Authorization", List.of(value)),
                Map.of("priority", List.of("2")), Map.of("item", "apple", "count", 2));
    }

    private void assertBadRequest(WebhookCall call, String message) {
        assertRefused(() -> webhooks.call(code("hook"), call), 400, "Bad Request", message);
    }

    private void assertRefused(ThrowingCallable call, int status, String error, String message) {
        int before = bed.started.size();
        assertThatThrownBy(call).isInstanceOfSatisfying(WebhookRefused.class, refused -> {
            assertThat(refused.status()).isEqualTo(status);
            assertThat(refused.error()).isEqualTo(error);
            assertThat(refused.getMessage()).isEqualTo(message);
        });
        assertThat(bed.started).as("runs started").hasSize(before);
    }
}
