package dev.hexaflow.application.runs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunObserver;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunUnderWay;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunWorkflowCommand;
import dev.hexaflow.application.runs.service.RunWorkflowService;
import dev.hexaflow.application.runs.service.StopTaskService;
import dev.hexaflow.domain.workflow.RunStatus;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Stopping one task among several, by the rule that only its own user stops it, on runs of the real engine kept in
 * flight by the bed's gated node; other instances are {@link RecordingSignals}. StopAndDrainTest has the basics.
 */
class StopTaskServiceTest {

    private final RunBed bed = new RunBed();
    private final RunWorkflowService service = bed.service(0);
    private final RecordingSignals signals = new RecordingSignals();
    private final StopTaskService stop = new StopTaskService(bed.tasks, signals);

    @AfterEach
    void close() {
        bed.close();
    }

    private RunUnderWay gated(String user) {
        return service.start(new RunWorkflowCommand(RunBed.APP, RunBed.GATED, user, Map.of(), List.of()),
                RunObserver.NONE);
    }

    @Test
    void stoppingOneOfAUsersTasksLeavesTheirOtherTaskRunning() throws InterruptedException {
        RunUnderWay first = gated("ada");
        RunUnderWay second = gated("ada");
        bed.awaitWaiting(2);

        stop.stop(RunBed.APP, first.taskId(), "ada");

        assertThat(first.await().status()).isEqualTo(RunStatus.STOPPED);
        assertThat(second.done()).isNotDone();
        bed.gate.countDown();
        assertThat(second.await().status()).isEqualTo(RunStatus.SUCCEEDED);
    }

    /** Once the run has ended here, its task is none of this instance's: the stop is passed on, and ends nothing. */
    @Test
    void aStopOfATaskThatHasEndedIsPassedOnAndLeavesTheRunAsItEnded() throws InterruptedException {
        RunUnderWay run = gated("ada");
        bed.awaitWaiting(1);
        bed.gate.countDown();
        run.await();

        stop.stop(RunBed.APP, run.taskId(), "ada");

        assertThat(signals.told).containsExactly(RunBed.APP + "\n" + run.taskId() + "\nada");
        assertThat(bed.runs.find(RunBed.APP, run.runId()).orElseThrow().status()).isEqualTo(RunStatus.SUCCEEDED);
    }

    @Test
    void aStopNamingAnAppIdLongerThanAnyIdIsToldToNoOne() {
        stop.stop("a".repeat(65), "task-1", "ada");
        stop.stop("a".repeat(64), "task-1", "ada");

        assertThat(signals.told).containsExactly("a".repeat(64) + "\ntask-1\nada");
    }

    /** Ids hold no newline but a user may: the user goes last in what is told, and is read back whole. */
    @Test
    void aUserWhoseIdHoldsANewlineIsToldWholeAndStopsTheirTaskElsewhere() throws InterruptedException {
        RunUnderWay run = gated("ada\nbob");
        bed.awaitWaiting(1);

        signals.hear("stop", RunBed.APP + "\n" + run.taskId() + "\nada");
        assertThat(run.done()).isNotDone();
        signals.hear("stop", RunBed.APP + "\n" + run.taskId() + "\nada\nbob");

        assertThat(run.await().status()).isEqualTo(RunStatus.STOPPED);
        stop.stop(RunBed.APP, "task-elsewhere", "ada\nbob");
        assertThat(signals.told).containsExactly(RunBed.APP + "\ntask-elsewhere\nada\nbob");
    }
}
