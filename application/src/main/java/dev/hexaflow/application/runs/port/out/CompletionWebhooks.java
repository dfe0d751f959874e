package dev.hexaflow.application.runs.port.out;

import dev.hexaflow.domain.webhook.CallbackUrl;
import dev.hexaflow.domain.webhook.Delivery;

/**
 * A run's completion webhook, as the run service needs it: the webhook context keeps each delivery and sends it,
 * plugged in by the composition root so that runs and webhooks do not import each other.
 */
public interface CompletionWebhooks {

    /** The URL the app's runs post their end to when a run names none; null for none. */
    CallbackUrl defaultOf(String appId);

    /** Keeps the delivery of a run about to start; it waits for the run's end. */
    Delivery register(String appId, String runId, CallbackUrl url);

    /** The run has ended and its end is kept: its delivery is due now. */
    void runEnded(Delivery delivery);

    /** The run never started: nothing will be delivered. */
    void discard(Delivery delivery);
}
