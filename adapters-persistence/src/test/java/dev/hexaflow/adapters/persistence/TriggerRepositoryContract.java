package dev.hexaflow.adapters.persistence;

import static dev.hexaflow.adapters.persistence.WorkflowFixtures.APP;
import static dev.hexaflow.adapters.persistence.WorkflowFixtures.OTHER_APP;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.application.triggers.port.out.TriggerRepository;
import dev.hexaflow.domain.trigger.MissedTicks;
import dev.hexaflow.domain.trigger.ScheduleSpec;
import dev.hexaflow.domain.trigger.Tick;
import dev.hexaflow.domain.trigger.Trigger;
import dev.hexaflow.domain.trigger.TriggerKind;
import dev.hexaflow.domain.trigger.WebhookAuth;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What every {@link TriggerRepository} promises; each adapter runs it by extending this class. A trigger is kept
 * whole and found by app and node or by its URL's code; due schedules come most overdue first; a tick is claimed
 * by exactly one of several claimers at once, moving the schedule on and recording the tick in one step; a tick's
 * run or refusal is kept with it; ticks are listed newest first.
 */
abstract class TriggerRepositoryContract {

    protected abstract TriggerRepository repository();

    /** How many instances race for each tick. */
    private static final int CLAIMERS = 8;
    private static final ScheduleSpec EVERY_MINUTE = new ScheduleSpec("* * * * *", ZoneId.of("Europe/Paris"));

    /** A schedule that is on and due at {@code next}. */
    static Trigger schedule(String id, String appId, String nodeId, long next, long createdAt) {
        return new Trigger(id, appId, nodeId, TriggerKind.SCHEDULE, "Every minute", true, null, EVERY_MINUTE, next,
                MissedTicks.SKIP, WebhookAuth.none(), createdAt);
    }

    static Trigger webhook(String id, String appId, String nodeId, String code, long createdAt) {
        return new Trigger(id, appId, nodeId, TriggerKind.WEBHOOK, "Orders", true, code, null, null,
                MissedTicks.SKIP, WebhookAuth.none(), createdAt);
    }

    private Trigger saved(Trigger trigger) {
        repository().save(trigger);
        return trigger;
    }

    @Test
    void aTriggerIsFoundWholeByItsAppAndNode() {
        Trigger schedule = saved(new Trigger("t1", APP, "sched", TriggerKind.SCHEDULE, "Nightly", false, null,
                new ScheduleSpec("0 0 1,15,L * *", ZoneId.of("America/New_York")), null, MissedTicks.RUN_ONCE,
                WebhookAuth.none(), 10));
        Trigger hook = saved(new Trigger("t2", APP, "hook", TriggerKind.WEBHOOK, "Orders", true, "c".repeat(32), null,
                null, MissedTicks.SKIP, WebhookAuth.hmac("X-Sig", "sixteen-chars-ok"), 11));
        Trigger github = saved(new Trigger("t3", APP, "github", TriggerKind.PLUGIN, "", false, "p".repeat(32), null,
                null, MissedTicks.SKIP, WebhookAuth.header("X-Token", "sixteen-chars-ok"), 12));

        assertThat(repository().find(APP, "sched")).contains(schedule);
        assertThat(repository().find(APP, "hook")).contains(hook);
        assertThat(repository().find(APP, "github")).contains(github);
        assertThat(repository().find(OTHER_APP, "hook")).isEmpty();
        assertThat(repository().find(APP, "nothing")).isEmpty();
    }

    @Test
    void aTriggerIsFoundByItsCodeWhicheverAppItIsOf() {
        Trigger mine = saved(webhook("t1", APP, "hook", "a".repeat(32), 10));
        Trigger theirs = saved(webhook("t2", OTHER_APP, "hook", "b".repeat(32), 10));

        assertThat(repository().findByCode("a".repeat(32))).contains(mine);
        assertThat(repository().findByCode("b".repeat(32))).contains(theirs);
        assertThat(repository().findByCode("z".repeat(32))).isEmpty();
    }

    @Test
    void savingATriggerAgainReplacesItByItsId() {
        Trigger hook = saved(webhook("t1", APP, "hook", "a".repeat(32), 10));

        Trigger changed = saved(hook.withEnabled(false, null).withCode("n".repeat(32))
                .withAuth(WebhookAuth.bearer("sixteen-chars-ok")));

        assertThat(repository().ofApp(APP)).containsExactly(changed);
        assertThat(repository().findByCode("a".repeat(32))).isEmpty();
        assertThat(repository().findByCode("n".repeat(32))).contains(changed);
    }

    @Test
    void anAppsTriggersAreListedInTheOrderTheyWereFirstPublished() {
        Trigger second = saved(webhook("t1", APP, "b-hook", "a".repeat(32), 20));
        Trigger first = saved(schedule("t2", APP, "z-sched", 100, 10));
        saved(webhook("t3", OTHER_APP, "hook", "b".repeat(32), 5));
        Trigger third = saved(schedule("t4", APP, "a-sched", 100, 30));
        Trigger secondAgain = saved(second.withEnabled(false, null));

        assertThat(repository().ofApp(APP)).containsExactly(first, secondAgain, third);
        assertThat(repository().ofApp("no-app")).isEmpty();
    }

