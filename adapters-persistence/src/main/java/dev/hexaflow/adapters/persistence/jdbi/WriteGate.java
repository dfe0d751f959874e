package dev.hexaflow.adapters.persistence.jdbi;

import dev.hexaflow.application.common.StorageUnavailableException;

/**
 * What the writers ask before they write and tell when a write failed: while writes are failing, a write is
 * refused at once rather than tried on a database that closed itself (or could not keep it).
 */
public interface WriteGate {

    /** @throws StorageUnavailableException while writes are failing */
    void check();

    /**
     * A write failed with {@code e}: answers the refusal to give its waiters when the failure was the store's
     * (the disk, a closed database), or null when it was the change's own.
     */
    StorageUnavailableException failed(Throwable e);

    /** Changes each time the database is opened again: a writer holding a connection of an older one drops it. */
    int generation();

    /**
     * Whether a writer gives its connection back to the pool when it has had nothing to write for a moment: yes for
     * a database server, whose connections die with its restart and are tested by the pool as it lends them; no for
     * H2 in the data directory, whose connections die only with the database, which a held one must see closed
     * (a new one would open it again unnoticed).
     */
    default boolean releasesIdleConnections() {
        return false;
    }

    /** A gate that never refuses: for a store nobody watches. */
    WriteGate OPEN = new WriteGate() {
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
    };
}
