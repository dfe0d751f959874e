package dev.hexaflow.application.runs;

import static dev.hexaflow.application.runs.RunLookupsTest.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunObserver;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunUnderWay;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunWorkflowCommand;
import dev.hexaflow.application.runs.port.out.RunMonitor;
import dev.hexaflow.application.runs.port.out.RunRepository.LogQuery;
import dev.hexaflow.application.runs.service.RunWorkflowService;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Running a published workflow on the real engine and the in-memory stores: what a run answers and keeps, and
 * each refusal made before anything starts (nothing is kept then).
 */
class RunWorkflowServiceTest {

    private final RunBed bed = new RunBed();
    private final RunWorkflowService service = bed.service(2);

    @AfterEach
    void close() {
        bed.close();
    }

    private RunUnderWay start(String appId, String version, String user, Map<String, Object> inputs) {
        return service.start(new RunWorkflowCommand(appId, version, user, inputs, List.of()), RunObserver.NONE);
    }

    private long runsKept() {
        return bed.runs.logs(new LogQuery(RunBed.APP, null, null, 1, 100, null, null, null)).total();
    }

    @Test
    void aBlockingRunAnswersItsOutputsAndIsKeptEndedForItsEndUser() {
        RunUnderWay run = start(RunBed.APP, null, "ada", Map.of("query", "hello"));

        WorkflowRun ended = run.await();

        assertThat(ended.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(ended.outputs()).isEqualTo(Map.of("answer", "hello"));
        assertThat(ended.workflowId()).isEqualTo("ver-1");
        assertThat(bed.runs.find(RunBed.APP, run.runId())).contains(ended);
        assertThat(bed.runs.taskId(run.runId())).contains(run.taskId());
        assertThat(bed.endUsers.find(RunBed.APP, "ada")).isPresent();
    }

    @Test
    void anObserverHearsTheRunFromItsStartToItsEnd() {
        List<RunEvent> heard = new CopyOnWriteArrayList<>();

        service.start(new RunWorkflowCommand(RunBed.APP, null, "ada", Map.of("query", "hi"), List.of()),
                heard::add).await();

        assertThat(heard).first().isInstanceOf(RunEvent.WorkflowStarted.class);
        assertThat(heard).last().isInstanceOfSatisfying(RunEvent.WorkflowFinished.class,
                finished -> assertThat(finished.run().outputs()).isEqualTo(Map.of("answer", "hi")));
    }

    @Test
    void theMonitorWatchesEveryRunNamedWithItsAppAndUserEvenWhenAWatcherFails() {
        List<RunMonitor.WatchedRun> watched = new CopyOnWriteArrayList<>();
        List<RunEvent> heard = new CopyOnWriteArrayList<>();
        RunMonitor failing = run -> {
            throw new IllegalStateException("a broken watcher");
        };
        RunMonitor failingListener = run -> event -> {
            throw new IllegalStateException("a broken listener");
        };
        RunMonitor recording = run -> {
            watched.add(run);
            return heard::add;
        };
        RunWorkflowService monitored = bed.service(2, RunMonitor.all(List.of(failing, failingListener, recording)));

        WorkflowRun ended = monitored.start(new RunWorkflowCommand(RunBed.APP, null, "ada", Map.of("query", "hi"),
                List.of()), RunObserver.NONE).await();

        assertThat(ended.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(watched).singleElement().satisfies(run -> {
            assertThat(run.appId()).isEqualTo(RunBed.APP);
            assertThat(run.appMode()).isEqualTo("workflow");
            assertThat(run.runId()).isEqualTo(ended.id());
            assertThat(run.workflowId()).isEqualTo("ver-1");
            assertThat(run.endUser()).isEqualTo("ada");
        });
        assertThat(heard).first().isInstanceOf(RunEvent.WorkflowStarted.class);
        assertThat(heard).filteredOn(RunEvent.NodeFinished.class::isInstance).isNotEmpty();
        assertThat(heard).last().isInstanceOf(RunEvent.WorkflowFinished.class);
    }

    @Test
    void aNamedVersionRunsThatVersionAndNotTheNewest() {
        RunUnderWay run = start(RunBed.APP, RunBed.GATED, "ada", Map.of());
        bed.gate.countDown();

        WorkflowRun ended = run.await();

        assertThat(ended.workflowId()).isEqualTo(RunBed.GATED);
        assertThat(ended.outputs()).isEqualTo(Map.of("answer", "done"));
    }

    @Test
    void anInputOfTheWrongTypeIsRefusedKeepingNothingAndHoldingNoPlace() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            assertRefused(() -> start(RunBed.APP, null, "ada", Map.of("query", 42)), ApiError.INVALID_PARAM,
                    "(type 'text-input') query in input form must be a string");
        }

        // Refused runs gave their places back: both of the app's two places are free.
        RunUnderWay first = start(RunBed.APP, RunBed.GATED, "ada", Map.of());
        RunUnderWay second = start(RunBed.APP, RunBed.GATED, "bob", Map.of());
        bed.awaitWaiting(2);
        bed.gate.countDown();
        assertThat(List.of(first.await().status(), second.await().status())).containsOnly(RunStatus.SUCCEEDED);
        assertThat(runsKept()).isEqualTo(2);
    }

