package dev.hexaflow.application.app.service;

import dev.hexaflow.application.app.port.in.CheckStorageUseCase;
import dev.hexaflow.application.app.port.out.StorageHealth;
import dev.hexaflow.application.common.StorageUnavailableException;
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
