package dev.hexaflow.adapters.persistence;

import dev.hexaflow.adapters.persistence.jdbi.WriteGate;
import dev.hexaflow.application.app.port.out.StorageHealth;
import dev.hexaflow.application.common.StorageUnavailableException;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * What watches the store a server runs on: it says when work is to be refused ({@link StorageHealth}), refuses
 * writes while they fail ({@link WriteGate}), and tells when they can be taken again.
 */
public interface StorageWatch extends StorageHealth, WriteGate, AutoCloseable {

    /** Runs {@code action} with the reason each time writes recover from failing, before new ones are taken. */
    void onRecovered(Consumer<String> action);

    @Override
    void close();

    /**
     * No watch: for a PostgreSQL server, whose disk is not this process's to watch and which stays open when a
     * write fails (a failed statement fails alone; a lost connection is replaced by the pool).
     */
    StorageWatch NONE = new StorageWatch() {
        @Override
        public void onRecovered(Consumer<String> action) {
        }

        @Override
        public Optional<StorageUnavailableException> problem() {
            return Optional.empty();
        }

        @Override
        public void check() {
        }

        @Override
        public StorageUnavailableException failed(Throwable e) {
            return null;
        }

        @Override
        public int generation() {
            return 0;
        }

        @Override
        public void close() {
        }
    };
}
