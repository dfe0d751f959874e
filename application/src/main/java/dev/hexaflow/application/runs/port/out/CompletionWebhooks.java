package dev.hexaflow.application.runs.port.out;

import dev.hexaflow.domain.webhook.CallbackUrl;
import dev.hexaflow.domain.webhook.Delivery;
import java.util.Optional;

/**
 * A run's completion webhook, as the run service needs it: the webhook context keeps each delivery and sends it,
 * plugged in by the composition root so that runs and webhooks do not import each other. The receiver of a run's
 * end also hears of each of its pauses.
 */
public interface CompletionWebhooks {

    /** The URL the app's runs post their end to when a run names none; null for none. */
    CallbackUrl defaultOf(String appId);

    /** Keeps the delivery of a run about to start; it waits for the run's end. */
    Delivery register(String appId, String runId, CallbackUrl url);

    /** The delivery of the run's end kept as the run started; empty for a run without a webhook. */
    Optional<Delivery> completionOf(String runId);

    /**
     * The run has paused and its pause is kept: {@code body} (the pause as the run's stream tells it) goes to the
     * receiver of {@code completion}, as a delivery of its own, due now.
     */
    void runPaused(Delivery completion, String body);

    /** The run has ended and its end is kept: its delivery is due now. */
    void runEnded(Delivery delivery);

    /** The run never started: nothing will be delivered. */
    void discard(Delivery delivery);
}
