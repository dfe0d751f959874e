package dev.hexaflow.application.triggers.service;

import dev.hexaflow.application.apps.port.out.WorkflowVersionRepository;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunUnderWay;
import dev.hexaflow.application.triggers.port.in.CallWebhookUseCase;
import dev.hexaflow.application.triggers.port.out.TriggerRepository;
import dev.hexaflow.domain.app.WorkflowVersion;
import dev.hexaflow.domain.trigger.Trigger;
import dev.hexaflow.domain.trigger.TriggerKind;
import dev.hexaflow.domain.trigger.WebhookAuth;
import dev.hexaflow.domain.trigger.WebhookCall;
import dev.hexaflow.domain.trigger.WebhookRefusal;
import dev.hexaflow.domain.trigger.WebhookSpec;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.domain.workflow.WorkflowRun;
import dev.hexaflow.workflow.port.out.WorkflowDslReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A call of a webhook trigger's URL, in Dify's order: the URL's trigger (404 when unknown or off), the operator's
 * authentication (401), the published workflow's node, the request against the node (400), then the run. The
 * payload is data: it becomes the node's outputs and is never read as a template. A node that waits
 * ({@code async_mode: false}) waits for the run's end within its timeout, at most {@link #MOST_WAIT}.
 */
public final class CallWebhookService implements CallWebhookUseCase {

    /** The longest a webhook's caller is kept waiting for a run's end, whatever the node's timeout says. */
    public static final Duration MOST_WAIT = Duration.ofMinutes(5);

    private static final int CACHED_VERSIONS = 256;

    private final TriggerRepository triggers;
    private final WorkflowVersionRepository versions;
    private final WorkflowDslReader reader;
    private final TriggerRuns runs;
    private final Map<String, Workflow> read = new ConcurrentHashMap<>();

    public CallWebhookService(TriggerRepository triggers, WorkflowVersionRepository versions, WorkflowDslReader reader,
            TriggerRuns runs) {
        this.triggers = triggers;
        this.versions = versions;
        this.reader = reader;
        this.runs = runs;
    }

    @Override
    public void open(String code) {
        trigger(code);
    }

    /** The URL's trigger, on: 404 otherwise, as Dify answers an unknown or disabled webhook. */
    private Trigger trigger(String code) {
        Trigger trigger = (Trigger.isCode(code) ? triggers.findByCode(code) : java.util.Optional.<Trigger>empty())
                .filter(found -> found.kind().hasUrl())
                .orElseThrow(() -> new WebhookRefused(404, "Not Found", "Webhook not found: " + code));
        if (!trigger.enabled()) {
            throw new WebhookRefused(404, "Not Found", trigger.kind() == TriggerKind.PLUGIN
                    ? "Plugin trigger " + trigger.nodeId() + " is not bound to this webhook" : "Webhook trigger is "
                    + "disabled for webhook " + code);
        }
        return trigger;
    }

    @Override
    public WebhookAnswer call(String code, WebhookCall received) {
        Trigger trigger = trigger(code);
        if (!trigger.auth().admits(received)) {
            throw new WebhookRefused(401, "Unauthorized", "The request is not signed or authenticated as this "
                    + "webhook requires (" + trigger.auth().kind().wireName() + ")");
        }
        // The run keeps the request's headers: never the one that holds the webhook's secret.
        WebhookCall call = trigger.auth().kind() == WebhookAuth.Kind.HEADER
                || trigger.auth().kind() == WebhookAuth.Kind.BEARER
                ? received.withoutHeader(trigger.auth().headerName()) : received;
        Node node = node(trigger);
        Map<String, Object> inputs;
        WebhookSpec spec = null;
        try {
            if (trigger.kind() == TriggerKind.WEBHOOK) {
                spec = WebhookSpec.of(node.data());
                inputs = spec.inputsOf(spec.webhookData(call));
            } else {
                inputs = PluginEvents.variables(call);
            }
        } catch (WebhookRefusal e) {
            throw new WebhookRefused(e.status(), "Bad Request", e.getMessage());
        }
        RunUnderWay run = start(trigger, inputs);
        WebhookSpec.Response response = spec == null ? PluginEvents.ACCEPTED : spec.response();
        boolean ownBody = spec != null && !spec.responseBody().isBlank();
        if (spec == null || spec.asyncMode()) {
            return new WebhookAnswer(run.runId(), run.taskId(), response, ownBody, false, null);
        }
        return new WebhookAnswer(run.runId(), run.taskId(), response, ownBody, true, awaited(run, spec.timeout()));
    }

    private RunUnderWay start(Trigger trigger, Map<String, Object> inputs) {
        try {
            return runs.start(trigger, inputs);
        } catch (ApiException e) {
            throw switch (e.error()) {
                case TOO_MANY_REQUESTS -> new WebhookRefused(429, "Too Many Requests", e.getMessage());
                case INVALID_PARAM, NOT_FOUND -> new WebhookRefused(404, "Not Found", "Workflow not found for app "
                        + trigger.appId());
                // The server's own trouble (its store, a model provider): a sender that retries on 5xx retries.
                default -> new WebhookRefused(503, "Service Unavailable", "The server cannot start the run now; "
                        + "try again later.");
            };
        }
    }

    /** The run as it ended, or null when it goes on past the wait. */
    private static WorkflowRun awaited(RunUnderWay run, Duration timeout) {
        long wait = Math.min(Math.max(timeout.toSeconds(), 1), MOST_WAIT.toSeconds());
        try {
            return run.done().get(wait, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (ExecutionException e) {
            throw new WebhookRefused(503, "Service Unavailable", "The run started but the server could not keep "
                    + "its end; try again later.");
        }
    }

    /** The trigger's node in the app's newest version; a version is read once. */
    private Node node(Trigger trigger) {
        WorkflowVersion version = versions.latest(trigger.appId()).orElseThrow(() -> new WebhookRefused(404,
                "Not Found", "Workflow not found for app " + trigger.appId()));
        if (read.size() > CACHED_VERSIONS) {
            read.clear();
        }
        Workflow workflow = read.computeIfAbsent(version.id(), id -> reader.read(version.dsl().getBytes(
                StandardCharsets.UTF_8)));
        return workflow.graph().node(trigger.nodeId()).filter(node -> node.type() == trigger.kind().nodeType())
                .orElseThrow(() -> new WebhookRefused(404, "Not Found", "App trigger not found for webhook "
                        + trigger.code()));
    }
}
