package dev.hexaflow.application.knowledge.service;

import dev.hexaflow.application.common.StorageUnavailableException;
import dev.hexaflow.application.common.port.out.StorageHealth;

/**
 * A knowledge write is new work, refused while the store cannot take it (its disk nearly full, or writes to it
 * failing) as new runs and uploads are: before anything is kept, with the store's reason, which the API answers
 * as 507.
 */
final class StorageRoom {

    private StorageRoom() {
    }

    /** @throws StorageUnavailableException while the store takes no new work */
    static void require(StorageHealth storage) {
        storage.problem().ifPresent(problem -> {
            throw new StorageUnavailableException(problem.kind(), problem.getMessage());
        });
    }
}