    @Test
    void removingATriggerRemovesItAndItsTicksAndNothingElse() {
        saved(schedule("t1", APP, "sched", 100, 10));
        Trigger other = saved(schedule("t2", OTHER_APP, "sched", 100, 10));
        repository().claim("t1", 100, 160, Tick.Outcome.FIRED, 101);
        repository().claim("t2", 100, 160, Tick.Outcome.FIRED, 101);

        repository().remove("t1");
        repository().remove("no-such-trigger");

        assertThat(repository().find(APP, "sched")).isEmpty();
        assertThat(repository().ticks("t1", 10)).isEmpty();
        assertThat(repository().ofApp(OTHER_APP)).containsExactly(other.withEnabled(true, 160L));
        assertThat(repository().ticks("t2", 10)).hasSize(1);
    }

    @Test
    void dueSchedulesAreThoseOnAndDueMostOverdueFirstAtMostTheLimit() {
        saved(schedule("late", APP, "a", 100, 1));
        saved(schedule("later", APP, "b", 50, 1));
        saved(schedule("now", OTHER_APP, "c", 200, 1));
        saved(schedule("future", APP, "d", 201, 1));
        saved(schedule("off", APP, "e", 10, 1).withEnabled(false, null));
        saved(new Trigger("off-with-time", APP, "f", TriggerKind.SCHEDULE, "", false, null, EVERY_MINUTE, 20L,
                MissedTicks.SKIP, null, 1));
        saved(new Trigger("hook", APP, "g", TriggerKind.WEBHOOK, "", true, "h".repeat(32), null, 30L,
                MissedTicks.SKIP, null, 1));

        assertThat(repository().due(200, 10)).extracting(Trigger::id).containsExactly("later", "late", "now");
        assertThat(repository().due(200, 2)).extracting(Trigger::id).containsExactly("later", "late");
        assertThat(repository().due(49, 10)).isEmpty();
    }

    @Test
    void aClaimMovesTheScheduleOnAndRecordsTheTickOnce() {
        saved(schedule("t1", APP, "sched", 100, 1));

        assertThat(repository().claim("t1", 100, 160, Tick.Outcome.FIRED, 103)).isTrue();
        assertThat(repository().claim("t1", 100, 160, Tick.Outcome.FIRED, 104)).as("taken already").isFalse();

        assertThat(repository().find(APP, "sched").orElseThrow().nextFireAt()).isEqualTo(160L);
        assertThat(repository().ticks("t1", 10)).containsExactly(new Tick("t1", 100, 103, Tick.Outcome.FIRED,
                null));
        assertThat(repository().due(159, 10)).isEmpty();
    }

    @Test
    void aClaimOfAnotherTimeOrOfASwitchedOffOrUnknownScheduleTakesNothing() {
        saved(schedule("t1", APP, "sched", 100, 1));
        saved(schedule("t2", APP, "off", 100, 1).withEnabled(false, null));

        assertThat(repository().claim("t1", 40, 160, Tick.Outcome.FIRED, 103)).isFalse();
        assertThat(repository().claim("t2", 100, 160, Tick.Outcome.FIRED, 103)).isFalse();
        assertThat(repository().claim("t9", 100, 160, Tick.Outcome.FIRED, 103)).isFalse();

        assertThat(repository().find(APP, "sched").orElseThrow().nextFireAt()).isEqualTo(100L);
        assertThat(repository().ticks("t1", 10)).isEmpty();
        assertThat(repository().ticks("t2", 10)).isEmpty();
    }

    /** A publish made while an operator changed a trigger keeps the operator's change: only its own columns move. */
    @Test
    void aRepublishChangesTitleAndScheduleAndKeepsWhatTheOperatorSet() {
        Trigger hook = saved(new Trigger("h1", APP, "hook", TriggerKind.WEBHOOK, "Old", true, "a".repeat(32), null,
                null, MissedTicks.SKIP, null, 1));
        Trigger operators = saved(hook.withCode("b".repeat(32)).withAuth(WebhookAuth.bearer("s".repeat(16))));
        repository().republish("h1", "New", null, null);
        Trigger hookNow = repository().find(APP, "hook").orElseThrow();
        assertThat(hookNow.title()).isEqualTo("New");
        assertThat(hookNow.code()).isEqualTo(operators.code());
        assertThat(hookNow.auth()).isEqualTo(operators.auth());

        saved(schedule("t1", APP, "sched", 100, 1).withMissedTicks(MissedTicks.RUN_ONCE));
        ScheduleSpec hourly = new ScheduleSpec("0 * * * *", ZoneId.of("UTC"));
        repository().republish("t1", "Hourly", hourly, 3600L);
        repository().republish("t1", "Hourly again", hourly, null);
        Trigger tick = repository().find(APP, "sched").orElseThrow();
        assertThat(tick.schedule()).isEqualTo(hourly);
        assertThat(tick.nextFireAt()).as("kept when the publish names none").isEqualTo(3600L);
        assertThat(tick.title()).isEqualTo("Hourly again");
        assertThat(tick.missedTicks()).isEqualTo(MissedTicks.RUN_ONCE);
    }

