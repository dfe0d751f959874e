package dev.hexaflow.adapters.http.triggers;

import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.http.support.ResponseBodies;
import dev.hexaflow.adapters.http.support.WindowRateLimit;
import dev.hexaflow.adapters.http.wire.DifyWire;
import dev.hexaflow.application.triggers.port.in.CallWebhookUseCase;
import dev.hexaflow.application.triggers.port.in.CallWebhookUseCase.WebhookAnswer;
import dev.hexaflow.application.triggers.port.in.CallWebhookUseCase.WebhookRefused;
import dev.hexaflow.domain.trigger.WebhookCall;
import dev.hexaflow.domain.trigger.WebhookSpec;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A webhook trigger's door, Dify's {@code /triggers/webhook/{id}} with every method it takes: no key (the URL's
 * unguessable code is the credential, and the operator may add a secret), a body limit read before the body is,
 * a rate limit per URL, and Dify's answers: the node's response once the run started (or ended, for a node that
 * waits), {@code {"error", "message"}} for a request that starts nothing.
 */
public final class WebhookTriggerRoutes implements RouteGroup {

    private static final Logger LOG = LoggerFactory.getLogger(WebhookTriggerRoutes.class);

    private final CallWebhookUseCase webhooks;
    private final WebhookRequests requests;
    private final WindowRateLimit calls;

    /**
     * @param maxBodyBytes   the largest body a webhook reads (Dify's WEBHOOK_REQUEST_BODY_MAX_SIZE)
     * @param callsPerMinute the calls one URL takes a minute; past them, 429 with Retry-After
     */
    public WebhookTriggerRoutes(CallWebhookUseCase webhooks, long maxBodyBytes, int callsPerMinute) {
        this.webhooks = webhooks;
        this.requests = new WebhookRequests(maxBodyBytes);
        this.calls = new WindowRateLimit(callsPerMinute, Duration.ofMinutes(1), Clock.systemUTC());
    }

    @Override
    public void addTo(RoutesConfig routes) {
        String path = "/triggers/webhook/{code}";
        routes.get(path, this::call);
        routes.post(path, this::call);
        routes.put(path, this::call);
        routes.patch(path, this::call);
        routes.delete(path, this::call);
        routes.head(path, this::call);
    }

    private void call(Context ctx) {
        ctx.header("Cache-Control", "no-store");
        String code = ctx.pathParam("code");
        try {
            // An unknown or switched-off URL is answered before its body is read, and counts against no URL.
            webhooks.open(code);
            if (!calls.allows(code)) {
                ctx.header("Retry-After", String.valueOf(calls.secondsLeft(code)));
                throw new WebhookRefused(429, "Too Many Requests", "This webhook takes at most so many calls a "
                        + "minute; try again after the time in Retry-After.");
            }
            WebhookCall call = requests.read(ctx);
            answer(ctx, webhooks.call(code, call));
        } catch (WebhookRefused e) {
            if (e.status() >= 500) {
                LOG.warn("Webhook trigger call failed ({}): {}", e.status(), e.getMessage());
            }
            json(ctx, e.status(), Map.of("error", e.error(), "message", e.getMessage()));
        }
    }

    /** The node's response; for a node that waits, the run's end in the blocking answer's shape when it sets none. */
    private static void answer(Context ctx, WebhookAnswer answer) {
        ctx.header("X-Hexaflow-Run-Id", answer.runId());
        WebhookSpec.Response response = answer.response();
        if (answer.waited() && answer.ended() == null) {
            Map<String, Object> running = new LinkedHashMap<>();
            running.put("task_id", answer.taskId());
            running.put("workflow_run_id", answer.runId());
            running.put("data", Map.of("id", answer.runId(), "status", "running"));
            json(ctx, 202, running);
            return;
        }
        if (response.isJsonText()) {
            String text = response.jsonText();
            if (response.status() == 204 || response.status() == 304) {
                ctx.status(response.status());
            } else if (WebhookRequests.isJson(text)) {
                ResponseBodies.write(ctx, response.status(), "application/json", text.getBytes(StandardCharsets.UTF_8));
            } else {
                json(ctx, response.status(), response.fallbackBody());
            }
            return;
        }
        if (answer.waited() && !answer.ownBody()) {
            // The node sets no body of its own: a caller that waited hears the run's end.
            json(ctx, response.status(), DifyWire.completion(answer.ended(), answer.taskId()));
            return;
        }
        Map<String, Object> body = new LinkedHashMap<>(response.body());
        if (!answer.ownBody()) {
            body.put("workflow_run_id", answer.runId()); // beside Dify's default answer, the run it started
        }
        json(ctx, response.status(), body);
    }

    private static void json(Context ctx, int status, Object body) {
        if (status == 204 || status == 304) {
            ctx.status(status); // a status that carries no body, as the node asked
            return;
        }
        ResponseBodies.write(ctx, status, "application/json", DifyWire.json(body).getBytes(StandardCharsets.UTF_8));
    }
}
