package dev.hexaflow.application.webhooks.port.in;

import dev.hexaflow.domain.webhook.Delivery;

/** Sends an ended delivery of a run's end again, by an operator's hand: a receiver that lost it gets it anew. */
public interface RedeliverUseCase {

    /**
     * Makes the delivery due at once, with a new day of retries; answers it as it is now.
     *
     * @throws dev.hexaflow.application.common.ApiException NOT_FOUND for an unknown app or a delivery not of
     *     this app, INVALID_PARAM for one that has not ended (it is sent anyway)
     */
    Delivery redeliver(String appId, String deliveryId);
}
