package dev.hexaflow.application.webhook.port.in;

import dev.hexaflow.application.webhook.port.out.DeliveryRepository.DeliveryPage;

/** Lists an app's webhook deliveries with their attempts, newest first, a page at a time. */
public interface ListDeliveriesUseCase {

    /** @throws dev.hexaflow.application.app.port.in.ApiException NOT_FOUND for an unknown app */
    DeliveryPage list(DeliveriesQuery query);

    /** A page (1 for the first) of at most {@code limit} (1 to 100) deliveries of an app. */
    record DeliveriesQuery(String appId, int page, int limit) {
    }
}
