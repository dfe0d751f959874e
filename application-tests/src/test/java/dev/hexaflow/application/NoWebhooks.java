package dev.hexaflow.application;

import dev.hexaflow.application.runs.port.out.CompletionWebhooks;
import dev.hexaflow.domain.webhook.CallbackUrl;
import dev.hexaflow.domain.webhook.Delivery;
import java.util.Optional;

/** The runs' webhooks where no app has a completion webhook and no run names one: any delivery is a test's bug. */
public final class NoWebhooks implements CompletionWebhooks {

    @Override
    public CallbackUrl defaultOf(String appId) {
        return null;
    }

    @Override
    public Delivery register(String appId, String runId, CallbackUrl url) {
        throw new AssertionError("no run here names a callback");
    }

    @Override
    public Optional<Delivery> completionOf(String runId) {
        return Optional.empty();
    }

    @Override
    public void runPaused(Delivery completion, String body) {
        throw new AssertionError("no run here has a delivery");
    }

    @Override
    public void runEnded(Delivery delivery) {
        throw new AssertionError("no run here has a delivery");
    }

    @Override
    public void discard(Delivery delivery) {
        throw new AssertionError("no run here has a delivery");
    }
}
