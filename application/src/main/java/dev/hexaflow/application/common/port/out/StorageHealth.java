package dev.hexaflow.application.common.port.out;

import dev.hexaflow.application.common.StorageUnavailableException;
import java.util.Optional;

/** Whether the store can take new work now: empty while it can, otherwise what stops it and why. */
@FunctionalInterface
public interface StorageHealth {

    Optional<StorageUnavailableException> problem();

    /**
     * The store's being out of reach behind a failed piece of work (a database server that refused or ended the
     * connection), or empty when the failure was something else, the work's own mistake included.
     */
    default Optional<StorageUnavailableException> unavailableBehind(Throwable failure) {
        return Optional.empty();
    }

    /** A store nobody watches (in memory, or in tests): always able to take work. */
    StorageHealth UNWATCHED = Optional::empty;
}
