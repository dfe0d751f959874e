package dev.hexaflow.application.runs;

import static dev.hexaflow.application.runs.RunLookupsTest.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.runs.port.in.InspectRunsUseCase.RunDetail;
import dev.hexaflow.application.runs.port.in.InspectRunsUseCase.StreamedEvent;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunObserver;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunUnderWay;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunWorkflowCommand;
import dev.hexaflow.application.runs.port.out.RunRepository.KeptEvent;
import dev.hexaflow.application.runs.service.InspectRunsService;
import dev.hexaflow.application.runs.service.RunWorkflowService;
import dev.hexaflow.domain.workflow.NodeExecution;
import dev.hexaflow.domain.workflow.NodeStatus;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A run read whole by the operator: its row, its node executions in order and the events its stream showed, for
 * runs of the real engine and runs kept in the store. The bed's event format writes an event as its class's
 * simple name, so a replayed event reads as its kind.
 */
class RunDetailTest {

    /** The echo run's stream: the end's answer is streamed as soon as the start gives the query. */
    private static final List<String> ECHO_EVENTS = List.of("WorkflowStarted", "NodeStarted", "TextChunk",
            "NodeFinished", "NodeStarted", "NodeFinished", "WorkflowFinished");

    private final RunBed bed = new RunBed();
    private final RunWorkflowService service = bed.service(0);
    private final InspectRunsService inspect = new InspectRunsService(bed.apps, bed.runs,
            (event, runId, taskId) -> event.getClass().getSimpleName());

    @AfterEach
    void close() {
        bed.close();
    }

    private RunUnderWay start(String version, Map<String, Object> inputs, RunObserver observer) {
        return service.start(new RunWorkflowCommand(RunBed.APP, version, "ada", inputs, List.of()), observer);
    }

    private static List<String> data(RunDetail detail) {
        return detail.events().stream().map(StreamedEvent::data).toList();
    }

    @Test
    void aRunIsReadWithItsNodesInOrderAndItsEventsNumberedFromOne() {
        WorkflowRun ended = start(null, Map.of("query", "hi"), event -> { }).await();

        RunDetail detail = inspect.detail(ended.id());

        assertThat(detail.run().run()).isEqualTo(ended);
        assertThat(detail.run().appName()).isEqualTo("App app-flow");
        assertThat(detail.nodeExecutions()).extracting(NodeExecution::nodeId).containsExactly("start", "end");
        assertThat(detail.nodeExecutions()).extracting(NodeExecution::status)
                .containsOnly(NodeStatus.SUCCEEDED);
        assertThat(data(detail)).containsExactlyElementsOf(ECHO_EVENTS);
        assertThat(detail.events()).extracting(StreamedEvent::seq).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L);
    }

    /** A run nobody listened to kept references to its rows, not frames: its events read the same all the same. */
    @Test
    void aRunNobodyListenedToShowsTheSameEventsAsOneSomeoneListenedTo() {
        WorkflowRun heard = start(null, Map.of("query", "hi"), event -> { }).await();
        WorkflowRun unheard = start(null, Map.of("query", "hi"), RunObserver.NONE).await();

        assertThat(bed.runs.events(unheard.id(), 0)).extracting(KeptEvent::data).first().isEqualTo("@ws");
        assertThat(data(inspect.detail(unheard.id()))).isEqualTo(data(inspect.detail(heard.id())))
                .containsExactlyElementsOf(ECHO_EVENTS);
    }

    @Test
    void aFailedRunShowsItsFailingNodeWithTheInputsItReadAndItsError() {
        WorkflowRun failed = start(RunBed.FAILING, Map.of("query", "hot"), RunObserver.NONE).await();

        RunDetail detail = inspect.detail(failed.id());

        assertThat(detail.run().run().status()).isEqualTo(RunStatus.FAILED);
        assertThat(detail.run().run().error()).contains(RunBed.FAILURE);
        NodeExecution burn = detail.nodeExecutions().stream().filter(node -> node.nodeId().equals("burn"))
                .findFirst().orElseThrow();
        assertThat(burn.status()).isEqualTo(NodeStatus.FAILED);
        assertThat(burn.error()).contains(RunBed.FAILURE);
        assertThat(burn.inputs()).containsEntry("start.query", "hot");
        assertThat(detail.nodeExecutions()).extracting(NodeExecution::nodeId).doesNotContain("end");
        assertThat(data(detail)).startsWith("WorkflowStarted").endsWith("WorkflowFinished");
    }

    @Test
    void aRunStillRunningShowsTheNodeItIsIn() throws InterruptedException {
        RunUnderWay run = start(RunBed.GATED, Map.of(), event -> { });
        bed.awaitWaiting(1);

        RunDetail detail = inspect.detail(run.runId());

        assertThat(detail.run().run().status()).isEqualTo(RunStatus.RUNNING);
        assertThat(detail.run().taskId()).isEqualTo(run.taskId());
        assertThat(detail.nodeExecutions()).extracting(NodeExecution::nodeId).containsExactly("start", "code");
        assertThat(detail.nodeExecutions().get(1).status()).isEqualTo(NodeStatus.RUNNING);
        assertThat(data(detail)).doesNotContain("WorkflowFinished");
        bed.gate.countDown();
        run.await();
        assertThat(data(inspect.detail(run.runId()))).endsWith("WorkflowFinished");
    }

    /** A reference whose row is gone (pruned while read) is left out; a frame kept whole is shown as kept. */
    @Test
    void keptFramesAreShownAsKeptAndAReferenceToANodeNoLongerKeptIsLeftOut() {
        bed.keep(RunBed.APP, "run-1", "ada", RunStatus.SUCCEEDED, Map.of("query", "hi"), 100);
        bed.runs.event(new KeptEvent("run-1", 1, "@ws")).join();
        bed.runs.event(new KeptEvent("run-1", 2, "@ns exec-gone")).join();
        bed.runs.event(new KeptEvent("run-1", 3, "{\"event\":\"text_chunk\"}")).join();
        bed.runs.event(new KeptEvent("run-1", 4, "@wf")).join();

        RunDetail detail = inspect.detail("run-1");

        assertThat(detail.events()).containsExactly(new StreamedEvent(1, "WorkflowStarted"),
                new StreamedEvent(3, "{\"event\":\"text_chunk\"}"), new StreamedEvent(4, "WorkflowFinished"));
    }

    @Test
    void anotherAppsRunIsReadToAndARunOfAnAppNoLongerKnownKeepsItsAppIdAlone() {
        bed.keep(RunBed.CHAT_APP, "turn-1", "ada", RunStatus.SUCCEEDED, Map.of(), 100);
        bed.keep("app-gone", "run-g", "ada", RunStatus.SUCCEEDED, Map.of(), 100);

        RunDetail turn = inspect.detail("turn-1");
        RunDetail gone = inspect.detail("run-g");

        assertThat(turn.run().appMode()).isEqualTo("advanced-chat");
        assertThat(turn.events()).isEmpty();
        assertThat(gone.run().appId()).isEqualTo("app-gone");
        assertThat(gone.run().appName()).isNull();
        assertThat(gone.run().appMode()).isNull();
    }

    @Test
    void anUnknownRunIsNotFound() {
        assertRefused(() -> inspect.detail("run-none"), ApiError.NOT_FOUND, "Workflow run not found");
        assertRefused(() -> inspect.detail("r".repeat(65)), ApiError.NOT_FOUND, "Workflow run not found");
    }
}
