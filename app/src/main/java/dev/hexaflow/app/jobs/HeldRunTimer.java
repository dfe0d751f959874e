package dev.hexaflow.app.jobs;

import dev.hexaflow.application.runs.service.HeldRecords;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the records of blocking runs held past their hold: a blocking run's records are held until it ends, so that
 * a short run is written once; a long one is kept by this timer at most {@link #CHECK_EVERY} after its hold is over.
 */
public final class HeldRunTimer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(HeldRunTimer.class);
    /** How often held runs are looked at. */
    static final Duration CHECK_EVERY = Duration.ofMillis(50);

    private final HeldRecords held;
    private final ScheduledExecutorService timer = DaemonThreads.scheduler("hexaflow-hold");

    public HeldRunTimer(HeldRecords held) {
        this.held = held;
    }

    public void start() {
        timer.scheduleWithFixedDelay(() -> {
            try {
                held.keepOverdue();
            } catch (Throwable e) {
                // Caught whole: a task that throws is never run again by its executor.
                LOG.warn("Keeping the records of long blocking runs failed: {}", e.toString());
            }
        }, CHECK_EVERY.toMillis(), CHECK_EVERY.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Stops the timer and keeps every record still held, so that closing loses none. */
    @Override
    public void close() {
        timer.shutdownNow();
        held.keepAll();
    }
}
