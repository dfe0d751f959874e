package dev.hexaflow.application.runs;

import static dev.hexaflow.application.runs.RunLookupsTest.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunObserver;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunUnderWay;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunWorkflowCommand;
import dev.hexaflow.application.runs.port.out.RunRepository.LogQuery;
import dev.hexaflow.application.runs.port.out.RunRepository.StartedRun;
import dev.hexaflow.application.runs.service.ControlRunService;
import dev.hexaflow.application.runs.service.RunWorkflowService;
import dev.hexaflow.application.runs.service.StopTaskService;
import dev.hexaflow.domain.app.EndUser;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An operator stopping and re-running a run by its id alone, through the same stop and start an end user's
 * requests take: runs of the real engine (kept in flight by the bed's gated node) and runs kept in the store.
 */
class ControlRunServiceTest {

    private final RunBed bed = new RunBed();
    private final RunWorkflowService service = bed.service(1);
    private final RecordingSignals signals = new RecordingSignals();
    private final ControlRunService control = new ControlRunService(bed.runs, bed.apps,
            new StopTaskService(bed.tasks, signals), service);

    @AfterEach
    void close() {
        bed.close();
    }

    private RunUnderWay start(String version, String user, Map<String, Object> inputs) {
        return service.start(new RunWorkflowCommand(RunBed.APP, version, user, inputs, List.of()),
                event -> { });
    }

    @Test
    void aRunningRunIsStoppedForItsEndUserAndEndsStopped() throws InterruptedException {
        RunUnderWay run = start(RunBed.GATED, "ada", Map.of());
        bed.awaitWaiting(1);

        boolean stopped = control.stop(run.runId());

        assertThat(stopped).isTrue();
        assertThat(run.await().status()).isEqualTo(RunStatus.STOPPED);
        assertThat(signals.told).as("it ran here: nobody else is told").isEmpty();
    }

    @Test
    void anEndedRunIsLeftAsItWasAndTheStopSaysSo() {
        WorkflowRun ended = start(null, "ada", Map.of("query", "hi")).await();

        boolean stopped = control.stop(ended.id());

        assertThat(stopped).isFalse();
        assertThat(bed.runs.find(RunBed.APP, ended.id())).contains(ended);
        assertThat(signals.told).isEmpty();
    }

    /** A run kept running that is not in flight here may run on another instance: that one is told. */
    @Test
    void aRunRunningElsewhereIsToldToTheOtherInstancesAsItsEndUsersOwnStop() {
        bed.keep(RunBed.APP, "run-far", "bob", RunStatus.RUNNING, Map.of(), 100);

        boolean stopped = control.stop("run-far");

        assertThat(stopped).isTrue();
        assertThat(signals.told).containsExactly(RunBed.APP + "\ntask-run-far\nbob");
    }

    @Test
    void anUnknownOrOverlongRunIdIsNotFoundForBothStopAndRerun() {
        assertRefused(() -> control.stop("run-none"), ApiError.NOT_FOUND, "Workflow run not found");
        assertRefused(() -> control.rerun("run-none", true), ApiError.NOT_FOUND, "Workflow run not found");
        assertRefused(() -> control.stop("r".repeat(65)), ApiError.NOT_FOUND, "Workflow run not found");
        assertRefused(() -> control.stop(null), ApiError.NOT_FOUND, "Workflow run not found");
    }

    @Test
    void aRerunIsANewRunOfTheSameInputsForTheSameEndUser() {
        WorkflowRun first = start(null, "bob", Map.of("query", "order 5")).await();

        RunUnderWay again = control.rerun(first.id(), false);
        WorkflowRun rerun = again.await();

        assertThat(again.runId()).isNotEqualTo(first.id());
        assertThat(rerun.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(rerun.outputs()).isEqualTo(first.outputs()).containsEntry("answer", "order 5");
        assertThat(rerun.inputs()).containsEntry("query", "order 5").containsEntry("sys.user_id", "bob")
                .containsEntry("sys.workflow_run_id", again.runId());
        assertThat(bed.runs.locate(again.runId()).orElseThrow().entry().user().sessionId()).isEqualTo("bob");
    }

    @Test
    void aRerunOnTheSameVersionKeepsTheOldVersionWhileTheNewestOneMovedOn() {
        RunUnderWay gated = start(RunBed.GATED, "ada", Map.of());
        bed.gate.countDown();
        WorkflowRun first = gated.await();

        WorkflowRun same = control.rerun(first.id(), true).await();
        WorkflowRun newest = control.rerun(first.id(), false).await();

        assertThat(same.workflowId()).isEqualTo(RunBed.GATED);
        assertThat(same.outputs()).containsEntry("answer", "done");
        assertThat(newest.workflowId()).isEqualTo("ver-1");
    }

    @Test
    void aChatTurnIsNotRerunForItBelongsToItsConversation() {
        bed.keep(RunBed.CHAT_APP, "turn-1", "ada", RunStatus.SUCCEEDED, Map.of("query", "hi"), 100);

        assertRefused(() -> control.rerun("turn-1", false), ApiError.INVALID_PARAM,
                "A chat turn belongs to its conversation: send the message again in it.");
        assertThat(bed.runs.logs(new LogQuery(RunBed.CHAT_APP, null, null, 1, 10, null, null, null)).total())
                .as("no new run").isEqualTo(1);
    }

    @Test
    void aRerunOfAVersionNoLongerKeptIsNotFoundAndStartsNothing() {
        EndUser user = bed.endUsers.findOrAdd(new EndUser("eu-1", RunBed.APP, "ada", 100));
        bed.runs.started(new StartedRun(WorkflowRun.started("run-old", "ver-gone", Map.of(), 100), RunBed.APP,
                "task-old", user, "v0", "log-old")).join();

        assertRefused(() -> control.rerun("run-old", true), ApiError.NOT_FOUND, "Workflow not found.");
        // The newest version still runs it.
        assertThat(control.rerun("run-old", false).await().workflowId()).isEqualTo("ver-1");
    }

    @Test
    void aRerunIsHeldToTheAppsLimitOfRunsInFlightAsAnyRun() throws InterruptedException {
        WorkflowRun first = start(null, "ada", Map.of("query", "x")).await();
        RunUnderWay busy = start(RunBed.GATED, "bob", Map.of());
        bed.awaitWaiting(1);

        assertRefused(() -> control.rerun(first.id(), false), ApiError.TOO_MANY_REQUESTS,
                "Too many requests. Please try again later. The current maximum concurrent requests allowed for "
                        + "app-flow is 1.");
        bed.gate.countDown();
        busy.await();
        assertThat(control.rerun(first.id(), false).await().status()).isEqualTo(RunStatus.SUCCEEDED);
    }
}
