package dev.hexaflow.application.limits.service;

import dev.hexaflow.application.limits.port.out.LimitCounters;
import dev.hexaflow.application.limits.port.out.LimitCounters.Delta;
import dev.hexaflow.application.limits.port.out.LimitCounters.Totals;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * This instance's view of the counts all instances share, read and written in memory on a run's path: a counter's
 * total is the store's at the last exchange plus what was added here since; a gauge is this instance's own value,
 * and {@link #othersGauge} the other live instances' sum at the last exchange. {@link #exchangeWith} (a background
 * task) sends what was added here and reads the others' back.
 */
public final class SharedCounts {

    private final Map<String, AtomicLong> pending = new ConcurrentHashMap<>();
    private final Map<String, Long> endsAt = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> gauges = new ConcurrentHashMap<>();
    /** Deltas sent but not yet in {@link #stored}: still counted, so a total never dips during an exchange. */
    private volatile Map<String, Long> sending = Map.of();
    private volatile Map<String, Long> stored = Map.of();
    private volatile Map<String, Long> storedEndsAt = Map.of();
    private volatile Map<String, Long> othersGauges = Map.of();
    private long changedSince;

    /** Adds {@code amount} to the counter {@code key}, whose period ends at {@code periodEndsAt} (Unix ms). */
    public void add(String key, long amount, long periodEndsAt) {
        endsAt.putIfAbsent(key, periodEndsAt);
        pending.computeIfAbsent(key, k -> new AtomicLong()).addAndGet(amount);
    }

    /** The counter's total over every instance, as far as this one knows. */
    public long total(String key) {
        AtomicLong here = pending.get(key);
        return stored.getOrDefault(key, 0L) + sending.getOrDefault(key, 0L) + (here == null ? 0 : here.get());
    }

    /** This instance's own gauge {@code key} (its active runs of an app, say), to raise and lower. */
    public AtomicLong gauge(String key) {
        return gauges.computeIfAbsent(key, k -> new AtomicLong());
    }

    /** The sum of the other live instances' gauges {@code key} at the last exchange. */
    public long othersGauge(String key) {
        return othersGauges.getOrDefault(key, 0L);
    }

    /**
     * One exchange with the store: what was added here since the last one goes, the totals changed since come
     * back. On failure the deltas are kept for the next exchange, so nothing counted is lost.
     */
    public synchronized void exchangeWith(LimitCounters store, String instance, long liveForMillis) {
        Map<String, Delta> deltas = new HashMap<>();
        Map<String, Long> taken = new HashMap<>();
        pending.forEach((key, count) -> {
            long amount = count.getAndSet(0);
            if (amount != 0) {
                deltas.put(key, new Delta(amount, endsAt.getOrDefault(key, Long.MAX_VALUE)));
                taken.put(key, amount);
            }
        });
        sending = taken;
        Map<String, Long> own = new HashMap<>();
        gauges.forEach((key, value) -> own.put(key, value.get()));
        Totals totals;
        try {
            totals = store.exchange(instance, deltas, own, changedSince, liveForMillis);
        } catch (RuntimeException e) {
            taken.forEach((key, amount) -> pending.computeIfAbsent(key, k -> new AtomicLong()).addAndGet(amount));
            sending = Map.of();
            throw e;
        }
        Map<String, Long> merged = new HashMap<>(stored);
        merged.putAll(totals.counters());
        Map<String, Long> mergedEnds = new HashMap<>(storedEndsAt);
        deltas.forEach((key, delta) -> mergedEnds.put(key, delta.endsAt()));
        merged.keySet().removeIf(key -> mergedEnds.getOrDefault(key, Long.MAX_VALUE) < totals.now());
        stored = Map.copyOf(merged);
        storedEndsAt = Map.copyOf(mergedEnds);
        sending = Map.of();
        othersGauges = Map.copyOf(totals.otherGauges());
        changedSince = totals.now();
        endsAt.keySet().removeIf(key -> endsAt.get(key) < totals.now() && pending.get(key).get() == 0);
        pending.keySet().removeIf(key -> !endsAt.containsKey(key));
    }
}
