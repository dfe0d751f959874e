package dev.hexaflow.adapters.persistence;

import dev.hexaflow.adapters.persistence.jdbi.WriteGate;
import dev.hexaflow.application.common.port.out.StorageHealth;
import java.util.function.Consumer;

/**
 * What watches the store a server runs on: it says when work is to be refused ({@link StorageHealth}), refuses
 * writes while they fail ({@link WriteGate}), and tells when they can be taken again: {@link H2StorageHealth} for
 * H2 in the data directory, {@link PostgresStorageHealth} for a PostgreSQL server.
 */
public interface StorageWatch extends StorageHealth, WriteGate, AutoCloseable {

    /** Runs {@code action} with the reason each time writes recover from failing, before new ones are taken. */
    void onRecovered(Consumer<String> action);

    @Override
    void close();
}
