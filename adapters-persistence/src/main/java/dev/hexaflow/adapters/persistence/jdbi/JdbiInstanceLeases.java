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
    public void renew(String instance, long now) {
        jdbi.useHandle(handle -> {
            // An update first: after the first renewal there is a row, and an insert would fail on every one after.
            int renewed = handle.createUpdate("UPDATE instance_lease SET renewed_at = :now WHERE id = :id")
                    .bind("now", now).bind("id", instance).execute();
            if (renewed == 0) {
                handle.createUpdate("INSERT INTO instance_lease (id, started_at, renewed_at) VALUES (:id, :now, "
                        + ":now)").bind("now", now).bind("id", instance).execute();
            }
        });
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
