package dev.hexaflow.application.app.service;

import dev.hexaflow.application.app.port.out.StorageHealth;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.common.StorageUnavailableException;

/**
 * New work that the store could not keep is refused before it starts, as 507 with the store's reason; work that
 * failed because the database could not be reached, as 503 (the next request tries it again).
 */
final class StorageRefusals {

    private StorageRefusals() {
    }

    static void requireRoom(StorageHealth storage) {
        storage.problem().ifPresent(problem -> {
            throw refused(problem);
        });
    }

    static ApiException refused(StorageUnavailableException e) {
        if (e.kind() == StorageUnavailableException.Kind.UNREACHABLE) {
            return new ApiException(ApiError.SERVICE_UNAVAILABLE, e.getMessage(), e);
        }
        return new ApiException(ApiError.INSUFFICIENT_STORAGE, e.getMessage());
    }
}
