package dev.hexaflow.application.triggers;

import static dev.hexaflow.application.triggers.TriggerBed.cron;
import static dev.hexaflow.application.triggers.TriggerBed.workflow;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunWorkflowCommand;
import dev.hexaflow.application.triggers.service.FireSchedulesService;
import dev.hexaflow.domain.trigger.Tick;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Two instances polling one store at once, each from several threads, as servers behind a load balancer do: every
 * tick of every schedule starts exactly one run, whichever thread of whichever instance takes it.
 */
class SchedulesOnSeveralInstancesTest {

    private static final int SCHEDULES = 3;
    /** Fewer than the ticks a store keeps of a schedule, so that every tick's record is there to check. */
    private static final int TICKS = 90;
    private static final int THREADS_PER_INSTANCE = 2;

    private final TriggerBed bed = new TriggerBed();

    @Test
    void eachTickStartsExactlyOneRunWhenTwoInstancesPollFromSeveralThreads() throws Exception {
        List<String> apps = new ArrayList<>();
        for (int i = 0; i < SCHEDULES; i++) {
            apps.add(bed.importApp("app " + i, workflow(cron("sched", "* * * * *", "UTC"))));
        }
        List<FireSchedulesService> instances = List.of(bed.fireSchedules(), bed.fireSchedules());
        AtomicBoolean polling = new AtomicBoolean(true);
        ExecutorService threads = Executors.newFixedThreadPool(2 * THREADS_PER_INSTANCE);
        List<Future<?>> pollers = new ArrayList<>();
        for (FireSchedulesService instance : instances) {
            for (int t = 0; t < THREADS_PER_INSTANCE; t++) {
                pollers.add(threads.submit(() -> {
                    while (polling.get()) {
                        instance.fireDue();
                        LockSupport.parkNanos(50_000); // short, so that the threads meet at each tick
                    }
                }));
            }
        }
        try {
            for (int tick = 0; tick < TICKS; tick++) {
                bed.clock.advance(Duration.ofMinutes(1));
                awaitTaken(apps);
            }
        } finally {
            polling.set(false);
            threads.shutdown();
            assertThat(threads.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        }
        for (Future<?> poller : pollers) {
            poller.get(); // a poller that failed fails the test
        }

        assertThat(bed.started).hasSize(SCHEDULES * TICKS);
        assertThat(bed.started.stream().collect(Collectors.groupingBy(RunWorkflowCommand::appId,
                Collectors.counting()))).containsOnlyKeys(apps).allSatisfy((app, runs) -> assertThat(runs)
                .isEqualTo(TICKS));
        List<String> runsOfTicks = new ArrayList<>();
        for (String app : apps) {
            List<Tick> ticks = bed.triggers.ticks(bed.trigger(app, "sched").id(), 2 * TICKS);
            Map<Long, Long> perDueTime = ticks.stream().collect(Collectors.groupingBy(Tick::dueAt,
                    Collectors.counting()));
            assertThat(perDueTime).as("ticks of app %s by due time", app).hasSize(TICKS)
                    .allSatisfy((due, count) -> assertThat(count).isOne());
            assertThat(ticks).extracting(Tick::outcome).containsOnly(Tick.Outcome.FIRED);
            ticks.forEach(tick -> runsOfTicks.add(tick.runId()));
        }
        assertThat(runsOfTicks).doesNotContainNull().doesNotHaveDuplicates().hasSize(SCHEDULES * TICKS);
    }

    /** Waits until every schedule's tick at the clock's time is taken (its next fire is after now). */
    private void awaitTaken(List<String> apps) throws InterruptedException {
        long now = bed.clock.instant().getEpochSecond();
        Function<String, Boolean> taken = app -> bed.trigger(app, "sched").nextFireAt() > now;
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!apps.stream().allMatch(taken::apply)) {
            assertThat(System.nanoTime()).as("the tick at %d was taken in time", now).isLessThan(until);
            Thread.sleep(1);
        }
    }
}
