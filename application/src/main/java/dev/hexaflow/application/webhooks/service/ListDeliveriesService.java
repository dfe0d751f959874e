package dev.hexaflow.application.webhooks.service;

import dev.hexaflow.application.apps.port.out.AppRepository;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.webhooks.port.in.ListDeliveriesUseCase;
import dev.hexaflow.application.webhooks.port.out.DeliveryRepository.DeliveryRecord;
import dev.hexaflow.application.webhooks.port.out.DeliveryRepository;

/** An app's deliveries, a page of 1 to 100 at a time. */
public final class ListDeliveriesService implements ListDeliveriesUseCase {

    private static final int MAX_LIMIT = 100;

    private final AppRepository apps;
    private final DeliveryRepository deliveries;

    public ListDeliveriesService(AppRepository apps, DeliveryRepository deliveries) {
        this.apps = apps;
        this.deliveries = deliveries;
    }

    @Override
    public DeliveryPage list(DeliveriesQuery query) {
        if (apps.find(query.appId()).isEmpty()) {
            throw new ApiException(ApiError.NOT_FOUND, "App not found.");
        }
        if (query.page() < 1 || query.limit() < 1 || query.limit() > MAX_LIMIT) {
            throw new ApiException(ApiError.INVALID_PARAM, "page must be 1 or more and limit 1 to " + MAX_LIMIT);
        }
        DeliveryRepository.DeliveryPage page = deliveries.list(query.appId(), query.page(), query.limit());
        return new DeliveryPage(page.page(), page.limit(), page.total(), page.hasMore(),
                page.items().stream().map(ListDeliveriesService::withAttempts).toList());
    }

    private static DeliveryWithAttempts withAttempts(DeliveryRecord record) {
        return new DeliveryWithAttempts(record.delivery(), record.attempts());
    }
}
