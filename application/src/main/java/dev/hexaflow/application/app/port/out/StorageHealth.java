package dev.hexaflow.application.app.port.out;

import dev.hexaflow.application.common.StorageUnavailableException;
import java.util.Optional;

/** Whether the store can take new work now: empty while it can, otherwise what stops it and why. */
@FunctionalInterface
public interface StorageHealth {

    Optional<StorageUnavailableException> problem();

    /** A store nobody watches (in memory, or in tests): always able to take work. */
    StorageHealth UNWATCHED = Optional::empty;
}
