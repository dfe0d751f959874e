package dev.hexaflow.application.common;

import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.common.StorageUnavailableException;
import dev.hexaflow.application.common.port.out.StorageHealth;

/**
 * New work that the store could not keep is refused before it starts, as 507 with the store's reason; work that
 * failed because the database could not be reached, as 503 (the next request tries it again).
 */
public final class StorageRefusals {

    private StorageRefusals() {
    }

    public static void requireRoom(StorageHealth storage) {
        storage.problem().ifPresent(problem -> {
            throw refused(problem);
        });
    }

    public static ApiException refused(StorageUnavailableException e) {
        if (e.kind() == StorageUnavailableException.Kind.UNREACHABLE) {
            return new ApiException(ApiError.SERVICE_UNAVAILABLE, e.getMessage(), e);
        }
        return new ApiException(ApiError.INSUFFICIENT_STORAGE, e.getMessage());
    }
}
