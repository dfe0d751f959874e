package dev.hexaflow.adapters.persistence.jdbi;

import dev.hexaflow.application.instances.port.out.InstanceLeases;
import org.jdbi.v3.core.Jdbi;

/** Leases in {@code instance_lease}, one row an instance, renewed by an update (or an insert, the first time). */
public final class JdbiInstanceLeases implements InstanceLeases {

    private final Jdbi jdbi;

    public JdbiInstanceLeases(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    @Override
    public long now() {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT CURRENT_TIMESTAMP")
                .mapTo(java.time.OffsetDateTime.class).one()).toInstant().toEpochMilli();
    }

    @Override
    public boolean renew(String instance, long now, long cutoff, Served served) {
        String machine = served == null ? null : served.machine();
        String origin = served == null ? null : served.origin();
        return jdbi.withHandle(handle -> {
            // An update first: after the first renewal there is a row, and an insert would fail on every one after.
            int renewed = handle.createUpdate("UPDATE instance_lease SET renewed_at = :now, machine = :machine, "
                    + "origin = :origin WHERE id = :id AND renewed_at >= :cutoff").bind("now", now)
                    .bind("machine", machine).bind("origin", origin).bind("id", instance).bind("cutoff", cutoff)
                    .execute();
            if (renewed > 0) {
                return true;
            }
            // Run out but not forgotten yet: taken anew, and not held (its runs may be failed already).
            int lapsed = handle.createUpdate("UPDATE instance_lease SET started_at = :now, renewed_at = :now, "
                    + "machine = :machine, origin = :origin WHERE id = :id").bind("now", now)
                    .bind("machine", machine).bind("origin", origin).bind("id", instance).execute();
            if (lapsed == 0) {
                handle.createUpdate("INSERT INTO instance_lease (id, started_at, renewed_at, machine, origin) VALUES "
                        + "(:id, :now, :now, :machine, :origin)").bind("now", now).bind("machine", machine)
                        .bind("origin", origin).bind("id", instance).execute();
            }
            return false;
        });
    }

    @Override
    public java.util.List<Served> served(long cutoff) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT machine, origin FROM instance_lease WHERE "
                + "renewed_at >= :cutoff AND origin IS NOT NULL ORDER BY origin").bind("cutoff", cutoff)
                .map((rs, ctx) -> new Served(rs.getString("machine"), rs.getString("origin"))).list());
    }

    @Override
    public java.util.List<Lease> leases() {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT * FROM instance_lease ORDER BY started_at, id")
                .map((rs, ctx) -> new Lease(rs.getString("id"), rs.getLong("started_at"), rs.getLong("renewed_at"),
                        rs.getString("machine"), rs.getString("origin"))).list());
    }

    @Override
    public void release(String instance) {
        jdbi.useHandle(handle -> handle.createUpdate("DELETE FROM instance_lease WHERE id = :id")
                .bind("id", instance).execute());
    }

    @Override
    public boolean anyLapsed(long cutoff) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT COUNT(*) FROM instance_lease WHERE renewed_at < "
                + ":cutoff").bind("cutoff", cutoff).mapTo(Integer.class).one()) > 0;
    }

    @Override
    public int forgetLapsed(long cutoff) {
        return jdbi.withHandle(handle -> handle.createUpdate("DELETE FROM instance_lease WHERE renewed_at < :cutoff")
                .bind("cutoff", cutoff).execute());
    }
}
