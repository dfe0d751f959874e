package dev.hexaflow.adapters.persistence;

import dev.hexaflow.adapters.persistence.jdbi.InsertIfAbsent;
import javax.sql.DataSource;
import org.jdbi.v3.core.Jdbi;

/**
 * The relational store the Jdbi repositories run on, migrated and ready: the embedded {@link H2Database} or a
 * {@link PostgresDatabase} server. Its Jdbi carries the {@link dev.hexaflow.adapters.persistence.jdbi.SqlDialect}
 * the repositories write in.
 */
public interface Database extends AutoCloseable {

    Jdbi jdbi();

    DataSource dataSource();

    /** Lets the connections go; closing again does nothing. */
    @Override
    void close();

    /** Whether a once-in-the-database's-life step was claimed (see {@link #claimOnce}). */
    default boolean claimed(String step) {
        return jdbi().withHandle(handle -> handle.createQuery("SELECT COUNT(*) FROM server_state WHERE name = :name")
                .bind("name", step).mapTo(Integer.class).one()) > 0;
    }

    /** Gives back a step claimed ({@link #claimOnce}) whose work did not complete. */
    default void unclaim(String step) {
        jdbi().useHandle(handle -> handle.createUpdate("DELETE FROM server_state WHERE name = :name")
                .bind("name", step).execute());
    }

    /**
     * Claims a once-in-the-database's-life step (such as the server's first start): true for the one caller that
     * claims it, false for every caller after.
     */
    default boolean claimOnce(String step, long epochSecond) {
        return InsertIfAbsent.insert(jdbi(), "server_state", "name", "claimed_at", step, epochSecond);
    }
}
