package dev.hexaflow.application.runs.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.application.runs.port.out.PauseRepository;
import dev.hexaflow.application.runs.port.out.RunEventFormat;
import dev.hexaflow.application.runs.port.out.RunRepository;
import dev.hexaflow.domain.app.EndUser;
import dev.hexaflow.domain.workflow.ExecutionMetadata;
import dev.hexaflow.domain.workflow.HumanInputForm;
import dev.hexaflow.domain.workflow.NodeExecution;
import dev.hexaflow.domain.workflow.NodeStatus;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.PausedRun;
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
import org.junit.jupiter.api.Timeout;

/**
 * When and where a run's listener hears its events: each once it is kept, in order, and never on the thread that
 * completed the write (the store's single writer), so that a slow listener cannot stall every run's writes.
 */
class RunRecorderTest {

    private static final WorkflowRun STARTED = WorkflowRun.started("run-1", "wf-1", Map.of(), 10);
    private static final RunEvent NODE = new RunEvent.NodeStarted(new NodeExecution("exec-1", "llm", NodeType.LLM,
            "LLM", 1, null, Map.of(), null, null, NodeStatus.RUNNING, null, 0, ExecutionMetadata.NONE, 10, null));
    private static final HumanInputForm FORM = new HumanInputForm("form-1", "tok-1", "run-1", "ask", "Ask",
            "Your name?", List.of(), List.of(Map.of("id", "ok", "title", "OK")), Map.of(), 9_999_999_999L,
            List.of(Map.of("type", "email", "enabled", true, "config", Map.of("recipients", Map.of(
                    "whole_workspace", false, "items", List.of(Map.of("type", "external", "email",
                            "ada@example.com"))), "subject", "Please answer", "body", "{{#url#}}", "debug_mode",
                    false))));
    private static final RunEvent PAUSE = new RunEvent.WorkflowPaused(STARTED.pause(Map.of(), 0.1, 0, 1, 0),
            new PausedRun(STARTED, "task-1", Map.of(), Map.of(), Map.of("ask", new PausedRun.WaitingNode("ask",
                    "exec-2", 2, "llm", 10, FORM)), 2, Map.of()), List.of(FORM));
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
                    }, listeners, RunEventFormat.NONE, new RunFeeds(), new HeldRecords());

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

    private static final RunEventFormat NAMES = (event, runId, taskId) -> event.getClass().getSimpleName();

    private static final RunEvent NODE_DONE = new RunEvent.NodeFinished(new NodeExecution("exec-1", "llm",
            NodeType.LLM, "LLM", 1, null, Map.of(), null, Map.of("text", "hi"), NodeStatus.SUCCEEDED, null, 0.2,
            ExecutionMetadata.NONE, 10, 11L));

    @Test
    void aRunNobodyListensToIsKeptInOneWriteAtItsEndAndItsEndWaitsForThatWrite() throws Exception {
        HeldRuns runs = new HeldRuns();
        HeldRecords holds = new HeldRecords();
        RunFeeds feeds = new RunFeeds();
        RunRecorder recorder = new RunRecorder(runs, "app-1", "task-1", new EndUser("eu-1", "app-1", "ada", 1), "1",
                "log-1", dev.hexaflow.workflow.engine.RunListener.NONE, Runnable::run, NAMES, feeds,
                holds);

        recorder.on(new RunEvent.WorkflowStarted(STARTED));
        recorder.on(NODE);
        recorder.on(NODE_DONE);
        assertThat(runs.writes).isEmpty();
        assertThat(holds.size()).isEqualTo(1);
        CompletableFuture<Void> ending = CompletableFuture.runAsync(() -> recorder.on(END));
        while (runs.writes.isEmpty()) {
            Thread.sleep(10);
        }
        Thread.sleep(50);
        assertThat(ending).isNotDone();
        runs.commitAll();
        ending.get(5, TimeUnit.SECONDS);

        assertThat(runs.writes).hasSize(1);
        assertThat(runs.kept).hasSize(1);
        RunRepository.KeptRun kept = runs.kept.get(0);
        assertThat(kept.started().run().status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(kept.nodes()).singleElement().satisfies(node -> assertThat(node.status())
                .isEqualTo(NodeStatus.SUCCEEDED));
        assertThat(kept.events()).extracting(RunRepository.KeptEvent::seq).containsExactly(1L, 2L, 3L, 4L);
        assertThat(kept.events()).extracting(RunRepository.KeptEvent::data).as("references to the rows kept")
                .containsExactly("@ws", "@ns exec-1", "@nf exec-1", "@wf");
        assertThat(holds.size()).isZero();
    }

    @Test
    void aRunHeldPastItsHoldIsKeptAsItIsThenAndAsItGoesFromThere() throws Exception {
        HeldRuns runs = new HeldRuns();
        long[] now = {0};
        HeldRecords holds = new HeldRecords(() -> now[0]);
        RunRecorder recorder = new RunRecorder(runs, "app-1", "task-1", new EndUser("eu-1", "app-1", "ada", 1), "1",
                "log-1", dev.hexaflow.workflow.engine.RunListener.NONE, Runnable::run, NAMES,
                new RunFeeds(), holds);
        recorder.on(new RunEvent.WorkflowStarted(STARTED));
        recorder.on(NODE);

        now[0] = HeldRecords.HOLD.toNanos() - 1;
        assertThat(holds.keepOverdue()).isZero();
        now[0] = HeldRecords.HOLD.toNanos();
        assertThat(holds.keepOverdue()).isEqualTo(1);
        assertThat(holds.keepOverdue()).isZero();

        assertThat(runs.kept).singleElement().satisfies(kept -> {
            assertThat(kept.started().run().status()).isEqualTo(RunStatus.RUNNING);
            assertThat(kept.nodes()).singleElement().satisfies(node -> assertThat(node.status())
                    .isEqualTo(NodeStatus.RUNNING));
            assertThat(kept.events()).extracting(RunRepository.KeptEvent::seq).containsExactly(1L, 2L);
        });
        recorder.on(NODE_DONE);
        CompletableFuture<Void> ending = CompletableFuture.runAsync(() -> recorder.on(END));
        while (runs.finished.isEmpty()) {
            Thread.sleep(10);
        }
        Thread.sleep(50);
        assertThat(ending).isNotDone();
        runs.commitAll();
        ending.get(5, TimeUnit.SECONDS);
        assertThat(runs.nodes).extracting(NodeExecution::status).containsExactly(NodeStatus.SUCCEEDED);
        assertThat(runs.finished).extracting(WorkflowRun::status).containsExactly(RunStatus.SUCCEEDED);
        assertThat(runs.events).extracting(RunRepository.KeptEvent::seq).containsExactly(3L, 4L);
    }

    @Test
    void aFollowerWhoAttachedWhileARunWasHeldHearsItsFramesNotItsReferencesOnceItIsKept() throws Exception {
        HeldRuns runs = new HeldRuns();
        RunFeeds feeds = new RunFeeds();
        feeds.open("run-1", "app-1", "task-1");
        java.util.concurrent.BlockingQueue<Object> follower = feeds.follow("app-1", "run-1").orElseThrow();
        RunRecorder recorder = new RunRecorder(runs, "app-1", "task-1", new EndUser("eu-1", "app-1", "ada", 1), "1",
                "log-1", dev.hexaflow.workflow.engine.RunListener.NONE, Runnable::run, NAMES, feeds,
                new HeldRecords());
        recorder.on(new RunEvent.WorkflowStarted(STARTED));
        recorder.on(NODE);
        recorder.on(NODE_DONE);
        CompletableFuture<Void> ending = CompletableFuture.runAsync(() -> recorder.on(END));
        while (runs.kept.isEmpty()) {
            Thread.sleep(10);
        }
        assertThat(follower).as("nothing before the write is committed").isEmpty();
        runs.commitAll();
        ending.get(5, TimeUnit.SECONDS);
        recorder.fed().get(5, TimeUnit.SECONDS);

        assertThat(follower).extracting(event -> ((RunRepository.KeptEvent) event).data()).containsExactly(
                "WorkflowStarted", "NodeStarted", "NodeFinished", "WorkflowFinished");
        assertThat(runs.kept.get(0).events()).extracting(RunRepository.KeptEvent::data).containsExactly("@ws",
                "@ns exec-1", "@nf exec-1", "@wf");
    }

    @Test
    void aHeldRunWhoseWriteFailsOnTheTimersThreadFailsItsEnd() {
        HeldRuns runs = new HeldRuns() {
            @Override
            public CompletableFuture<Void> kept(KeptRun run) {
                throw new IllegalStateException("not writable");
            }
        };
        long[] now = {0};
        HeldRecords holds = new HeldRecords(() -> now[0]);
        RunRecorder recorder = new RunRecorder(runs, "app-1", "task-1", new EndUser("eu-1", "app-1", "ada", 1), "1",
                "log-1", dev.hexaflow.workflow.engine.RunListener.NONE, Runnable::run, NAMES,
                new RunFeeds(), holds);
        recorder.on(new RunEvent.WorkflowStarted(STARTED));
        now[0] = HeldRecords.HOLD.toNanos();
        assertThat(holds.keepOverdue()).isEqualTo(1);
        recorder.on(NODE_DONE);
        runs.commitAll();

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> recorder.on(END))
                .isInstanceOf(IllegalStateException.class).hasMessage("not writable");
    }

    @Test
    void anEndLeftToTheCallerFreesTheThreadThatPlayedItAndSettlesOnceItIsKeptAndHeard() throws Exception {
        HeldRuns runs = new HeldRuns();
        RunRecorder held = new RunRecorder(runs, "app-1", "task-1", new EndUser("eu-1", "app-1", "ada", 1), "1",
                "log-1", dev.hexaflow.workflow.engine.RunListener.NONE, Runnable::run, NAMES, new RunFeeds(),
                new HeldRecords());
        List<RunEvent> heard = new CopyOnWriteArrayList<>();
        ExecutorService listeners = Executors.newCachedThreadPool();
        RunRecorder streamed = new RunRecorder(runs, "app-1", "task-2", new EndUser("eu-1", "app-1", "ada", 1), "1",
                "log-2", heard::add, listeners, NAMES, new RunFeeds(), new HeldRecords());
        try {
            for (RunRecorder recorder : List.of(held, streamed)) {
                recorder.leaveEndToCaller();
                recorder.on(new RunEvent.WorkflowStarted(STARTED));
                recorder.on(NODE);
                // Played here, on the test's thread: it returns with nothing committed.
                recorder.on(END);
                assertThat(recorder.settled()).isNotDone();
            }
            Thread.sleep(50);
            assertThat(held.settled()).isNotDone();
            assertThat(streamed.settled()).isNotDone();
            assertThat(heard).as("nothing is told before it is kept").isEmpty();
            runs.commitAll();
            held.settled().get(5, TimeUnit.SECONDS);
            streamed.settled().get(5, TimeUnit.SECONDS);

            assertThat(heard).as("the end is settled once the listener heard it").containsExactly(
                    new RunEvent.WorkflowStarted(STARTED), NODE, END);
            assertThat(runs.kept).singleElement().satisfies(kept -> assertThat(kept.started().run().status())
                    .isEqualTo(RunStatus.SUCCEEDED));
        } finally {
            listeners.shutdownNow();
        }
    }

    @Test
    // A pause that waited on the thread that played it would wait for good: the test's thread is given up on.
    @Timeout(value = 10, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aPauseLeftToTheCallerFreesTheThreadThatPlayedItAndItsMailWaitsUntilItIsKept() throws Exception {
        HeldRuns runs = new HeldRuns();
        RunRecorder recorder = new RunRecorder(runs, "app-1", "task-1", new EndUser("eu-1", "app-1", "ada", 1), "1",
                "log-1", dev.hexaflow.workflow.engine.RunListener.NONE, Runnable::run, NAMES, new RunFeeds(), null);
        List<String> mailed = new CopyOnWriteArrayList<>();
        PausedFormMails mails = new PausedFormMails(mail -> mailed.addAll(mail.to()), () -> "http://hexaflow.test",
                Runnable::run);
        dev.hexaflow.workflow.engine.RunListener told = mails.after(recorder, recorder::settled);
        recorder.leaveEndToCaller();
        told.on(new RunEvent.WorkflowStarted(STARTED));
        told.on(NODE);

        // Played here, on the test's thread: it returns with nothing committed, and nothing mailed.
        told.on(PAUSE);

        assertThat(recorder.settled()).isNotDone();
        assertThat(mailed).as("no link to a form that is not kept yet").isEmpty();
        runs.commitAll();
        recorder.settled().get(5, TimeUnit.SECONDS);
        assertThat(mailed).containsExactly("ada@example.com");
    }

    @Test
    void anEndLeftToTheCallerWhoseWriteFailsFailsItsSettlingWithTheCause() {
        HeldRuns runs = new HeldRuns() {
            @Override
            public CompletableFuture<Void> kept(KeptRun run) {
                return CompletableFuture.failedFuture(new IllegalStateException("not writable"));
            }
        };
        RunRecorder recorder = new RunRecorder(runs, "app-1", "task-1", new EndUser("eu-1", "app-1", "ada", 1), "1",
                "log-1", dev.hexaflow.workflow.engine.RunListener.NONE, Runnable::run, NAMES, new RunFeeds(),
                new HeldRecords());
        recorder.leaveEndToCaller();
        recorder.on(new RunEvent.WorkflowStarted(STARTED));
        recorder.on(END);

        assertThat(recorder.settled()).failsWithin(java.time.Duration.ofSeconds(5))
                .withThrowableOfType(java.util.concurrent.ExecutionException.class)
                .havingRootCause().isInstanceOf(IllegalStateException.class).withMessage("not writable");
    }

    /** Keeps nothing: each write's commit waits until the test commits all of them. */
    private static class HeldRuns implements RunRepository {

        final List<CompletableFuture<Void>> writes = new CopyOnWriteArrayList<>();
        final List<KeptRun> kept = new CopyOnWriteArrayList<>();
        final List<NodeExecution> nodes = new CopyOnWriteArrayList<>();
        final List<WorkflowRun> finished = new CopyOnWriteArrayList<>();
        final List<KeptEvent> events = new CopyOnWriteArrayList<>();

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
        public CompletableFuture<Void> kept(KeptRun run) {
            kept.add(run);
            return held();
        }

        @Override
        public CompletableFuture<Void> saveNode(String runId, NodeExecution execution) {
            nodes.add(execution);
            return held();
        }

        @Override
        public CompletableFuture<Void> finished(WorkflowRun run) {
            finished.add(run);
            return held();
        }

        @Override
        public CompletableFuture<Void> event(KeptEvent event) {
            events.add(event);
            return held();
        }

        @Override
        public CompletableFuture<Void> paused(RunPause pause) {
            return held();
        }

        @Override
        public PauseRepository pauses() {
            throw new UnsupportedOperationException("the recorder keeps no forms");
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
        public Optional<String> taskId(String runId) {
            return Optional.empty();
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
        public RunSlice search(RunSearch search) {
            return new RunSlice(List.of(), false);
        }

        @Override
        public Optional<FoundRun> locate(String runId) {
            return Optional.empty();
        }

        @Override
        public int failUnfinished(String error, long finishedAt, java.util.Set<String> spared) {
            return 0;
        }

        @Override
        public int prune(Pruning pruning) {
            return 0;
        }
    }
}
