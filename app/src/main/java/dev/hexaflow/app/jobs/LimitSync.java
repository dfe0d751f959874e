package dev.hexaflow.app.jobs;

import dev.hexaflow.application.limits.port.out.LimitCounters;
import dev.hexaflow.application.limits.service.ManageLimitsService;
import dev.hexaflow.application.limits.service.SharedCounts;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The background exchange of this instance's counts with the store, every {@code every}: the only store round
 * trip limits make, off every run's path. What the other instances counted in one interval is the limits' error
 * across instances. The apps' limits are read again every {@link #RELOAD_EVERY} exchanges.
 */
public final class LimitSync implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LimitSync.class);
    /** Exchanges between two readings of the apps' limits. */
    static final int RELOAD_EVERY = 4;
    /** Days after its period ends that a counter is kept (what the admin API may still show of yesterday). */
    private static final long KEEP_ENDED_MILLIS = Duration.ofDays(40).toMillis();

    private final SharedCounts counts;
    private final LimitCounters store;
    private final ManageLimitsService limits;
    private final String instance;
    private final Duration every;
    private final ScheduledExecutorService timer;
    private long ticks;
    private volatile boolean failing;
    private volatile boolean started;

    public LimitSync(SharedCounts counts, LimitCounters store, ManageLimitsService limits, String instance,
            Duration every) {
        this.counts = counts;
        this.store = store;
        this.limits = limits;
        this.instance = instance;
        this.every = every;
        this.timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "hexaflow-limit-sync");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Exchanges once now (so that counts kept before a restart hold from the first run), then every interval. */
    public LimitSync start() {
        started = true;
        exchange();
        timer.scheduleWithFixedDelay(this::exchange, every.toMillis(), every.toMillis(), TimeUnit.MILLISECONDS);
        return this;
    }

    /** One exchange: what this instance counted goes to the store, the others' counts come back. */
    public void exchange() {
        try {
            counts.exchangeWith(store, instance, liveFor());
            if (++ticks % RELOAD_EVERY == 0) {
                limits.reload();
                store.forgetEndedBefore(System.currentTimeMillis() - KEEP_ENDED_MILLIS);
            }
            if (failing) {
                failing = false;
                LOG.info("Limits: the exchange of counts with the store works again");
            }
        } catch (RuntimeException e) {
            if (!failing) {
                failing = true;
                LOG.warn("Limits: could not exchange counts with the store ({}); limits hold on this instance's "
                        + "counts until it can", e.getClass().getSimpleName());
            }
        }
    }

    /** An instance that missed this many exchanges has stopped: ten intervals, at least ten seconds. */
    private long liveFor() {
        return Math.max(10_000, every.toMillis() * 10);
    }

    @Override
    public void close() {
        timer.shutdownNow();
        if (started) {
            exchange(); // what was counted since the last exchange is kept
        }
    }
}
