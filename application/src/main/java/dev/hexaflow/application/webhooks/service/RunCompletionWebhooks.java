package dev.hexaflow.application.webhooks.service;

import dev.hexaflow.application.runs.port.out.CompletionWebhooks;
import dev.hexaflow.application.webhooks.service.RunCallbacks;
import dev.hexaflow.domain.webhook.CallbackUrl;
import dev.hexaflow.domain.webhook.Delivery;
import java.util.Optional;

/** The webhook context's side of a run, as the run service asks for it through its own port. */
public final class RunCompletionWebhooks implements CompletionWebhooks {

    private final RunCallbacks callbacks;

    public RunCompletionWebhooks(RunCallbacks callbacks) {
        this.callbacks = callbacks;
    }

    @Override
    public CallbackUrl defaultOf(String appId) {
        return callbacks.callbackOf(appId, null);
    }

    @Override
    public Delivery register(String appId, String runId, CallbackUrl url) {
        return callbacks.register(appId, runId, url);
    }

    @Override
    public Optional<Delivery> completionOf(String runId) {
        return callbacks.completionOf(runId);
    }

    @Override
    public void runPaused(Delivery completion, String body) {
        callbacks.runPaused(completion, body);
    }

    @Override
    public void runEnded(Delivery delivery) {
        callbacks.runEnded(delivery);
    }

    @Override
    public void discard(Delivery delivery) {
        callbacks.discard(delivery);
    }
}
