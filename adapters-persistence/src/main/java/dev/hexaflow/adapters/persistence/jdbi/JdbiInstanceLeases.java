package dev.hexaflow.adapters.persistence.jdbi;

import dev.hexaflow.application.app.port.out.InstanceLeases;
import org.jdbi.v3.core.Jdbi;

/** Leases in {@code instance_lease}, one row an instance, renewed by an update (or an insert, the first time). */
public final class JdbiInstanceLeases implements InstanceLeases {

    private final Jdbi jdbi;

    public JdbiInstanceLeases(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    @Override
    public void renew(String instance, long now, String origin) {
        jdbi.useHandle(handle -> {
            // An update first: after the first renewal there is a row, and an insert would fail on every one after.
            int renewed = handle.createUpdate("UPDATE instance_lease SET renewed_at = :now, origin = :origin WHERE "
                    + "id = :id").bind("now", now).bind("origin", origin).bind("id", instance).execute();
            if (renewed == 0) {
                handle.createUpdate("INSERT INTO instance_lease (id, started_at, renewed_at, origin) VALUES (:id, "
                        + ":now, :now, :origin)").bind("now", now).bind("origin", origin).bind("id", instance)
                        .execute();
            }
        });
    }

    @Override
    public java.util.List<String> origins(long cutoff) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT origin FROM instance_lease WHERE renewed_at >= "
                + ":cutoff AND origin IS NOT NULL ORDER BY origin").bind("cutoff", cutoff).mapTo(String.class)
                .list());
    }

    @Override
    public void release(String instance) {
        jdbi.useHandle(handle -> handle.createUpdate("DELETE FROM instance_lease WHERE id = :id")
                .bind("id", instance).execute());
    }

    @Override
    public int forgetLapsed(long cutoff) {
        return jdbi.withHandle(handle -> handle.createUpdate("DELETE FROM instance_lease WHERE renewed_at < :cutoff")
                .bind("cutoff", cutoff).execute());
    }
}
