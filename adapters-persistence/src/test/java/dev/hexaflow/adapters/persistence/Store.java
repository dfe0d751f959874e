package dev.hexaflow.adapters.persistence;

import java.util.UUID;

/**
 * The databases the Jdbi repositories run on, as the parameter of the test classes that hold them all to the same
 * tests ({@code @ParameterizedClass @EnumSource(Store.class)}): each test opens a store of its own, empty and
 * migrated, and closes it after.
 *
 * <p>{@link #POSTGRESQL} is the JVM's {@link PostgresCluster}, started on first use: without PostgreSQL's binaries
 * the PostgreSQL run of each test is skipped (failed where {@code CI=true}) while the H2 run goes on.
 */
enum Store {

    /** A private in-memory H2, migrated by {@code db/migration} and {@code db/common}, gone when closed. */
    H2("H2") {
        @Override
        Database open() {
            return H2Database.openInMemory("contract-" + UUID.randomUUID());
        }
    },

    /**
     * The scratch database of a real PostgreSQL 15, migrated by {@code db/postgresql} and {@code db/common} and
     * emptied for each test; closing it does nothing.
     */
    POSTGRESQL("PostgreSQL") {
        @Override
        Database open() {
            return PostgresCluster.get().emptyDatabase();
        }
    };

    private final String label;

    Store(String label) {
        this.label = label;
    }

    /** A store for one test, empty and migrated; the test closes it. */
    abstract Database open();

    @Override
    public String toString() {
        return label;
    }
}
