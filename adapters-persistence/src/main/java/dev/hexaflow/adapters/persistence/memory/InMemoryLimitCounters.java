package dev.hexaflow.adapters.persistence.memory;

import dev.hexaflow.application.limits.port.out.LimitCounters;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/** The shared counts in memory, for instances in one process: what {@code JdbiLimitCounters} keeps in the store. */
public final class InMemoryLimitCounters implements LimitCounters {

    private record Counter(long amount, long endsAt, long changedAt) {
    }

    private final Map<String, Counter> counters = new HashMap<>();
    private final Map<String, Map<String, Long>> gauges = new HashMap<>();
    private final Map<String, Long> exchanged = new HashMap<>();
    private final LongSupplier clock;

    /** @param clock the store's time, in Unix milliseconds */
    public InMemoryLimitCounters(LongSupplier clock) {
        this.clock = clock;
    }

    @Override
    public synchronized Totals exchange(String instance, Map<String, Delta> counterDeltas, Map<String, Long> gauges,
            long changedSince, long liveForMillis) {
        long now = clock.getAsLong();
        counterDeltas.forEach((key, delta) -> counters.merge(key, new Counter(delta.amount(), delta.endsAt(), now),
                (old, add) -> new Counter(old.amount() + add.amount(), add.endsAt(), now)));
        this.gauges.put(instance, Map.copyOf(gauges));
        exchanged.put(instance, now);
        Map<String, Long> changed = new HashMap<>();
        counters.forEach((key, counter) -> {
            if (counter.changedAt() >= changedSince) {
                changed.put(key, counter.amount());
            }
        });
        Map<String, Long> others = new HashMap<>();
        this.gauges.forEach((other, values) -> {
            if (!other.equals(instance) && exchanged.get(other) >= now - liveForMillis) {
                values.forEach((key, amount) -> others.merge(key, amount, Long::sum));
            }
        });
        return new Totals(changed, others, now);
    }

    @Override
    public synchronized int forgetEndedBefore(long before) {
        int size = counters.size();
        counters.values().removeIf(counter -> counter.endsAt() < before);
        return size - counters.size();
    }
}
