package dev.hexaflow.adapters.persistence.jdbi;

import dev.hexaflow.application.limits.port.out.LimitCounters;
import java.util.HashMap;
import java.util.Map;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.PreparedBatch;

/**
 * The shared counts in {@code limit_counters} (summed over instances), {@code limit_gauges} (one instance's value
 * now) and {@code limit_exchanges} (when each instance last exchanged, which tells the live from the gone): one
 * transaction per exchange.
 */
public final class JdbiLimitCounters implements LimitCounters {

    private final Jdbi jdbi;
    private final String addTo;

    public JdbiLimitCounters(Jdbi jdbi) {
        this.jdbi = jdbi;
        this.addTo = SqlDialect.of(jdbi).addTo("limit_counters", "amount", "counter_key");
    }

    @Override
    public Totals exchange(String instance, Map<String, Delta> counterDeltas, Map<String, Long> gauges,
            long changedSince, long liveForMillis) {
        return jdbi.inTransaction(handle -> {
            long now = now(handle);
            addCounters(handle, counterDeltas, now);
            replaceGauges(handle, instance, gauges, now);
            Map<String, Long> counters = new HashMap<>();
            handle.createQuery("SELECT counter_key, amount FROM limit_counters WHERE changed_at >= :since")
                    .bind("since", changedSince).map((rs, ctx) -> Map.entry(rs.getString(1), rs.getLong(2)))
                    .forEach(entry -> counters.put(entry.getKey(), entry.getValue()));
            Map<String, Long> others = new HashMap<>();
            handle.createQuery("SELECT g.gauge_key, SUM(g.amount) FROM limit_gauges g JOIN limit_exchanges e "
                    + "ON e.instance = g.instance WHERE g.instance <> :instance AND e.exchanged_at >= :live "
                    + "GROUP BY g.gauge_key").bind("instance", instance).bind("live", now - liveForMillis)
                    .map((rs, ctx) -> Map.entry(rs.getString(1), rs.getLong(2)))
                    .forEach(entry -> others.put(entry.getKey(), entry.getValue()));
            return new Totals(counters, others, now);
        });
    }

    private void addCounters(Handle handle, Map<String, Delta> deltas, long now) {
        if (deltas.isEmpty()) {
            return;
        }
        // Sorted, so that two instances adding to the same counters lock them in one order and never deadlock.
        Map<String, Delta> sorted = new java.util.TreeMap<>(deltas);
        PreparedBatch add = handle.prepareBatch(addTo);
        sorted.forEach((key, delta) -> add.bind(0, delta.amount()).bind(1, key).add());
        add.execute();
        PreparedBatch stamp = handle.prepareBatch("UPDATE limit_counters SET ends_at = :ends_at, changed_at = :now "
                + "WHERE counter_key = :key");
        sorted.forEach((key, delta) -> stamp.bind("ends_at", delta.endsAt()).bind("now", now).bind("key", key)
                .add());
        stamp.execute();
    }

    private static void replaceGauges(Handle handle, String instance, Map<String, Long> gauges, long now) {
        handle.createUpdate("DELETE FROM limit_gauges WHERE instance = :instance").bind("instance", instance)
                .execute();
        PreparedBatch insert = handle.prepareBatch("INSERT INTO limit_gauges (instance, gauge_key, amount) "
                + "VALUES (:instance, :key, :amount)");
        gauges.forEach((key, amount) -> {
            if (amount != 0) {
                insert.bind("instance", instance).bind("key", key).bind("amount", amount).add();
            }
        });
        if (insert.size() > 0) {
            insert.execute();
        }
        handle.createUpdate(SqlDialect.of(jdbi(handle)).upsert("limit_exchanges", "instance",
                "instance, exchanged_at", ":instance, :now")).bind("instance", instance).bind("now", now).execute();
    }

    @Override
    public int forgetEndedBefore(long before) {
        return jdbi.withHandle(handle -> handle.createUpdate("DELETE FROM limit_counters WHERE ends_at < :before")
                .bind("before", before).execute());
    }

    private static Jdbi jdbi(Handle handle) {
        return handle.getJdbi();
    }

    private static long now(Handle handle) {
        return handle.createQuery("SELECT CURRENT_TIMESTAMP").mapTo(java.time.OffsetDateTime.class).one().toInstant()
                .toEpochMilli();
    }
}
