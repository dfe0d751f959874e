package dev.hexaflow.application.triggers;

import static dev.hexaflow.application.triggers.TriggerBed.cron;
import static dev.hexaflow.application.triggers.TriggerBed.epoch;
import static dev.hexaflow.application.triggers.TriggerBed.orderHook;
import static dev.hexaflow.application.triggers.TriggerBed.workflow;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunWorkflowCommand;
import dev.hexaflow.application.triggers.service.FireSchedulesService;
import dev.hexaflow.application.triggers.service.TriggerRuns;
import dev.hexaflow.domain.trigger.MissedTicks;
import dev.hexaflow.domain.trigger.ScheduleSpec;
import dev.hexaflow.domain.trigger.Tick;
import dev.hexaflow.domain.trigger.Trigger;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Firing due schedules: a due tick starts one run from its schedule, with no inputs, and is kept with the run it
 * started; the schedule moves to its first tick after now; a tick is fired once however often it is polled; ticks
 * found late (no instance was up) are skipped or run once by the schedule's policy; a schedule that is off never
 * fires; a refused run leaves a refused tick and the next tick fires as usual.
 */
class FireSchedulesServiceTest {

    private final TriggerBed bed = new TriggerBed();
    private final FireSchedulesService schedules = bed.fireSchedules();

    /** An app whose schedule fires daily at 09:00 UTC, published at 08:00. */
    private String dailyAtNine() {
        return bed.importApp("daily", workflow(cron("sched", "0 9 * * *", "UTC"), orderHook("hook")));
    }

    /** An app whose schedule fires every ten minutes, published at 08:00 (first tick 08:10). */
    private String everyTenMinutes() {
        return bed.importApp("ten", workflow(cron("sched", "*/10 * * * *", "UTC")));
    }

    private Trigger schedule(String app) {
        return bed.trigger(app, "sched");
    }

    @Test
    void aDueTickStartsOneRunFromTheScheduleWithNoInputs() {
        String app = dailyAtNine();
        bed.clock.advance(Duration.ofSeconds(3620)); // 09:00:20

        assertThat(schedules.fireDue()).isEqualTo(1);

        RunWorkflowCommand run = bed.started.get(0);
        assertThat(bed.started).hasSize(1);
        assertThat(run.appId()).isEqualTo(app);
        assertThat(run.triggerNodeId()).isEqualTo("sched");
        assertThat(run.inputs()).isEmpty();
        assertThat(run.workflowId()).as("the app's newest version").isNull();
        assertThat(run.user()).isEqualTo("schedule-trigger");
    }

    @Test
    void aFiredTickIsKeptWithItsRunAndTheScheduleMovesToItsFirstTickAfterNow() {
        String app = dailyAtNine();
        bed.clock.advance(Duration.ofSeconds(3620));

        schedules.fireDue();

        Trigger fired = schedule(app);
        assertThat(bed.triggers.ticks(fired.id(), 10)).containsExactly(new Tick(fired.id(),
                epoch("2026-03-02T09:00:00Z"), epoch("2026-03-02T09:00:20Z"), Tick.Outcome.FIRED, "run-1"));
        assertThat(fired.nextFireAt()).isEqualTo(epoch("2026-03-03T09:00:00Z"));
    }

    @Test
    void aScheduleNotYetDueFiresNothing() {
        String app = dailyAtNine();
        bed.clock.advance(Duration.ofSeconds(3599)); // 08:59:59

        assertThat(schedules.fireDue()).isZero();

        assertThat(bed.started).isEmpty();
        assertThat(bed.triggers.ticks(schedule(app).id(), 10)).isEmpty();
    }

    @Test
    void pollingTwiceAtTheSameInstantFiresTheTickOnce() {
        dailyAtNine();
        bed.clock.advance(Duration.ofHours(1));

        assertThat(schedules.fireDue()).isEqualTo(1);
        assertThat(schedules.fireDue()).isZero();
        assertThat(bed.fireSchedules().fireDue()).as("nor does another instance").isZero();

        assertThat(bed.started).hasSize(1);
    }

    @Test
    void eachTickOnTimeFiresOnceInTurn() {
        String app = everyTenMinutes();

        for (int tick = 0; tick < 6; tick++) {
            bed.clock.advance(Duration.ofMinutes(10));
            schedules.fireDue();
            schedules.fireDue();
        }

        assertThat(bed.started).hasSize(6);
        assertThat(bed.triggers.ticks(schedule(app).id(), 10)).extracting(Tick::dueAt).containsExactly(
                epoch("2026-03-02T09:00:00Z"), epoch("2026-03-02T08:50:00Z"), epoch("2026-03-02T08:40:00Z"),
                epoch("2026-03-02T08:30:00Z"), epoch("2026-03-02T08:20:00Z"), epoch("2026-03-02T08:10:00Z"));
    }

    @Test
    void aTickFoundLaterThanLateAfterIsSkippedWithoutARunUnderSkip() {
        String app = dailyAtNine();
        bed.clock.advance(Duration.ofMinutes(65)); // 09:05, three minutes past LATE_AFTER

        assertThat(schedules.fireDue()).as("the tick is taken, as skipped").isEqualTo(1);

        assertThat(bed.started).isEmpty();
        Trigger skipped = schedule(app);
        assertThat(bed.triggers.ticks(skipped.id(), 10)).containsExactly(new Tick(skipped.id(),
                epoch("2026-03-02T09:00:00Z"), epoch("2026-03-02T09:05:00Z"), Tick.Outcome.SKIPPED, null));
        assertThat(skipped.nextFireAt()).isEqualTo(epoch("2026-03-03T09:00:00Z"));
    }

