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

    /**
     * Claims a once-in-the-database's-life step (such as the server's first start): true for the one caller that
     * claims it, false for every caller after.
     */
    default boolean claimOnce(String step, long epochSecond) {
        return InsertIfAbsent.insert(jdbi(), "server_state", "name", "claimed_at", step, epochSecond);
    }

    /**
     * Claims a step for {@code instance} where instances share the store, until {@code done} is claimed: true for
     * the one caller that claims it first, and for the one that takes it over from an instance whose lease lapsed
     * (renewed before {@code leaseCutoff}, in the store's milliseconds, or gone) before it claimed {@code done}.
     */
    default boolean claimFor(String step, String done, String instance, long epochSecond, long leaseCutoff) {
        java.util.Map<String, Object> claim = new java.util.LinkedHashMap<>();
        claim.put("claimed_at", epochSecond);
        claim.put("claimed_by", instance);
        if (InsertIfAbsent.insert(jdbi(), "server_state", "name", step, claim)) {
            return true;
        }
        return jdbi().withHandle(handle -> handle.createUpdate("UPDATE server_state SET claimed_by = :instance, "
                + "claimed_at = :at WHERE name = :step AND claimed_by IS NOT NULL AND claimed_by <> :instance AND "
                + "claimed_by NOT IN (SELECT id FROM instance_lease WHERE renewed_at >= :cutoff) AND NOT EXISTS "
                + "(SELECT 1 FROM server_state WHERE name = :done)").bind("instance", instance).bind("at", epochSecond)
                .bind("step", step).bind("cutoff", leaseCutoff).bind("done", done).execute()) == 1;
    }

    /** Gives back a step {@code instance} claimed ({@link #claimFor}) whose work did not complete. */
    default void unclaim(String step, String instance) {
        jdbi().useHandle(handle -> handle.createUpdate("DELETE FROM server_state WHERE name = :name AND claimed_by = "
                + ":instance").bind("name", step).bind("instance", instance).execute());
    }
}
