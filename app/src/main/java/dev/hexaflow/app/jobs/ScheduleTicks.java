package dev.hexaflow.app.jobs;

import dev.hexaflow.application.triggers.port.in.FireSchedulesUseCase;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every poll interval, fires the schedules that are due: on every instance, since the store lets one of them claim
 * each tick (Dify's poller runs once a minute from one Celery beat; here no instance is special).
 */
public final class ScheduleTicks implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ScheduleTicks.class);

    private final FireSchedulesUseCase schedules;
    private final Duration every;
    private final ScheduledExecutorService timer = DaemonThreads.scheduler("hexaflow-schedule-ticks");

    public ScheduleTicks(FireSchedulesUseCase schedules, Duration every) {
        this.schedules = schedules;
        this.every = every;
    }

    /** The first poll comes at once, so that a tick missed while the server was down is handled on start. */
    public void start() {
        timer.scheduleWithFixedDelay(this::poll, 0, every.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** One poll; a failure waits for the next one, which finds the same ticks still due. */
    void poll() {
        try {
            schedules.fireDue();
        } catch (RuntimeException | StackOverflowError e) {
            // Anything thrown out of a poll would end the timer's repetition: no schedule would fire here again.
            LOG.warn("Firing due schedules failed; the next try is in {} s: {}", every.toSeconds(), e.toString());
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