    /** A clock that went back brings a schedule to a tick it fired: the schedule moves on, nothing fires twice. */
    @Test
    void aTickFiredBeforeIsNotTakenAgainButTheScheduleMovesOn() {
        saved(schedule("t1", APP, "sched", 100, 1));
        assertThat(repository().claim("t1", 100, 160, Tick.Outcome.FIRED, 101)).isTrue();
        saved(repository().find(APP, "sched").orElseThrow().withEnabled(true, 100L));

        assertThat(repository().claim("t1", 100, 220, Tick.Outcome.FIRED, 102)).isFalse();

        assertThat(repository().find(APP, "sched").orElseThrow().nextFireAt()).isEqualTo(220L);
        assertThat(repository().ticks("t1", 10)).containsExactly(new Tick("t1", 100, 101, Tick.Outcome.FIRED,
                null));
    }

    @Test
    void onlyTheNewestTicksOfAScheduleAreKept() {
        saved(schedule("t1", APP, "sched", 0, 1));
        int fired = TriggerRepository.KEPT_TICKS + 5;
        for (long due = 0; due < fired; due++) {
            assertThat(repository().claim("t1", due, due + 1, Tick.Outcome.FIRED, due)).isTrue();
        }
        List<Tick> kept = repository().ticks("t1", 1000);
        assertThat(kept).hasSize(TriggerRepository.KEPT_TICKS);
        assertThat(kept.get(0).dueAt()).isEqualTo(fired - 1);
        assertThat(kept.get(kept.size() - 1).dueAt()).isEqualTo(fired - TriggerRepository.KEPT_TICKS);
    }

    @Test
    void ofEightClaimersRacingForOneTickExactlyOneTakesItTickAfterTick() throws Exception {
        saved(schedule("t1", APP, "sched", 100, 1));
        ExecutorService pool = Executors.newFixedThreadPool(CLAIMERS);
        try {
            for (long due = 100; due < 100 + 20 * 60; due += 60) {
                assertThat(race(pool, due, due + 60)).as("claims of the tick at %d", due).containsOnlyOnce(true)
                        .hasSize(CLAIMERS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(repository().ticks("t1", 100)).hasSize(20).extracting(Tick::dueAt).doesNotHaveDuplicates();
        assertThat(repository().find(APP, "sched").orElseThrow().nextFireAt()).isEqualTo(100L + 20 * 60);
    }

    /** What each of {@link #CLAIMERS} claimers let go at once answered for the tick at {@code due}. */
    private List<Boolean> race(ExecutorService pool, long due, long next) throws Exception {
        CountDownLatch ready = new CountDownLatch(CLAIMERS);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Boolean>> claims = new ArrayList<>();
        for (int i = 0; i < CLAIMERS; i++) {
            long firedAt = due + 1 + i;
            claims.add(pool.submit(() -> {
                ready.countDown();
                go.await();
                return repository().claim("t1", due, next, Tick.Outcome.FIRED, firedAt);
            }));
        }
        ready.await();
        go.countDown();
        List<Boolean> taken = new ArrayList<>();
        for (Future<Boolean> claim : claims) {
            taken.add(claim.get(30, TimeUnit.SECONDS));
        }
        return taken;
    }

    @Test
    void aTicksRunOrRefusalIsKeptWithIt() {
        saved(schedule("t1", APP, "sched", 100, 1));
        repository().claim("t1", 100, 160, Tick.Outcome.FIRED, 101);
        repository().claim("t1", 160, 220, Tick.Outcome.FIRED, 161);

        repository().ranTick("t1", 100, "run-1");
        repository().refusedTick("t1", 160);

        assertThat(repository().ticks("t1", 10)).containsExactly(
                new Tick("t1", 160, 161, Tick.Outcome.REFUSED, null),
                new Tick("t1", 100, 101, Tick.Outcome.FIRED, "run-1"));
    }

    @Test
    void ticksAreListedNewestFirstAtMostTheLimitEachOfItsOwnSchedule() {
        saved(schedule("t1", APP, "sched", 100, 1));
        saved(schedule("t2", OTHER_APP, "sched", 100, 1));
        long due = 100;
        for (int i = 0; i < 5; i++) {
            repository().claim("t1", due, due + 60, i == 2 ? Tick.Outcome.SKIPPED : Tick.Outcome.FIRED, due + 1);
            due += 60;
        }
        repository().claim("t2", 100, 160, Tick.Outcome.FIRED, 101);

        assertThat(repository().ticks("t1", 3)).extracting(Tick::dueAt).containsExactly(340L, 280L, 220L);
        assertThat(repository().ticks("t1", 10)).extracting(Tick::outcome).containsExactly(Tick.Outcome.FIRED,
                Tick.Outcome.FIRED, Tick.Outcome.SKIPPED, Tick.Outcome.FIRED, Tick.Outcome.FIRED);
        assertThat(repository().ticks("t2", 10)).hasSize(1);
        assertThat(repository().ticks("no-such-trigger", 10)).isEmpty();
    }
}
