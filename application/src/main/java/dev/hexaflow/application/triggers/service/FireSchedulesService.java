package dev.hexaflow.application.triggers.service;

import dev.hexaflow.application.triggers.port.in.FireSchedulesUseCase;
import dev.hexaflow.application.triggers.port.out.CronCalendar;
import dev.hexaflow.application.triggers.port.out.TriggerRepository;
import dev.hexaflow.domain.trigger.MissedTicks;
import dev.hexaflow.domain.trigger.Tick;
import dev.hexaflow.domain.trigger.Trigger;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * Fires the schedules that are due. Every instance polls; for each due tick one of them wins the claim in the store
 * (the schedule's next fire time moves from the tick to the next one after now, so a tick is never fired twice and
 * ticks that passed meanwhile are not replayed). A tick found later than {@code lateAfter} was missed while no
 * instance was up: its schedule's policy skips it (the default) or runs it once (as Dify does), however many.
 */
public final class FireSchedulesService implements FireSchedulesUseCase {

    /** The most due schedules one poll takes; the next poll takes the rest. */
    static final int BATCH = 100;

    private final System.Logger log = System.getLogger(FireSchedulesService.class.getName());
    private final TriggerRepository triggers;
    private final CronCalendar calendar;
    private final TriggerRuns runs;
    private final Clock clock;
    private final Duration lateAfter;

    /**
     * @param lateAfter how late a tick may be found and still be on time: more than an instance's poll interval,
     *                  so that only ticks no instance was up for count as missed
     */
    public FireSchedulesService(TriggerRepository triggers, CronCalendar calendar, TriggerRuns runs, Clock clock,
            Duration lateAfter) {
        this.triggers = triggers;
        this.calendar = calendar;
        this.runs = runs;
        this.clock = clock;
        this.lateAfter = lateAfter;
    }

    @Override
    public int fireDue() {
        Instant now = clock.instant();
        int taken = 0;
        for (Trigger due : triggers.due(now.getEpochSecond(), BATCH)) {
            try {
                if (fire(due, now)) {
                    taken++;
                }
            } catch (RuntimeException e) {
                // One schedule the store fails on must not hold up the others behind it.
                log.log(Level.WARNING, "Schedule " + due.nodeId() + " of app " + due.appId() + " could not fire: "
                        + e);
            }
        }
        return taken;
    }

    private boolean fire(Trigger trigger, Instant now) {
        long dueAt = trigger.nextFireAt();
        long next;
        try {
            next = calendar.next(trigger.schedule(), now).getEpochSecond();
        } catch (IllegalArgumentException e) {
            log.log(Level.WARNING, "Schedule " + trigger.nodeId() + " of app " + trigger.appId() + " cannot be "
                    + "read and stays off until it is published again: " + e.getMessage());
            triggers.save(trigger.withEnabled(false, null));
            return false;
        }
        boolean missed = now.getEpochSecond() - dueAt > lateAfter.toSeconds();
        boolean run = !missed || trigger.missedTicks() == MissedTicks.RUN_ONCE;
        if (!triggers.claim(trigger.id(), dueAt, next, run ? Tick.Outcome.FIRED : Tick.Outcome.SKIPPED,
                now.getEpochSecond())) {
            return false; // another instance took this tick
        }
        if (missed) {
            log.log(Level.INFO, "Schedule " + trigger.nodeId() + " of app " + trigger.appId() + " missed its "
                    + "ticks from " + Instant.ofEpochSecond(dueAt) + " while no instance was up; "
                    + (run ? "running once (missed ticks: run_once)" : "skipped (missed ticks: skip)"));
        }
        if (run) {
            start(trigger, dueAt);
        }
        return true;
    }

    private void start(Trigger trigger, long dueAt) {
        try {
            String runId = runs.start(trigger, Map.of()).runId();
            triggers.ranTick(trigger.id(), dueAt, runId);
        } catch (RuntimeException e) {
            log.log(Level.WARNING, "Schedule " + trigger.nodeId() + " of app " + trigger.appId() + " could not "
                    + "start its run for " + Instant.ofEpochSecond(dueAt) + ": " + e.getMessage());
            triggers.refusedTick(trigger.id(), dueAt);
        }
    }
}
