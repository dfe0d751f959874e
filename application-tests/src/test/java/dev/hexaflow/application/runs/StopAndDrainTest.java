package dev.hexaflow.application.runs;

import static dev.hexaflow.application.runs.RunLookupsTest.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.runs.port.in.DrainRunsUseCase.Drained;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunObserver;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunUnderWay;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunWorkflowCommand;
import dev.hexaflow.application.runs.service.DrainRunsService;
import dev.hexaflow.application.runs.service.RunWorkflowService;
import dev.hexaflow.application.runs.service.StopTaskService;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Stopping a task and draining the runs for a shutdown, on runs of the real engine kept in flight by the bed's
 * gated code node; other instances are a fake that keeps what it is told and tells what a test makes it hear.
 */
class StopAndDrainTest {

    private final RunBed bed = new RunBed();
    private final RunWorkflowService service = bed.service(0);
    private final RecordingSignals signals = new RecordingSignals();
    private final StopTaskService stop = new StopTaskService(bed.tasks, signals);
    private final DrainRunsService drain = new DrainRunsService(bed.tasks);

    @AfterEach
    void close() {
        bed.close();
    }

    private RunUnderWay gated(String user) {
        return service.start(new RunWorkflowCommand(RunBed.APP, RunBed.GATED, user, Map.of(), List.of()),
                RunObserver.NONE);
    }

    @Test
    void theUserWhoStartedATaskStopsItAndItEndsStopped() throws InterruptedException {
        RunUnderWay run = gated("ada");
        bed.awaitWaiting(1);

        stop.stop(RunBed.APP, run.taskId(), "ada");

        WorkflowRun ended = run.await();
        assertThat(ended.status()).isEqualTo(RunStatus.STOPPED);
        assertThat(bed.runs.find(RunBed.APP, run.runId()).orElseThrow().status()).isEqualTo(RunStatus.STOPPED);
        assertThat(signals.told).as("stopped here, no other instance is told").isEmpty();
    }

    @Test
    void anotherUsersOrAppsStopLeavesTheTaskRunningAndIsToldToOtherInstances() throws InterruptedException {
        RunUnderWay run = gated("ada");
        bed.awaitWaiting(1);

        stop.stop(RunBed.APP, run.taskId(), "bob");
        stop.stop(RunBed.CHAT_APP, run.taskId(), "ada");

        assertThat(run.done()).isNotDone();
        assertThat(signals.told).containsExactly(RunBed.APP + "\n" + run.taskId() + "\nbob",
                RunBed.CHAT_APP + "\n" + run.taskId() + "\nada");
        bed.gate.countDown();
        assertThat(run.await().status()).isEqualTo(RunStatus.SUCCEEDED);
    }

    @Test
    void aStopToldByAnotherInstanceStopsTheTaskHereByTheSameRule() throws InterruptedException {
        RunUnderWay run = gated("ada");
        bed.awaitWaiting(1);

        signals.hear("stop", RunBed.APP + "\n" + run.taskId() + "\nbob");
        signals.hear("stop", "garbled");
        assertThat(run.done()).isNotDone();
        signals.hear("stop", RunBed.APP + "\n" + run.taskId() + "\nada");

        assertThat(run.await().status()).isEqualTo(RunStatus.STOPPED);
    }

    @Test
    void aStopWithoutAUserIsRefusedAndAnOverlongTaskIdIsToldToNoOne() {
        assertRefused(() -> stop.stop(RunBed.APP, "task-1", ""), ApiError.INVALID_PARAM,
                "Arg user must be provided.");

        stop.stop(RunBed.APP, "t".repeat(65), "ada");
        stop.stop(RunBed.APP, "unknown-task", "ada");

        assertThat(signals.told).containsExactly(RunBed.APP + "\nunknown-task\nada");
    }

    @Test
    void aDrainLetsRunsThatEndInTheGraceFinishAndRefusesNewOnes() throws InterruptedException {
        RunUnderWay run = gated("ada");
        bed.awaitWaiting(1);
        new Thread(() -> {
            sleep(100);
            bed.gate.countDown();
        }).start();

        Drained drained = drain.drain(Duration.ofSeconds(10));

        assertThat(drained).isEqualTo(new Drained(1, 0, 0));
        assertThat(run.await().status()).isEqualTo(RunStatus.SUCCEEDED);
        assertRefused(() -> gated("bob"), ApiError.SERVICE_UNAVAILABLE,
                "The server is shutting down and takes no new runs. Please try again shortly.");
    }

    @Test
    void aDrainStopsTheRunsLeftWhenItsGraceEndsWithTheShutdownAsTheirReason() throws InterruptedException {
        RunUnderWay first = gated("ada");
        RunUnderWay second = gated("bob");
        bed.awaitWaiting(2);

        Drained drained = drain.drain(Duration.ofMillis(50));

        assertThat(drained).isEqualTo(new Drained(0, 2, 0));
        assertThat(List.of(first.await(), second.await())).allSatisfy(run -> {
            assertThat(run.status()).isEqualTo(RunStatus.STOPPED);
            assertThat(run.error()).isEqualTo("The server stopped during the run: it was shutting down.");
        });
    }

    @Test
    void aHurriedDrainStopsAtOnceWhatAGenerousGraceWouldHaveWaitedFor() throws InterruptedException {
        RunUnderWay run = gated("ada");
        bed.awaitWaiting(1);
        drain.hurry();

        long began = System.nanoTime();
        Drained drained = drain.drain(Duration.ofMinutes(5));

        assertThat(Duration.ofNanos(System.nanoTime() - began)).isLessThan(Duration.ofSeconds(5));
        assertThat(drained.stopped()).isEqualTo(1);
        assertThat(run.await().status()).isEqualTo(RunStatus.STOPPED);
    }

    @Test
    void stoppingTheRunsInFlightNamesThemAndStillTakesNewRuns() throws InterruptedException {
        RunUnderWay run = gated("ada");
        bed.awaitWaiting(1);

        assertThat(drain.inFlight()).containsExactly(run.runId());
        int stopped = drain.stopInFlight("Another instance failed this run.");

        assertThat(stopped).isEqualTo(1);
        assertThat(run.await().error()).isEqualTo("Another instance failed this run.");
        assertThat(drain.inFlight()).isEmpty();
        RunUnderWay next = service.start(new RunWorkflowCommand(RunBed.APP, null, "ada", Map.of("query", "again"),
                List.of()), RunObserver.NONE);
        assertThat(next.await().status()).isEqualTo(RunStatus.SUCCEEDED);
    }

    @Test
    void refusingNewRunsRefusesThemAtOnceWithoutWaiting() {
        drain.refuseNewRuns();

        assertRefused(() -> gated("ada"), ApiError.SERVICE_UNAVAILABLE,
                "The server is shutting down and takes no new runs. Please try again shortly.");
        assertThat(drain.drain(Duration.ofSeconds(1))).isEqualTo(new Drained(0, 0, 0));
    }

    @Test
    void aDrainWithNothingInFlightAnswersAtOnceAndStopsNothing() {
        long began = System.nanoTime();

        Drained drained = drain.drain(Duration.ofMinutes(5));

        assertThat(Duration.ofNanos(System.nanoTime() - began)).isLessThan(Duration.ofSeconds(5));
        assertThat(drained).isEqualTo(new Drained(0, 0, 0));
        assertThat(drain.stopInFlight("nothing to stop")).isZero();
    }


    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