    @Test
    void aTickFoundWithinLateAfterStillRuns() {
        dailyAtNine();
        bed.clock.advance(Duration.ofMinutes(62)); // 09:02, LATE_AFTER exactly

        schedules.fireDue();

        assertThat(bed.started).hasSize(1);
    }

    @Test
    void ticksMissedWhileNoInstanceWasUpRunOnceUnderRunOnceHoweverManyTheyWere() {
        String app = everyTenMinutes();
        bed.manage().setMissedTicks(app, "sched", MissedTicks.RUN_ONCE);
        bed.clock.advance(Duration.ofMinutes(155)); // 10:35: fifteen ticks from 08:10 to 10:30 passed

        assertThat(schedules.fireDue()).isEqualTo(1);
        assertThat(schedules.fireDue()).isZero();

        assertThat(bed.started).hasSize(1);
        Trigger schedule = schedule(app);
        assertThat(bed.triggers.ticks(schedule.id(), 10)).singleElement().satisfies(tick -> {
            assertThat(tick.outcome()).isEqualTo(Tick.Outcome.FIRED);
            assertThat(tick.dueAt()).isEqualTo(epoch("2026-03-02T08:10:00Z"));
            assertThat(tick.runId()).isEqualTo("run-1");
        });
        assertThat(schedule.nextFireAt()).as("no catch-up after").isEqualTo(epoch("2026-03-02T10:40:00Z"));
    }

    @Test
    void missedTicksUnderSkipStartNoRunAndTheScheduleGoesOnFromNow() {
        String app = everyTenMinutes();
        bed.clock.advance(Duration.ofMinutes(155));

        schedules.fireDue();
        bed.clock.advance(Duration.ofMinutes(5)); // 10:40, on time
        schedules.fireDue();

        assertThat(bed.started).hasSize(1);
        assertThat(bed.triggers.ticks(schedule(app).id(), 10)).extracting(Tick::outcome)
                .containsExactly(Tick.Outcome.FIRED, Tick.Outcome.SKIPPED);
    }

    @Test
    void aScheduleSwitchedOffDoesNotFire() {
        String app = dailyAtNine();
        bed.manage().setEnabled(app, "sched", false);
        bed.clock.advance(Duration.ofHours(30));

        assertThat(schedules.fireDue()).isZero();

        assertThat(bed.started).isEmpty();
        assertThat(bed.triggers.ticks(schedule(app).id(), 10)).isEmpty();
    }

    @Test
    void aRefusedRunLeavesARefusedTickAndTheNextTickFiresAgain() {
        String app = everyTenMinutes();
        bed.refusal = new ApiException(ApiError.TOO_MANY_REQUESTS, "Too many requests.");
        bed.clock.advance(Duration.ofMinutes(10));

        assertThat(schedules.fireDue()).isEqualTo(1);
        bed.refusal = null;
        bed.clock.advance(Duration.ofMinutes(10));
        schedules.fireDue();

        assertThat(bed.started).hasSize(1);
        assertThat(bed.triggers.ticks(schedule(app).id(), 10)).extracting(Tick::outcome, Tick::runId)
                .containsExactly(tuple(Tick.Outcome.FIRED, "run-1"),
                        tuple(Tick.Outcome.REFUSED, null));
    }

    @Test
    void aTickBeforeTheServerServesRunsIsRefusedNotLost() {
        String app = everyTenMinutes();
        FireSchedulesService early = new FireSchedulesService(bed.triggers, bed.calendar, new TriggerRuns(),
                bed.clock, TriggerBed.LATE_AFTER);
        bed.clock.advance(Duration.ofMinutes(10));

        assertThat(early.fireDue()).isEqualTo(1);

        assertThat(bed.triggers.ticks(schedule(app).id(), 10)).extracting(Tick::outcome)
                .containsExactly(Tick.Outcome.REFUSED);
        assertThat(schedule(app).nextFireAt()).isEqualTo(epoch("2026-03-02T08:20:00Z"));
    }

    @Test
    void aScheduleWhoseCronCanNoLongerBeReadIsSwitchedOffWithoutARun() {
        String app = dailyAtNine();
        Trigger kept = schedule(app);
        bed.triggers.save(new Trigger(kept.id(), app, "sched", kept.kind(), kept.title(), true, null,
                new ScheduleSpec("0 9 31 2 *", ZoneOffset.UTC), kept.nextFireAt(), MissedTicks.SKIP, null, 0));
        bed.clock.advance(Duration.ofHours(1));

        assertThat(schedules.fireDue()).isZero();

        assertThat(bed.started).isEmpty();
        assertThat(schedule(app).enabled()).isFalse();
        assertThat(schedule(app).nextFireAt()).isNull();
    }

    @Test
    void theSchedulesOfSeveralAppsDueTogetherEachFire() {
        String first = dailyAtNine();
        String second = bed.importApp("other", workflow(cron("sched", "0 9 * * *", "Europe/London")));
        bed.clock.advance(Duration.ofHours(1));

        assertThat(schedules.fireDue()).isEqualTo(2);

        assertThat(bed.started).extracting(RunWorkflowCommand::appId).containsExactlyInAnyOrder(first, second);
        assertThat(bed.started).extracting(RunWorkflowCommand::inputs).containsOnly(Map.of());
    }
}
