package dev.hexaflow.application.webhooks.service;

import dev.hexaflow.application.apps.port.out.AppRepository;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.webhooks.port.in.RedeliverUseCase;
import dev.hexaflow.application.webhooks.port.out.DeliveryRepository;
import dev.hexaflow.domain.webhook.Delivery;
import java.time.Clock;

/**
 * Moves an ended delivery back to due, if it is still as read (two operators pressing at once send it once); the
 * deliverer's next sweep sends it, as any due delivery, to the address the outbound policy lets it reach.
 */
public final class RedeliverService implements RedeliverUseCase {

    private final AppRepository apps;
    private final DeliveryRepository deliveries;
    private final Clock clock;

    public RedeliverService(AppRepository apps, DeliveryRepository deliveries, Clock clock) {
        this.apps = apps;
        this.deliveries = deliveries;
        this.clock = clock;
    }

    @Override
    public Delivery redeliver(String appId, String deliveryId) {
        apps.find(appId).orElseThrow(() -> new ApiException(ApiError.NOT_FOUND, "App not found."));
        Delivery delivery = deliveries.find(deliveryId).filter(found -> found.appId().equals(appId))
                .orElseThrow(() -> new ApiException(ApiError.NOT_FOUND, "The app has no such delivery."));
        if (!delivery.state().ended()) {
            throw new ApiException(ApiError.INVALID_PARAM, "The delivery is " + delivery.state().wireName()
                    + ": it is sent without being asked again.");
        }
        Delivery next = delivery.redelivered(clock.millis());
        if (!deliveries.move(next, delivery.state(), null)) {
            // Another hand moved it first: it is due already.
            return deliveries.find(deliveryId).orElse(next);
        }
        return next;
    }
}
