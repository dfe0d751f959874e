package dev.hexaflow.application.app.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.application.app.port.out.RunRepository;
import dev.hexaflow.domain.app.EndUser;
import dev.hexaflow.domain.workflow.ExecutionMetadata;
import dev.hexaflow.domain.workflow.NodeExecution;
import dev.hexaflow.domain.workflow.NodeStatus;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * When a run's listener hears its events: a listener that tells a client hears each once it is kept; one that
 * tells no one hears each as it comes, and the end once everything before it is kept, so that the run's writes
 * are waited for once.
 */
class RunRecorderTest {

    private static final WorkflowRun STARTED = WorkflowRun.started("run-1", "wf-1", Map.of(), 10);
    private static final RunEvent NODE = new RunEvent.NodeStarted(new NodeExecution("exec-1", "llm", NodeType.LLM,
            "LLM", 1, null, Map.of(), null, null, NodeStatus.RUNNING, null, 0, ExecutionMetadata.NONE, 10, null));
    private static final RunEvent END = new RunEvent.WorkflowFinished(STARTED.finish(RunStatus.SUCCEEDED, Map.of(),
            null, 0.1, 0, 1, 0, 11));

    @Test
    void aListenerThatTellsAClientHearsNothingBeforeItIsKept() {
        HeldRuns runs = new HeldRuns();
        List<RunEvent> heard = new CopyOnWriteArrayList<>();
        RunRecorder recorder = recorder(runs, heard::add, RunRecorder.Hearing.AFTER_KEPT);

        recorder.on(new RunEvent.WorkflowStarted(STARTED));
        recorder.on(NODE);

        assertThat(heard).isEmpty();
        runs.commitAll();
        assertThat(heard).hasSize(2);
    }

    @Test
    void aListenerThatTellsNoOneHearsAtOnceAndTheEndOnlyOnceAllIsKept() throws Exception {
        HeldRuns runs = new HeldRuns();
        List<RunEvent> heard = new CopyOnWriteArrayList<>();
        RunRecorder recorder = recorder(runs, heard::add, RunRecorder.Hearing.AT_ONCE);

        recorder.on(new RunEvent.WorkflowStarted(STARTED));
        recorder.on(NODE);
        assertThat(heard).hasSize(2);
        assertThat(runs.writes).hasSize(2).allMatch(write -> !write.isDone());

        var thread = Executors.newSingleThreadExecutor();
        try {
            Future<?> ending = thread.submit(() -> recorder.on(END));
            Thread.sleep(100);
            assertThat(ending.isDone()).as("the end waits for the writes").isFalse();
            assertThat(heard).hasSize(2);
            runs.commitAll();
            ending.get(5, TimeUnit.SECONDS);
        } finally {
            thread.shutdownNow();
        }
        assertThat(heard).hasSize(3).last().isEqualTo(END);
    }

    private static RunRecorder recorder(HeldRuns runs, dev.hexaflow.application.workflow.engine.RunListener next,
            RunRecorder.Hearing hearing) {
        return new RunRecorder(runs, "app-1", "task-1", new EndUser("eu-1", "app-1", "ada", 1), "1", "log-1", next,
                hearing);
    }

    /** Keeps nothing: each write's commit waits until the test commits all of them. */
    private static final class HeldRuns implements RunRepository {

        final List<CompletableFuture<Void>> writes = new CopyOnWriteArrayList<>();

        void commitAll() {
            writes.forEach(write -> write.complete(null));
        }

        private CompletableFuture<Void> held() {
            CompletableFuture<Void> write = new CompletableFuture<>();
            writes.add(write);
            return write;
        }

        @Override
        public CompletableFuture<Void> started(StartedRun run) {
            return held();
        }

        @Override
        public CompletableFuture<Void> saveNode(String runId, NodeExecution execution) {
            return held();
        }

        @Override
        public CompletableFuture<Void> finished(WorkflowRun run) {
            return held();
        }

        @Override
        public void close() {
        }

        @Override
        public Optional<WorkflowRun> find(String appId, String runId) {
            return Optional.empty();
        }

        @Override
        public List<NodeExecution> nodeExecutions(String runId) {
            return List.of();
        }

        @Override
        public NodeExecutionSlice nodeExecutions(String runId, int offset, int limit) {
            return new NodeExecutionSlice(0, List.of());
        }

        @Override
        public LogPage logs(LogQuery query) {
            return new LogPage(1, 1, 0, false, List.of());
        }

        @Override
        public int failUnfinished(String error, long finishedAt) {
            return 0;
        }

        @Override
        public int prune(Pruning pruning) {
            return 0;
        }
    }
}
