package dev.hexaflow.application.runs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.runs.port.in.ListNodeExecutionsUseCase.NodeExecutionPage;
import dev.hexaflow.application.runs.port.in.ListNodeExecutionsUseCase.NodeExecutionsQuery;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunObserver;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunUnderWay;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunWorkflowCommand;
import dev.hexaflow.application.runs.service.GetRunService;
import dev.hexaflow.application.runs.service.ListNodeExecutionsService;
import dev.hexaflow.domain.workflow.ExecutionMetadata;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeExecution;
import dev.hexaflow.domain.workflow.NodeStatus;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Reading one run and its node executions, on the in-memory run store: a run is its own app's only, and node
 * executions come in pages, in the order the nodes started.
 */
class RunLookupsTest {

    private final RunBed bed = new RunBed();
    private final GetRunService get = new GetRunService(bed.runs);
    private final ListNodeExecutionsService nodes = new ListNodeExecutionsService(bed.runs);

    @AfterEach
    void close() {
        bed.close();
    }

    /** Keeps {@code count} node executions of the run, indexed from 1, in reverse so order comes from the index. */
    private void nodesOf(String runId, int count) {
        for (int i = count; i >= 1; i--) {
            bed.runs.saveNode(runId, NodeExecution.started("exec-" + i, Node.of("n" + i, NodeType.CODE,
                    Map.of("title", "Node " + i)), i, null, ExecutionMetadata.NONE, 100 + i)).join();
        }
    }

    private NodeExecutionPage page(String appId, String runId, int page, int limit) {
        return nodes.list(new NodeExecutionsQuery(appId, runId, page, limit));
    }

    @Test
    void aRunIsAnsweredAsKeptToItsOwnApp() {
        WorkflowRun kept = bed.keep(RunBed.APP, "run-1", "ada", RunStatus.SUCCEEDED, Map.of("query", "hi"), 500);

        WorkflowRun found = get.get(RunBed.APP, "run-1");

        assertThat(found).isEqualTo(kept);
        assertThat(found.outputs()).containsEntry("answer", "hi");
    }

    @Test
    void anotherAppsRunIsNotFoundAsAnUnknownOneIs() {
        bed.keep(RunBed.APP, "run-1", "ada", RunStatus.SUCCEEDED, Map.of(), 500);

        assertRefused(() -> get.get(RunBed.CHAT_APP, "run-1"), ApiError.NOT_FOUND, "Workflow run not found.");
        assertRefused(() -> get.get(RunBed.APP, "run-2"), ApiError.NOT_FOUND, "Workflow run not found.");
    }

    @Test
    void aRunThatRanOnTheEngineIsFoundWithItsOutputs() {
        RunUnderWay under = bed.service(0).start(new RunWorkflowCommand(RunBed.APP, null, "ada",
                Map.of("query", "ping"), null), RunObserver.NONE);
        under.await();

        WorkflowRun found = get.get(RunBed.APP, under.runId());

        assertThat(found.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(found.outputs()).isEqualTo(Map.of("answer", "ping"));
        assertThat(page(RunBed.APP, under.runId(), 1, 10).items()).extracting(NodeExecution::nodeId)
                .containsExactly("start", "end");
    }

    @Test
    void nodeExecutionsComeInTheOrderTheNodesStartedPageByPage() {
        bed.keep(RunBed.APP, "run-1", "ada", RunStatus.SUCCEEDED, Map.of(), 500);
        nodesOf("run-1", 5);

        NodeExecutionPage first = page(RunBed.APP, "run-1", 1, 2);
        NodeExecutionPage last = page(RunBed.APP, "run-1", 3, 2);

        assertThat(first.items()).extracting(NodeExecution::id).containsExactly("exec-1", "exec-2");
        assertThat(first.total()).isEqualTo(5);
        assertThat(first.hasMore()).isTrue();
        assertThat(last.items()).extracting(NodeExecution::id).containsExactly("exec-5");
        assertThat(last.hasMore()).isFalse();
    }

    @Test
    void aPagePastTheLastIsEmptyWithTheTotalStillTold() {
        bed.keep(RunBed.APP, "run-1", "ada", RunStatus.SUCCEEDED, Map.of(), 500);
        nodesOf("run-1", 3);

        NodeExecutionPage beyond = page(RunBed.APP, "run-1", 4, 1);

        assertThat(beyond.items()).isEmpty();
        assertThat(beyond.total()).isEqualTo(3);
        assertThat(beyond.hasMore()).isFalse();
    }

    @Test
    void nodeExecutionsOfAnotherAppsRunOrOfNoRunAreNotFound() {
        bed.keep(RunBed.APP, "run-1", "ada", RunStatus.SUCCEEDED, Map.of(), 500);
        nodesOf("run-1", 2);

        assertRefused(() -> page(RunBed.CHAT_APP, "run-1", 1, 10), ApiError.NOT_FOUND, "Workflow run not found.");
        assertRefused(() -> page(RunBed.APP, "run-9", 1, 10), ApiError.NOT_FOUND, "Workflow run not found.");
    }

    @Test
    void aPageOrLimitOutOfRangeIsRefusedBeforeTheRunIsLookedFor() {
        assertRefused(() -> page(RunBed.APP, "run-9", 0, 10), ApiError.INVALID_PARAM,
                "page must be between 1 and 99999");
        assertRefused(() -> page(RunBed.APP, "run-9", 100000, 10), ApiError.INVALID_PARAM,
                "page must be between 1 and 99999");
        assertRefused(() -> page(RunBed.APP, "run-9", 1, 0), ApiError.INVALID_PARAM,
                "limit must be between 1 and 100");
        assertRefused(() -> page(RunBed.APP, "run-9", 1, 101), ApiError.INVALID_PARAM,
                "limit must be between 1 and 100");
    }

    @Test
    void aRunIsAnsweredRunningWhileItGoesOnAndEndedOnceItEnds() throws InterruptedException {
        RunUnderWay under = bed.service(0).start(new RunWorkflowCommand(RunBed.APP, RunBed.GATED, "ada", Map.of(),
                null), event -> { });
        bed.awaitWaiting(1);

        assertThat(get.get(RunBed.APP, under.runId()).status()).isEqualTo(RunStatus.RUNNING);
        assertThat(get.get(RunBed.APP, under.runId()).finishedAt()).isNull();
        bed.gate.countDown();
        under.await();

        WorkflowRun ended = get.get(RunBed.APP, under.runId());
        assertThat(ended.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(ended.finishedAt()).isNotNull();
    }

    @Test
    void aFailedRunsNodeExecutionsEndWithTheFailingNodeWhichKeptWhatItRead() {
        RunUnderWay under = bed.service(0).start(new RunWorkflowCommand(RunBed.APP, RunBed.FAILING, "ada",
                Map.of("query", "hot"), null), RunObserver.NONE);
        under.await();

        NodeExecutionPage all = page(RunBed.APP, under.runId(), 1, 10);

        assertThat(all.items()).extracting(NodeExecution::nodeId).containsExactly("start", "burn");
        assertThat(all.items().get(1).status()).isEqualTo(NodeStatus.FAILED);
        assertThat(all.items().get(1).inputs()).containsEntry("start.query", "hot");
        assertThat(all.items().get(1).error()).contains(RunBed.FAILURE);
    }

    static void assertRefused(ThrowingCallable call, ApiError error, String message) {
        assertThatThrownBy(call).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.error()).isEqualTo(error);
            assertThat(e.getMessage()).isEqualTo(message);
        });
    }
}
