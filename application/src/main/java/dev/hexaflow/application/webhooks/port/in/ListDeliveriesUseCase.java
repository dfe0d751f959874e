package dev.hexaflow.application.webhooks.port.in;

import dev.hexaflow.domain.webhook.Delivery;
import dev.hexaflow.domain.webhook.DeliveryAttempt;
import java.util.List;

/** Lists an app's webhook deliveries with their attempts, newest first, a page at a time. */
public interface ListDeliveriesUseCase {

    /**
     * @throws dev.hexaflow.application.common.ApiException NOT_FOUND for an unknown app, INVALID_PARAM for a
     *     page below 1 or a limit outside 1 to 100
     */
    DeliveryPage list(DeliveriesQuery query);

    /** A page (1 for the first) of at most {@code limit} deliveries of an app. */
    record DeliveriesQuery(String appId, int page, int limit) {
    }

    record DeliveryPage(int page, int limit, long total, boolean hasMore, List<DeliveryWithAttempts> items) {
    }

    /** A delivery with its attempts, first first. */
    record DeliveryWithAttempts(Delivery delivery, List<DeliveryAttempt> attempts) {
    }
}