    @Test
    void anUnknownAppOrVersionIsNotFoundAndAnotherAppsVersionIsNoneOfThisOnes() {
        assertRefused(() -> start("app-none", null, "ada", Map.of()), ApiError.NOT_FOUND, "App not found.");
        assertRefused(() -> start(RunBed.APP, "ver-none", "ada", Map.of()), ApiError.NOT_FOUND,
                "Workflow not found.");
        assertRefused(() -> start(RunBed.APP, "ver-chat", "ada", Map.of()), ApiError.NOT_FOUND,
                "Workflow not found.");
        assertThat(runsKept()).isZero();
    }

    @Test
    void anAppWithNothingPublishedIsRefusedAsNotPublished() {
        bed.apps.add(new App("app-empty", "Empty", "", "workflow", "emoji", "🤖", "#FFF",
                List.of(), bed.apps.find(RunBed.APP).orElseThrow().site(), "codeempty", true, 1));

        assertRefused(() -> start("app-empty", null, "ada", Map.of()), ApiError.INVALID_PARAM,
                "Workflow not published");
    }

    @Test
    void aChatflowIsNotRunOnTheWorkflowRoute() {
        assertRefused(() -> start(RunBed.CHAT_APP, null, "ada", Map.of()), ApiError.NOT_WORKFLOW_APP,
                "Please check if your app mode matches the right API route.");
    }

    @Test
    void aRunWithoutAUserOrWithABadCallbackIsRefused() {
        assertRefused(() -> start(RunBed.APP, null, " ", Map.of()), ApiError.INVALID_PARAM,
                "Arg user must be provided.");
        assertRefused(() -> start(RunBed.APP, null, "u".repeat(256), Map.of()), ApiError.INVALID_PARAM,
                "Arg user must be at most 255 characters.");
        assertRefused(() -> service.start(new RunWorkflowCommand(RunBed.APP, null, "ada", Map.of(), List.of())
                .withCallbackUrl(" "), RunObserver.NONE), ApiError.INVALID_PARAM,
                "callback_url must be an http or https URL");
        assertThat(runsKept()).isZero();
    }

    @Test
    void aRunPastTheAppsLimitIsRefusedUntilOneInFlightEnds() throws InterruptedException {
        RunUnderWay first = start(RunBed.APP, RunBed.GATED, "ada", Map.of());
        RunUnderWay second = start(RunBed.APP, RunBed.GATED, "bob", Map.of());
        bed.awaitWaiting(2);

        assertRefused(() -> start(RunBed.APP, null, "cy", Map.of("query", "x")), ApiError.TOO_MANY_REQUESTS,
                "Too many requests. Please try again later. The current maximum concurrent requests allowed for "
                        + "app-flow is 2.");
        bed.gate.countDown();
        first.await();
        second.await();

        assertThat(start(RunBed.APP, null, "cy", Map.of("query", "x")).await().status())
                .isEqualTo(RunStatus.SUCCEEDED);
    }

    @Test
    void aRunNobodyListensToIsHeldInMemoryUntilItsRecordsAreKept() throws InterruptedException {
        RunUnderWay run = start(RunBed.APP, RunBed.GATED, "ada", Map.of());
        bed.awaitWaiting(1);

        assertThat(bed.runs.find(RunBed.APP, run.runId())).as("held, not yet kept").isEmpty();
        assertThat(bed.holds.keepAll()).isEqualTo(1);
        assertThat(bed.runs.find(RunBed.APP, run.runId()).orElseThrow().status()).isEqualTo(RunStatus.RUNNING);
        bed.gate.countDown();
        assertThat(run.await().status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(bed.holds.size()).isZero();
    }

    @Test
    void aRunWhoseNodeFailsIsAnsweredFailedWithTheNodesErrorAndKeptSo() {
        WorkflowRun ended = start(RunBed.APP, RunBed.FAILING, "ada", Map.of("query", "hot")).await();

        assertThat(ended.status()).isEqualTo(RunStatus.FAILED);
        assertThat(ended.error()).contains(RunBed.FAILURE);
        assertThat(bed.runs.find(RunBed.APP, ended.id())).contains(ended);
        assertThat(bed.runs.logs(new LogQuery(RunBed.APP, null, "failed", 1, 10, null, null, null)).items())
                .extracting(entry -> entry.run().id()).containsExactly(ended.id());
    }

    @Test
    void anEndUserIsKeptOnceWhateverTheNumberOfTheirRuns() {
        WorkflowRun first = start(RunBed.APP, null, "ada", Map.of("query", "a")).await();
        WorkflowRun second = start(RunBed.APP, null, "ada", Map.of("query", "b")).await();

        List<String> userIds = bed.runs.logs(new LogQuery(RunBed.APP, null, null, 1, 10, null, null, "ada")).items()
                .stream().map(entry -> entry.user().id()).distinct().toList();

        assertThat(first.id()).isNotEqualTo(second.id());
        assertThat(userIds).singleElement().isEqualTo(bed.endUsers.find(RunBed.APP, "ada").orElseThrow().id());
    }
}
