package dev.hexaflow.application.webhooks.service;

import dev.hexaflow.application.webhooks.port.out.DeliveryRepository;
import dev.hexaflow.application.webhooks.port.out.WebhookSettingsRepository;
import dev.hexaflow.domain.webhook.CallbackUrl;
import dev.hexaflow.domain.webhook.Delivery;
import dev.hexaflow.domain.webhook.DeliveryState;
import java.time.Clock;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A run's side of its completion webhook. The delivery is kept before the run starts, waiting for its end, so
 * that no end goes unsent: a run's end and its delivery being due are two writes, and the server may stop
 * between them; a delivery kept beforehand is found by {@link DeliverCallbacksService#sweep} once its run has
 * ended (a restart ends the runs it finds running), and made due then. Each pause of the run is a delivery of its
 * own to the same receiver, kept once the pause is, with the body the pause had.
 */
public final class RunCallbacks {

    private final WebhookSettingsRepository settings;
    private final DeliveryRepository deliveries;
    private final Clock clock;
    private final Supplier<String> ids;
    private final Runnable wake;

    /** @param wake asks the deliverer to look for due deliveries now */
    public RunCallbacks(WebhookSettingsRepository settings, DeliveryRepository deliveries, Clock clock,
            Supplier<String> ids, Runnable wake) {
        this.settings = settings;
        this.deliveries = deliveries;
        this.clock = clock;
        this.ids = ids;
        this.wake = wake;
    }

    /**
     * The URL a run posts its end to: the one its request names, or its app's default; null for none.
     *
     * @throws IllegalArgumentException for a named URL that is not an http or https one of at most 2048 characters
     */
    public CallbackUrl callbackOf(String appId, String requested) {
        if (requested != null) {
            return new CallbackUrl(requested);
        }
        return settings.find(appId).defaultCallback();
    }

    /** Keeps the delivery of a run about to start; it waits for the run's end. */
    public Delivery register(String appId, String runId, CallbackUrl url) {
        Delivery delivery = Delivery.awaiting(ids.get(), appId, runId, url, clock.millis());
        deliveries.add(delivery);
        return delivery;
    }

    /** The delivery of the run's end kept as the run started; empty for a run without a webhook. */
    public Optional<Delivery> completionOf(String runId) {
        return deliveries.completionOf(runId);
    }

    /** The run has paused and its pause is kept: {@code body} goes to the completion's receiver, due now. */
    public void runPaused(Delivery completion, String body) {
        deliveries.add(Delivery.ofPause(ids.get(), completion.appId(), completion.runId(), completion.url(), body,
                clock.millis()));
        wake.run();
    }

    /** The run has ended and its end is kept: its delivery is due now, unless it no longer waits for the run. */
    public void runEnded(Delivery delivery) {
        if (delivery.state() == DeliveryState.AWAITING_RUN && deliveries.move(delivery.due(clock.millis()), DeliveryState.AWAITING_RUN, null)) {
            wake.run();
        }
    }

    /** The run never started: nothing will be delivered. */
    public void discard(Delivery delivery) {
        deliveries.discard(delivery.id());
    }
}
