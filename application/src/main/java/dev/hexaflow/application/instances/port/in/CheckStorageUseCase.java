package dev.hexaflow.application.instances.port.in;

import dev.hexaflow.application.common.StorageUnavailableException;
import java.util.Optional;

/**
 * Tells whether the store can take new work now, for the health probes: empty while it can, else why not; and
 * whether a request failed because the store could not be reached, for its answer.
 */
public interface CheckStorageUseCase {

    /** A store nobody watches (in memory, or in tests): always able to take work. */
    CheckStorageUseCase UNWATCHED = Optional::empty;

    Optional<StorageUnavailableException> problem();

    /** The store's being out of reach behind a request's failure, or empty when the failure was something else. */
    default Optional<StorageUnavailableException> unavailableBehind(Throwable failure) {
        return Optional.empty();
    }
}
