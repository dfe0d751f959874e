package dev.hexaflow.application.runs.service;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The runs whose records are held in memory: a run nobody listens to (a blocking run) is kept in one write at its
 * end rather than in a write per event, unless it goes on past {@link #HOLD}; then {@link #keepOverdue}, which a
 * timer calls, keeps what it has done so far, and it is kept as it goes from there on. So a short run costs the
 * store one row per table, and a long one shows in the logs, running, within a quarter second of its start; a
 * crash loses only what is held: a run in its first quarter second, whose client had no answer either.
 */
public final class HeldRecords {

    /** How long a run's records may be held before they are kept. */
    public static final Duration HOLD = Duration.ofMillis(200);

    private final Map<RunRecorder, Long> held = new ConcurrentHashMap<>();
    private final LongSupplier nanos;

    public HeldRecords() {
        this(System::nanoTime);
    }

    HeldRecords(LongSupplier nanos) {
        this.nanos = nanos;
    }

    void hold(RunRecorder recorder) {
        held.put(recorder, nanos.getAsLong());
    }

    void release(RunRecorder recorder) {
        held.remove(recorder);
    }

    /** Keeps the records of every run held longer than {@link #HOLD}; answers how many it kept. */
    public int keepOverdue() {
        return keepHeldLongerThan(HOLD);
    }

    /** Keeps the records of every run held now, as the server stops; answers how many it kept. */
    public int keepAll() {
        return keepHeldLongerThan(Duration.ZERO);
    }

    private int keepHeldLongerThan(Duration hold) {
        long now = nanos.getAsLong();
        int kept = 0;
        for (Map.Entry<RunRecorder, Long> run : held.entrySet()) {
            if (now - run.getValue() >= hold.toNanos()) {
                run.getKey().keepHeld();
                kept++;
            }
        }
        return kept;
    }

    /** How many runs' records are held now. */
    public int size() {
        return held.size();
    }
}
