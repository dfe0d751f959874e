package dev.hexaflow.application.app.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.application.app.port.out.RunEventFormat;
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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * When and where a run's listener hears its events: each once it is kept, in order, and never on the thread that
 * completed the write (the store's single writer), so that a slow listener cannot stall every run's writes.
 */
class RunRecorderTest {

    private static final WorkflowRun STARTED = WorkflowRun.started("run-1", "wf-1", Map.of(), 10);
    private static final RunEvent NODE = new RunEvent.NodeStarted(new NodeExecution("exec-1", "llm", NodeType.LLM,
            "LLM", 1, null, Map.of(), null, null, NodeStatus.RUNNING, null, 0, ExecutionMetadata.NONE, 10, null));
    private static final RunEvent END = new RunEvent.WorkflowFinished(STARTED.finish(RunStatus.SUCCEEDED, Map.of(),
            null, 0.1, 0, 1, 0, 11));

    @Test
    void aListenerHearsNothingBeforeItIsKeptThenEachEventInOrderOffTheWritersThread() throws Exception {
        HeldRuns runs = new HeldRuns();
        List<RunEvent> heard = new CopyOnWriteArrayList<>();
        List<String> threads = new CopyOnWriteArrayList<>();
        ExecutorService listeners = Executors.newCachedThreadPool();
        ExecutorService writer = Executors.newSingleThreadExecutor(task -> new Thread(task, "store-writer"));
        try {
            RunRecorder recorder = new RunRecorder(runs, "app-1", "task-1", new EndUser("eu-1", "app-1", "ada", 1),
                    "1", "log-1", event -> {
                        threads.add(Thread.currentThread().getName());
                        heard.add(event);
                    }, listeners, RunEventFormat.NONE, new RunFeeds());

            recorder.on(new RunEvent.WorkflowStarted(STARTED));
            recorder.on(NODE);
            assertThat(heard).isEmpty();
            CompletableFuture<Void> ending = CompletableFuture.runAsync(() -> recorder.on(END));
            while (runs.writes.size() < 3) {
                Thread.sleep(10);
            }
            writer.submit(runs::commitAll).get(5, TimeUnit.SECONDS);
            ending.get(5, TimeUnit.SECONDS);

            assertThat(heard).hasSize(3).last().isEqualTo(END);
            assertThat(heard.get(1)).isEqualTo(NODE);
            assertThat(threads).hasSize(3).noneMatch("store-writer"::equals);
        } finally {
            listeners.shutdownNow();
            writer.shutdownNow();
        }
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
        public CompletableFuture<Void> event(KeptEvent event) {
            return held();
        }

        @Override
        public List<KeptEvent> events(String runId, long after) {
            return List.of();
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
