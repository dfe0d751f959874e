package dev.hexaflow.application.limits.port.out;

import java.util.Map;

/**
 * The counts every instance of one store shares, kept in the store. Exchanged by a background task every sync
 * interval, never on a run's path: the error of a limit across instances is what the others counted in one
 * interval.
 *
 * <p>Counters only grow (tokens and price spent in a period: the key names the period, e.g. {@code
 * tokens|app|<id>|day|2026-11-28}) and are summed over instances; gauges are one instance's value now (its active
 * runs, by key), and only live instances' gauges count.
 */
public interface LimitCounters {

    /**
     * Adds this instance's counter deltas since its last exchange, replaces its gauges with {@code gauges} (a key
     * missing is 0), and answers the totals: every counter changed at or after {@code changedSince} (the store's
     * time in Unix milliseconds; 0 for all live ones), and per key the sum of the gauges of the other instances
     * that exchanged within the last {@code liveForMillis} (an instance that stopped exchanging has died, and its
     * gauges no longer count).
     */
    Totals exchange(String instance, Map<String, Delta> counterDeltas, Map<String, Long> gauges, long changedSince,
            long liveForMillis);

    /** What to add to a counter, and when its period ends (Unix milliseconds), after which it may be forgotten. */
    record Delta(long amount, long endsAt) {
    }

    /**
     * @param now the store's time (Unix milliseconds) the totals were read at: the next exchange's {@code
     *            changedSince}
     */
    record Totals(Map<String, Long> counters, Map<String, Long> otherGauges, long now) {
    }

    /** Forgets counters whose period ended before {@code before} (Unix milliseconds). */
    int forgetEndedBefore(long before);
}
