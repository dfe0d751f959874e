package dev.hexaflow.application.instances.service;

import dev.hexaflow.application.common.StorageUnavailableException;
import dev.hexaflow.application.common.port.out.StorageHealth;
import dev.hexaflow.application.instances.port.in.CheckStorageUseCase;
import java.util.Optional;

/** The store's own report of its health, as the probes ask for it. */
public final class CheckStorageService implements CheckStorageUseCase {

    private final StorageHealth storage;

    public CheckStorageService(StorageHealth storage) {
        this.storage = storage;
    }

    @Override
    public Optional<StorageUnavailableException> problem() {
        return storage.problem();
    }

    @Override
    public Optional<StorageUnavailableException> unavailableBehind(Throwable failure) {
        return storage.unavailableBehind(failure);
    }
}
