package dev.hexaflow.application.app.port.in;

import dev.hexaflow.application.common.StorageUnavailableException;
import java.util.Optional;

/** Tells whether the store can take new work now, for the health probes: empty while it can, else why not. */
public interface CheckStorageUseCase {

    /** A store nobody watches (in memory, or in tests): always able to take work. */
    CheckStorageUseCase UNWATCHED = Optional::empty;

    Optional<StorageUnavailableException> problem();
}
