package dev.hexaflow.adapters.persistence;

import static dev.hexaflow.adapters.persistence.WorkflowFixtures.APP;
import static dev.hexaflow.adapters.persistence.WorkflowFixtures.OTHER_APP;
import static dev.hexaflow.adapters.persistence.WorkflowFixtures.nodeStarted;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.application.runs.port.out.RunRepository.KeptEvent;
import dev.hexaflow.application.runs.port.out.RunRepository.LogEntry;
import dev.hexaflow.application.runs.port.out.RunRepository.LogPage;
import dev.hexaflow.application.runs.port.out.RunRepository.LogQuery;
import dev.hexaflow.application.runs.port.out.RunRepository.StartedRun;
import dev.hexaflow.application.runs.port.out.RunRepository;
import dev.hexaflow.domain.app.EndUser;
import dev.hexaflow.domain.workflow.ExecutionMetadata;
import dev.hexaflow.domain.workflow.NodeExecution;
import dev.hexaflow.domain.workflow.NodeStatus;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/**
 * What every {@link RunRepository} promises; each adapter runs it by extending this class. Runs are started with
 * a version label {@code v-<run id>} and a log id {@code log-<run id>}, by an end user {@code user-<session>}.
 */
abstract class RunRepositoryContract {

    protected abstract RunRepository repository();

    private static final String STOPPED = "The server stopped during the run.";

    private WorkflowRun start(String appId, String id, String session, Map<String, Object> inputs, long at) {
        WorkflowRun run = WorkflowRun.started(id, "wf-1", inputs, at);
        repository().started(started(run, appId, session)).join();
        return run;
    }

    private static StartedRun started(WorkflowRun run, String appId, String session) {
        return new StartedRun(run, appId, "task-" + run.id(), new EndUser("user-" + session, appId, session, 1),
                "v-" + run.id(), "log-" + run.id());
    }

    private static WorkflowRun succeeded(WorkflowRun run, Map<String, Object> outputs, long at) {
        return run.finish(RunStatus.SUCCEEDED, outputs, null, 0.5, 3, 2, 0, at);
    }

    private static WorkflowRun failed(WorkflowRun run, long at) {
        return run.finish(RunStatus.FAILED, Map.of(), "boom", 1.5, 0, 1, 1, at);
    }

    private LogPage search(String app, String keyword, String status, Long before, Long after, String session) {
        return repository().logs(new LogQuery(app, keyword, status, 1, 20, before, after, session));
    }

    private LogPage all(String app) {
        return search(app, null, null, null, null, null);
    }

    private static List<String> ids(LogPage page) {
        return page.items().stream().map(entry -> entry.run().id()).toList();
    }

    @Test
    void aStartedRunIsFoundRunningAsStartedAndOnlyByItsApp() {
        WorkflowRun run = start(APP, "r1", "ada", Map.of("q", "hello", "sys.user_id", "ada"), 100);

        assertThat(repository().find(APP, "r1")).contains(run);
        assertThat(repository().find(OTHER_APP, "r1")).isEmpty();
        assertThat(repository().find(APP, "r9")).isEmpty();
    }

    @Test
    void aTracedRunKeepsItsTraceIdThroughItsEndWhetherKeptEventByEventOrWholeAndAnUntracedOneHasNone() {
        String trace = "4bf92f3577b34da6a3ce929d0e0e4736";
        WorkflowRun traced = WorkflowRun.started("r1", "wf-1", Map.of(), 100);
        StartedRun start = started(traced, APP, "ada");
        repository().started(new StartedRun(traced, APP, start.taskId(), start.user(), start.version(),
                start.logId(), trace)).join();
        repository().finished(succeeded(traced, Map.of(), 101)).join();
        WorkflowRun whole = succeeded(WorkflowRun.started("r2", "wf-1", Map.of(), 100), Map.of(), 101);
        StartedRun wholeStart = started(whole, APP, "ada");
        repository().kept(new RunRepository.KeptRun(new StartedRun(whole, APP, wholeStart.taskId(),
                wholeStart.user(), wholeStart.version(), wholeStart.logId(), "0af7651916cd43dd8448eb211c80319c"),
                List.of(), List.of())).join();
        start(APP, "r3", "ada", Map.of(), 100);

        assertThat(repository().locate("r1").orElseThrow().traceId()).isEqualTo(trace);
        assertThat(repository().locate("r2").orElseThrow().traceId()).isEqualTo("0af7651916cd43dd8448eb211c80319c");
        assertThat(repository().locate("r3").orElseThrow().traceId()).isNull();
        assertThat(repository().search(new RunRepository.RunSearch(List.of(APP), null, null, null, null, null, null,
                10)).items()).extracting(RunRepository.FoundRun::traceId)
                .containsExactly(null, "0af7651916cd43dd8448eb211c80319c", trace);
    }

    @Test
    void aFinishedRunKeepsItsEndAndItsStart() {
        WorkflowRun run = start(APP, "r1", "ada", Map.of("q", "hello"), 100);
        WorkflowRun ended = succeeded(run, Map.of("answer", "hi"), 101);

        repository().finished(ended).join();

        assertThat(repository().find(APP, "r1")).contains(ended);
    }

    @Test
    void aRunsEndIsWrittenOnceAndALaterEndChangesNeitherTheRunNorTheCounts() {
        WorkflowRun run = start(APP, "r1", "ada", Map.of(), 100);
        WorkflowRun first = succeeded(run, Map.of("answer", "hi"), 101);
        repository().finished(first).join();

        repository().finished(failed(run, 102)).join();

        assertThat(repository().find(APP, "r1")).contains(first);
        assertThat(search(APP, null, "succeeded", null, null, null).total()).isEqualTo(1);
        assertThat(search(APP, null, "failed", null, null, null).total()).isZero();
        assertThat(all(APP).total()).isEqualTo(1);
    }

    @Test
    void aStartAndTwoEndsMadeWithoutWaitingKeepTheFirstEnd() {
        WorkflowRun run = WorkflowRun.started("r1", "wf-1", Map.of(), 100);
        WorkflowRun first = succeeded(run, Map.of("answer", "hi"), 101);

        List<CompletableFuture<Void>> writes = List.of(repository().started(started(run, APP, "ada")),
                repository().finished(first), repository().finished(failed(run, 102)));
        writes.forEach(CompletableFuture::join);

        assertThat(repository().find(APP, "r1")).contains(first);
        assertThat(search(APP, null, "failed", null, null, null).total()).isZero();
        assertThat(search(APP, null, "succeeded", null, null, null).total()).isEqualTo(1);
    }

    @Test
    void finishingARunNeverStartedKeepsNothing() {
        WorkflowRun ghost = WorkflowRun.started("ghost", "wf-1", Map.of(), 100);

        repository().finished(succeeded(ghost, Map.of(), 101)).join();

        assertThat(repository().find(APP, "ghost")).isEmpty();
        assertThat(all(APP).total()).isZero();
        assertThat(search(APP, null, "succeeded", null, null, null).items()).isEmpty();
    }

    @Test
    void aRunStartedTwiceIsRefusedAndTheFirstStartStays() {
        WorkflowRun run = WorkflowRun.started("r1", "wf-1", Map.of("q", "first"), 100);
        WorkflowRun again = WorkflowRun.started("r1", "wf-1", Map.of("q", "second"), 200);

        CompletableFuture<Void> first = repository().started(started(run, APP, "ada"));
        CompletableFuture<Void> second = repository().started(started(again, APP, "bob"));

        first.join();
        assertThatThrownBy(second::join).isInstanceOf(CompletionException.class);
        assertThat(repository().find(APP, "r1")).contains(run);
        assertThat(all(APP).total()).isEqualTo(1);
    }

    @Test
    void valuesAreKeptAsJsonCarriesThemAndLaterChangesToTheCallersMapsDoNotReachThem() {
        Map<String, Object> inputs = new LinkedHashMap<>();
        inputs.put("count", 5);
        inputs.put("ratio", 1.5);
        inputs.put("tags", List.of("a", 2));
        inputs.put("nested", Map.of("on", true));
        inputs.put("none", null);
        start(APP, "r1", "ada", inputs, 100);

        inputs.put("count", 6);

        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("count", 5L);
        expected.put("ratio", 1.5);
        expected.put("tags", List.of("a", 2L));
        expected.put("nested", Map.of("on", true));
        expected.put("none", null);
        assertThat(repository().find(APP, "r1").orElseThrow().inputs()).isEqualTo(expected);
    }

    @Test
    void nodeExecutionsAreAnsweredInTheirOrderEachAsItWasLastSaved() {
        start(APP, "r1", "ada", Map.of(), 100);
        NodeExecution second = nodeStarted("n2", "code", 2, 101);
        NodeExecution first = nodeStarted("n1", "start", 1, 100);
        NodeExecution firstEnded = first.finish(NodeStatus.SUCCEEDED, Map.of("q", "hello"), Map.of("step", 1L),
                Map.of("q", "hello"), null, 0.01,
                new ExecutionMetadata(3, new BigDecimal("0.0012"), "USD", "it-1", 2, null, null), 101);

        repository().saveNode("r1", second).join();
        repository().saveNode("r1", first).join();
        repository().saveNode("r1", firstEnded).join();

        assertThat(repository().nodeExecutions("r1")).containsExactly(firstEnded, second);
        assertThat(repository().nodeExecutions("r9")).isEmpty();
    }

    @Test
    void anAgentsLogInItsExecutionMetadataIsKeptAsItWasSaved() {
        start(APP, "r1", "ada", Map.of(), 100);
        Map<String, Object> round = new java.util.LinkedHashMap<>();
        round.put("id", "round-1");
        round.put("label", "ROUND 1");
        round.put("parent_id", null);
        round.put("status", "success");
        round.put("data", Map.of("output", Map.of("llm_response", "Thursday", "tool_responses", List.of())));
        round.put("metadata", Map.of("total_tokens", 12L));
        NodeExecution agent = nodeStarted("agent", "agent", 1, 100).finish(NodeStatus.SUCCEEDED, Map.of(), null,
                Map.of("text", "Thursday"), null, 0.2, ExecutionMetadata.NONE.withTokens(12, null)
                        .withAgentLog(List.of(round)), 101);

        repository().saveNode("r1", agent).join();

        assertThat(repository().nodeExecutions("r1")).singleElement()
                .satisfies(kept -> assertThat(kept.metadata().agentLog()).containsExactly(round));
    }

    @Test
    void writesMadeWithoutWaitingAreKeptAndARunStartedAndEndedTogetherIsKeptEnded() {
        List<CompletableFuture<Void>> writes = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            WorkflowRun run = WorkflowRun.started("r" + i, "wf-1", Map.of("i", i), 100);
            NodeExecution node = nodeStarted("n" + i, "start", 1, 100);
            writes.add(repository().started(started(run, APP, "ada")));
            writes.add(repository().saveNode(run.id(), node));
            writes.add(repository().saveNode(run.id(), node.finish(NodeStatus.SUCCEEDED, Map.of(), null,
                    Map.of("i", i), null, 0.01, ExecutionMetadata.NONE, 101)));
            writes.add(repository().finished(succeeded(run, Map.of("i", i), 101)));
        }

        writes.forEach(CompletableFuture::join);

        for (int i = 0; i < 200; i++) {
            WorkflowRun kept = repository().find(APP, "r" + i).orElseThrow();
            assertThat(kept.status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(kept.outputs()).isEqualTo(Map.of("i", (long) i));
            assertThat(repository().nodeExecutions("r" + i)).singleElement()
                    .satisfies(n -> assertThat(n.status()).isEqualTo(NodeStatus.SUCCEEDED));
        }
        assertThat(all(APP).total()).isEqualTo(200);
        assertThat(search(APP, null, "succeeded", null, null, null).total()).isEqualTo(200);
        assertThat(search(APP, null, "running", null, null, null).total()).isZero();
    }

    @Test
    void runsKeptWholeInOneWriteEachAreReadAsIfKeptEventByEventAndCountedByTheirStatus() {
        List<CompletableFuture<Void>> writes = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            WorkflowRun run = WorkflowRun.started("r" + i, "wf-1", Map.of("i", i), 100);
            NodeExecution node = nodeStarted("n" + i, "start", 1, 100).finish(NodeStatus.SUCCEEDED, Map.of(),
                    null, Map.of("i", i), null, 0.01, ExecutionMetadata.NONE, 101);
            WorkflowRun end = i % 4 == 0 ? failed(run, 101) : succeeded(run, Map.of("i", i), 101);
            writes.add(repository().kept(new RunRepository.KeptRun(started(end, APP, "ada"), List.of(node),
                    List.of(new KeptEvent(run.id(), 1, "{\"event\": \"workflow_started\"}"),
                            new KeptEvent(run.id(), 2, "{\"event\": \"workflow_finished\", \"i\": " + i + "}")))));
        }

        writes.forEach(CompletableFuture::join);

        for (int n = 0; n < 100; n++) {
            int i = n;
            WorkflowRun kept = repository().find(APP, "r" + i).orElseThrow();
            assertThat(kept.status()).isEqualTo(i % 4 == 0 ? RunStatus.FAILED : RunStatus.SUCCEEDED);
            assertThat(kept.finishedAt()).isEqualTo(101L);
            assertThat(repository().nodeExecutions("r" + i)).singleElement()
                    .satisfies(node -> assertThat(node.outputs()).isEqualTo(Map.of("i", (long) i)));
            assertThat(repository().events("r" + i, 1)).extracting(KeptEvent::data)
                    .containsExactly("{\"event\": \"workflow_finished\", \"i\": " + i + "}");
        }
        assertThat(all(APP).total()).isEqualTo(100);
        assertThat(search(APP, null, "failed", null, null, null).total()).isEqualTo(25);
        assertThat(search(APP, null, "succeeded", null, null, null).total()).isEqualTo(75);
        assertThat(search(APP, null, "running", null, null, null).total()).isZero();
    }

    @Test
    void aRunKeptRunningInOneWriteGoesOnWithItsNodesEventsAndEndKeptOneByOne() {
        WorkflowRun run = WorkflowRun.started("r1", "wf-1", Map.of("q", "hi"), 100);
        NodeExecution node = nodeStarted("n1", "start", 1, 100);
        repository().kept(new RunRepository.KeptRun(started(run, APP, "ada"), List.of(node),
                List.of(new KeptEvent("r1", 1, "one"), new KeptEvent("r1", 2, "two")))).join();

        assertThat(repository().find(APP, "r1")).contains(run);
        assertThat(search(APP, null, "running", null, null, null).total()).isEqualTo(1);

        NodeExecution ended = node.finish(NodeStatus.SUCCEEDED, Map.of(), null, Map.of("x", 1L), null, 0.01,
                ExecutionMetadata.NONE, 101);
        CompletableFuture.allOf(repository().saveNode("r1", ended), repository().event(new KeptEvent("r1", 3,
                "three")), repository().finished(succeeded(run, Map.of("x", 1L), 102))).join();

        assertThat(repository().find(APP, "r1").orElseThrow().status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(repository().nodeExecutions("r1")).containsExactly(ended);
        assertThat(repository().events("r1", 0)).extracting(KeptEvent::data).containsExactly("one", "two",
                "three");
        assertThat(search(APP, null, "running", null, null, null).total()).isZero();
        assertThat(search(APP, null, "succeeded", null, null, null).total()).isEqualTo(1);
    }

    @Test
    void closingKeepsWhatIsQueuedAndRefusesLaterWritesButNotReads() {
        CompletableFuture<Void> queued = repository().started(started(WorkflowRun.started("r1", "wf-1", Map.of(),
                100), APP, "ada"));

        repository().close();

        assertThat(queued).isCompleted();
        assertThat(repository().find(APP, "r1")).isPresent();
        assertThatThrownBy(() -> repository().finished(WorkflowRun.started("r1", "wf-1", Map.of(), 100)).join())
                .hasCauseInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        assertThatThrownBy(() -> repository().saveNode("r1", nodeStarted("n1", "start", 1, 100)).join())
                .hasCauseInstanceOf(IllegalStateException.class);
    }

    @Test
    void runsAndTheirNodeExecutionsLeftRunningAreFailedWithTheReasonAndEndedOnesStayAsTheyAre() {
        start(APP, "r1", "ada", Map.of(), 100);
        WorkflowRun r2 = start(APP, "r2", "ada", Map.of(), 100);
        start(OTHER_APP, "r3", "bob", Map.of(), 100);
        NodeExecution done = nodeStarted("n1", "start", 1, 100).finish(NodeStatus.SUCCEEDED, Map.of(), null,
                Map.of(), null, 0.01, ExecutionMetadata.NONE, 100);
        repository().saveNode("r1", done).join();
        repository().saveNode("r1", nodeStarted("n2", "wait", 2, 100)).join();
        WorkflowRun r2Ended = succeeded(r2, Map.of(), 101);
        repository().finished(r2Ended).join();

        assertThat(repository().failUnfinished(STOPPED, 500)).isEqualTo(2);

        WorkflowRun failed = repository().find(APP, "r1").orElseThrow();
        assertThat(failed.status()).isEqualTo(RunStatus.FAILED);
        assertThat(failed.error()).isEqualTo(STOPPED);
        assertThat(failed.finishedAt()).isEqualTo(500L);
        assertThat(repository().find(OTHER_APP, "r3").orElseThrow().status()).isEqualTo(RunStatus.FAILED);
        assertThat(repository().find(APP, "r2")).contains(r2Ended);
        assertThat(repository().nodeExecutions("r1")).satisfiesExactly(
                node -> assertThat(node).isEqualTo(done),
                node -> {
                    assertThat(node.status()).isEqualTo(NodeStatus.FAILED);
                    assertThat(node.error()).isEqualTo(STOPPED);
                    assertThat(node.finishedAt()).isEqualTo(500L);
                });
        assertThat(search(APP, null, "failed", null, null, null).total()).isEqualTo(1);
        assertThat(search(APP, null, "running", null, null, null).total()).isZero();
        assertThat(all(APP).total()).isEqualTo(2);
        assertThat(repository().failUnfinished(STOPPED, 600)).isZero();
    }

    @Test
    void runsGoingOnHereAreSparedWhileTheOthersLeftRunningAreFailed() {
        start(APP, "r1", "ada", Map.of(), 100);
        start(APP, "r2", "ada", Map.of(), 100);
        start(OTHER_APP, "r3", "bob", Map.of(), 100);
        repository().saveNode("r2", nodeStarted("n1", "wait", 1, 100)).join();

        assertThat(repository().failUnfinished(STOPPED, 500, java.util.Set.of("r2", "r3"))).isEqualTo(1);

        assertThat(repository().find(APP, "r1").orElseThrow().status()).isEqualTo(RunStatus.FAILED);
        assertThat(repository().find(APP, "r2").orElseThrow().status()).isEqualTo(RunStatus.RUNNING);
        assertThat(repository().nodeExecutions("r2")).singleElement()
                .satisfies(node -> assertThat(node.status()).isEqualTo(NodeStatus.RUNNING));
        assertThat(repository().find(OTHER_APP, "r3").orElseThrow().status()).isEqualTo(RunStatus.RUNNING);
        WorkflowRun r2 = repository().find(APP, "r2").orElseThrow();
        repository().finished(succeeded(r2, Map.of(), 600)).join();
        assertThat(repository().find(APP, "r2").orElseThrow().status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(search(APP, null, "running", null, null, null).total()).isZero();
    }

    /** Runs r1..rN of the app, one a second from {@code from}, each ended, with a node execution each. */
    private List<String> endedRuns(String app, String prefix, int count, long from) {
        List<String> ids = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            String id = prefix + i;
            WorkflowRun run = start(app, id, "ada", Map.of("i", i), from + i);
            repository().saveNode(id, nodeStarted(id + "-n", "start", 1, from + i).finish(NodeStatus.SUCCEEDED,
                    Map.of(), null, Map.of(), null, 0.01, ExecutionMetadata.NONE, from + i)).join();
            repository().finished(i % 2 == 0 ? failed(run, from + i) : succeeded(run, Map.of(), from + i)).join();
            ids.add(id);
        }
        return ids;
    }

    @Test
    void aSliceOfNodeExecutionsIsReadInTheirOrderWithTheRunsTotalAndASliceBeyondTheEndIsEmpty() {
        start(APP, "r1", "ada", Map.of(), 100);
        for (int i = 1; i <= 7; i++) {
            repository().saveNode("r1", nodeStarted("n" + i, "node" + i, i, 100)).join();
        }

        RunRepository.NodeExecutionSlice middle = repository().nodeExecutions("r1", 3, 3);
        RunRepository.NodeExecutionSlice last = repository().nodeExecutions("r1", 6, 3);
        RunRepository.NodeExecutionSlice beyond = repository().nodeExecutions("r1", 9, 3);

        assertThat(middle.total()).isEqualTo(7);
        assertThat(middle.items()).extracting(NodeExecution::index).containsExactly(4, 5, 6);
        assertThat(last.items()).extracting(NodeExecution::id).containsExactly("n7");
        assertThat(beyond.items()).isEmpty();
        assertThat(beyond.total()).isEqualTo(7);
        assertThat(repository().nodeExecutions("no-such-run", 0, 3).total()).isZero();
        assertThatThrownBy(() -> repository().nodeExecutions("r1", 0, 0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aPruneByAgeDeletesTheEndedRunsBeforeTheBoundWithTheirNodesAndCountsAndKeepsRunningOnes() {
        endedRuns(APP, "old", 4, 100);
        start(APP, "still", "ada", Map.of(), 101);
        endedRuns(APP, "new", 2, 1000);

        int deleted = repository().prune(new RunRepository.Pruning(500L, null, 100));

        assertThat(deleted).isEqualTo(4);
        assertThat(ids(all(APP))).containsExactlyInAnyOrder("new1", "new2", "still");
        assertThat(all(APP).total()).isEqualTo(3);
        assertThat(search(APP, null, "failed", null, null, null).total()).isEqualTo(1);
        assertThat(search(APP, null, "succeeded", null, null, null).total()).isEqualTo(1);
        assertThat(repository().find(APP, "old1")).isEmpty();
        assertThat(repository().nodeExecutions("old1")).isEmpty();
        assertThat(repository().nodeExecutions("new1")).hasSize(1);
        assertThat(repository().find(APP, "still").orElseThrow().status()).isEqualTo(RunStatus.RUNNING);
        assertThat(repository().prune(new RunRepository.Pruning(500L, null, 100))).isZero();
    }

    @Test
    void aRunsEventsAreReadInTheirOrderFromAfterTheGivenNumberAndNoOtherRunsAreMixedIn() {
        start(APP, "r1", "ada", Map.of(), 100);
        start(APP, "r2", "ada", Map.of(), 100);
        List<CompletableFuture<Void>> writes = new ArrayList<>();
        for (int seq = 1; seq <= 4; seq++) {
            writes.add(repository().event(new KeptEvent("r1", seq, "{\"event\":\"e" + seq + "\",\"text\":\"é\\n\"}")));
            writes.add(repository().event(new KeptEvent("r2", seq, "{\"other\":" + seq + "}")));
        }
        writes.forEach(CompletableFuture::join);

        assertThat(repository().events("r1", 0)).extracting(KeptEvent::seq).containsExactly(1L, 2L, 3L, 4L);
        assertThat(repository().events("r1", 2)).containsExactly(
                new KeptEvent("r1", 3, "{\"event\":\"e3\",\"text\":\"é\\n\"}"),
                new KeptEvent("r1", 4, "{\"event\":\"e4\",\"text\":\"é\\n\"}"));
        assertThat(repository().events("r1", 4)).isEmpty();
        assertThat(repository().events("no-such-run", 0)).isEmpty();
    }

    @Test
    void eventsKeptInSeveralWritesAreReadWholeFromAfterAnyOfThemAndADataWithNewlinesStaysWhole() {
        start(APP, "r1", "ada", Map.of(), 100);
        repository().event(new KeptEvent("r1", 1, "{\"n\":1}")).join();
        List<CompletableFuture<Void>> together = new ArrayList<>();
        for (int seq = 2; seq <= 4; seq++) {
            together.add(repository().event(new KeptEvent("r1", seq, "{\"n\":" + seq + "}")));
        }
        together.add(repository().event(new KeptEvent("r1", 5, "line one\nline two")));
        together.add(repository().event(new KeptEvent("r1", 6, "{\"n\":6}")));
        together.forEach(CompletableFuture::join);

        assertThat(repository().events("r1", 0)).extracting(KeptEvent::data).containsExactly("{\"n\":1}",
                "{\"n\":2}", "{\"n\":3}", "{\"n\":4}", "line one\nline two", "{\"n\":6}");
        assertThat(repository().events("r1", 2)).extracting(KeptEvent::seq).containsExactly(3L, 4L, 5L, 6L);
        assertThat(repository().events("r1", 3)).extracting(KeptEvent::seq).containsExactly(4L, 5L, 6L);
        assertThat(repository().events("r1", 5)).containsExactly(new KeptEvent("r1", 6, "{\"n\":6}"));
    }

    @Test
    void aPrunedRunsEventsGoWithItAndAKeptRunsStay() {
        endedRuns(APP, "old", 1, 100);
        endedRuns(APP, "new", 1, 1000);
        repository().event(new KeptEvent("old1", 1, "{}")).join();
        repository().event(new KeptEvent("new1", 1, "{}")).join();

        repository().prune(new RunRepository.Pruning(500L, null, 100));

        assertThat(repository().events("old1", 0)).isEmpty();
        assertThat(repository().events("new1", 0)).hasSize(1);
    }

    @Test
    void aPruneByCountKeepsTheNewestOfEachAppAndLeavesOtherAppsAlone() {
        endedRuns(APP, "a", 5, 100);
        endedRuns(OTHER_APP, "b", 2, 100);

        int deleted = repository().prune(new RunRepository.Pruning(null, 2, 100));

        assertThat(deleted).isEqualTo(3);
        assertThat(ids(all(APP))).containsExactly("a5", "a4");
        assertThat(all(APP).total()).isEqualTo(2);
        assertThat(ids(all(OTHER_APP))).containsExactly("b2", "b1");
    }

    @Test
    void aPruneByCountLooksPastARunningRunAmongTheOldestButNeverIntoTheNewestKept() {
        start(APP, "a0", "ada", Map.of(), 100);
        endedRuns(APP, "a", 5, 100);

        int deleted = repository().prune(new RunRepository.Pruning(null, 3, 2));

        assertThat(deleted).as("the batch, past the running run").isEqualTo(2);
        assertThat(ids(all(APP))).containsExactly("a5", "a4", "a3", "a0");
        assertThat(repository().prune(new RunRepository.Pruning(null, 3, 2))).as("only the running one is past "
                + "the newest three").isZero();
        assertThat(repository().prune(new RunRepository.Pruning(null, 1, 100))).isEqualTo(2);
        assertThat(ids(all(APP))).containsExactly("a5", "a0");
    }

    @Test
    void aPruneByAgeAndCountFillsItsBatchFromBothRules() {
        endedRuns(APP, "a", 30, 100);

        assertThat(repository().prune(new RunRepository.Pruning(116L, 5, 20))).as("15 by age, 5 more by count")
                .isEqualTo(20);
        assertThat(repository().prune(new RunRepository.Pruning(116L, 5, 20))).isEqualTo(5);
        assertThat(ids(all(APP))).containsExactly("a30", "a29", "a28", "a27", "a26");
        assertThat(all(APP).total()).isEqualTo(5);
    }

    @Test
    void aPruneDeletesAtMostItsBatchOldestFirstAndTheNextBatchGoesOn() {
        endedRuns(APP, "a", 7, 100);

        assertThat(repository().prune(new RunRepository.Pruning(10_000L, null, 3))).isEqualTo(3);
        assertThat(ids(all(APP))).containsExactly("a7", "a6", "a5", "a4");
        assertThat(repository().prune(new RunRepository.Pruning(10_000L, null, 3))).isEqualTo(3);
        assertThat(repository().prune(new RunRepository.Pruning(10_000L, null, 3))).isEqualTo(1);
        assertThat(all(APP).total()).isZero();
    }

    @Test
    void aBothBoundsPruneLetsARunGoWhenEitherDoes() {
        endedRuns(APP, "a", 4, 100);
        endedRuns(APP, "b", 1, 1000);

        assertThat(repository().prune(new RunRepository.Pruning(200L, 3, 100))).isEqualTo(4);
        assertThat(ids(all(APP))).containsExactly("b1");
    }

    @Test
    void aLaterEndOfARunFailedAsUnfinishedLeavesItFailed() {
        WorkflowRun run = start(APP, "r1", "ada", Map.of(), 100);
        repository().failUnfinished(STOPPED, 500);

        repository().finished(succeeded(run, Map.of("answer", "late"), 600)).join();

        assertThat(repository().find(APP, "r1").orElseThrow().error()).isEqualTo(STOPPED);
        assertThat(search(APP, null, "failed", null, null, null).total()).isEqualTo(1);
        assertThat(search(APP, null, "succeeded", null, null, null).total()).isZero();
    }

    @Test
    void theLogSearchMatchesKeywordsStatusTimesAndUsersNewestFirst() {
        start(APP, "r1", "ada", Map.of("q", "100% sure_thing!"), 100);
        WorkflowRun r2 = start(APP, "r2", "bob", Map.of("q", "nothing special"), 200);
        start(APP, "r3", "Carol", Map.of("q", "HELLO"), 300);
        start(OTHER_APP, "r4", "ada", Map.of("q", "100% sure_thing!"), 400);
        repository().finished(r2.finish(RunStatus.FAILED, Map.of("why", "Timeout"), "boom", 1, 0, 1, 0, 201)).join();

        assertThat(ids(all(APP))).containsExactly("r3", "r2", "r1");
        assertThat(ids(search(APP, "100%", null, null, null, null))).containsExactly("r1");
        assertThat(ids(search(APP, "e_t", null, null, null, null))).containsExactly("r1");
        assertThat(ids(search(APP, "10_%", null, null, null, null))).isEmpty();
        assertThat(ids(search(APP, "hello", null, null, null, null))).containsExactly("r3");
        assertThat(ids(search(APP, "timeout", null, null, null, null))).as("in the outputs").containsExactly("r2");
        assertThat(ids(search(APP, "carol", null, null, null, null))).as("the user").containsExactly("r3");
        assertThat(ids(search(APP, "r2", null, null, null, null))).as("a run id").containsExactly("r2");
        assertThat(ids(search(APP, "R2", null, null, null, null))).as("a run id, exactly").isEmpty();
        assertThat(ids(search(APP, "null", null, null, null, null))).as("no outputs is no text").isEmpty();
        assertThat(ids(search(APP, null, "failed", null, null, null))).containsExactly("r2");
        assertThat(ids(search(APP, null, null, 250L, 150L, null))).containsExactly("r2");
        assertThat(ids(search(APP, null, null, 200L, 200L, null))).as("both bounds hold").containsExactly("r2");
        assertThat(ids(search(APP, null, null, null, null, "ada"))).containsExactly("r1");
        assertThat(ids(search(APP, null, null, null, null, "carol"))).as("a session id, exactly").isEmpty();
        assertThat(all(APP).total()).isEqualTo(3);
        assertThat(search(APP, null, "failed", null, null, null).total()).isEqualTo(1);
        assertThat(search(APP, null, "running", null, null, null).total()).isEqualTo(2);
        assertThat(all(OTHER_APP).total()).isEqualTo(1);
        assertThat(all("never-ran").items()).isEmpty();
        assertThat(all("never-ran").total()).isZero();
    }

    @Test
    void theLogSearchFiltersCombineAndTheTotalCountsWhatTheyAllMatch() {
        for (int i = 0; i < 12; i++) {
            WorkflowRun run = start(APP, "r" + i, i % 2 == 0 ? "ada" : "bob",
                    Map.of("q", i % 3 == 0 ? "apple" : "pear"), 100 + i);
            if (i % 4 != 0) {
                repository().finished(succeeded(run, Map.of(), 200)).join();
            }
        }

        LogPage page = search(APP, "apple", "succeeded", 110L, 101L, "ada");

        // apple: 0, 3, 6, 9; succeeded: not 0, 4, 8; ada: even; in [101, 110]: 1 to 10.
        assertThat(ids(page)).containsExactly("r6");
        assertThat(page.total()).isEqualTo(1);
        assertThat(search(APP, "apple", "succeeded", null, null, null).total()).isEqualTo(3);
        assertThat(search(APP, "apple", null, null, null, "bob").total()).isEqualTo(2);
        assertThat(search(APP, null, "running", 111L, 104L, null).total()).isEqualTo(2);
    }

    @Test
    void runsStartedInTheSameSecondAreListedLaterStartedFirst() {
        start(APP, "b", "ada", Map.of(), 100);
        start(APP, "a", "ada", Map.of(), 100);
        start(APP, "c", "ada", Map.of(), 100);
        start(APP, "old", "ada", Map.of(), 99);

        assertThat(ids(all(APP))).containsExactly("c", "a", "b", "old");
    }

    @Test
    void aLogEntryShowsTheRunItsVersionItsLogIdItsUserAndItsTime() {
        WorkflowRun run = start(APP, "r1", "ada", Map.of("q", "hi"), 100);

        LogEntry entry = all(APP).items().get(0);

        assertThat(entry.run()).isEqualTo(run);
        assertThat(entry.logId()).isEqualTo("log-r1");
        assertThat(entry.version()).isEqualTo("v-r1");
        assertThat(entry.createdAt()).isEqualTo(100);
        assertThat(entry.user().id()).isEqualTo("user-ada");
        assertThat(entry.user().appId()).isEqualTo(APP);
        assertThat(entry.user().sessionId()).isEqualTo("ada");
    }

    @Test
    void logsArePagedWithHasMoreAndAPagePastTheEndIsEmpty() {
        for (int i = 0; i < 5; i++) {
            start(APP, "r" + i, "ada", Map.of(), 100 + i);
        }

        LogPage first = repository().logs(new LogQuery(APP, null, null, 1, 2, null, null, null));
        LogPage last = repository().logs(new LogQuery(APP, null, null, 3, 2, null, null, null));
        LogPage past = repository().logs(new LogQuery(APP, null, null, 4, 2, null, null, null));
        LogPage exact = repository().logs(new LogQuery(APP, null, null, 1, 5, null, null, null));

        assertThat(first.items()).extracting(e -> e.run().id()).containsExactly("r4", "r3");
        assertThat(first).extracting(LogPage::page, LogPage::limit, LogPage::total, LogPage::hasMore)
                .containsExactly(1, 2, 5L, true);
        assertThat(last.items()).extracting(e -> e.run().id()).containsExactly("r0");
        assertThat(last.hasMore()).isFalse();
        assertThat(past.items()).isEmpty();
        assertThat(past.total()).isEqualTo(5);
        assertThat(past.hasMore()).isFalse();
        assertThat(exact.items()).hasSize(5);
        assertThat(exact.hasMore()).isFalse();
    }

    @Test
    void aPageOrALimitBelowOneIsRefused() {
        assertThatThrownBy(() -> repository().logs(new LogQuery(APP, null, null, 0, 20, null, null, null)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> repository().logs(new LogQuery(APP, null, null, 1, 0, null, null, null)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void searchTotalsStayExactAsRunsComeAndRunsGoingOnEnd() {
        for (int i = 0; i < 30; i++) {
            WorkflowRun run = start(APP, "r" + i, "user" + (i % 3), Map.of("q", i % 2 == 0 ? "apple" : "pear"), i);
            if (i % 5 != 0) {
                repository().finished(succeeded(run, Map.of("a", "x"), i)).join();
            }
        }
        assertThat(search(APP, "apple", null, null, null, null).total()).isEqualTo(15);
        assertThat(search(APP, "apple", "succeeded", null, null, null).total()).isEqualTo(12);

        // Runs going on when the searches were counted end, one of them with "apple" in its outputs only.
        repository().finished(succeeded(WorkflowRun.started("r5", "wf-1", Map.of("q", "pear"), 5),
                Map.of("a", "Apple pie"), 40)).join();
        repository().finished(failed(WorkflowRun.started("r10", "wf-1", Map.of("q", "apple"), 10), 40)).join();
        // New runs come, ended and going on.
        for (int i = 30; i < 40; i++) {
            WorkflowRun run = start(APP, "r" + i, "user0", Map.of("q", "apple " + i), 100 + i);
            if (i % 2 == 0) {
                repository().finished(succeeded(run, Map.of(), 200)).join();
            }
        }

        assertThat(search(APP, "apple", null, null, null, null).total()).isEqualTo(15 + 1 + 10);
        assertThat(search(APP, "apple", "succeeded", null, null, null).total()).isEqualTo(12 + 1 + 5);
        assertThat(search(APP, "apple", "failed", null, null, null).total()).isEqualTo(1);
        LogPage user0 = repository().logs(new LogQuery(APP, "apple", "succeeded", 1, 100, null, null, "user0"));
        assertThat(user0.total()).isEqualTo(user0.items().size());
        assertThat(search(APP, "pear", null, null, 20L, null).total()).isEqualTo(5);
    }

    @Test
    void aSearchAcrossAppsPagesNewestFirstFromThePositionWithoutRepeatOrGapAndFilters() {
        start(APP, "s1", "ada", Map.of("q", "first"), 100);
        start(OTHER_APP, "s2", "bob", Map.of("q", "second"), 200);
        WorkflowRun third = start(APP, "s3", "ada", Map.of("q", "third"), 200);
        repository().finished(failed(third, 210)).join();
        start(OTHER_APP, "s4", "ada", Map.of("q", "fourth"), 300);
        start("app-not-searched", "s5", "ada", Map.of("q", "fifth"), 400);
        List<String> apps = List.of(APP, OTHER_APP);

        RunRepository.RunSlice first = repository().search(new RunRepository.RunSearch(apps, null, null, null, null,
                null, null, 2));
        RunRepository.RunSlice second = repository().search(new RunRepository.RunSearch(apps, null, null, null,
                null, null, first.items().get(1).position(), 2));

        List<String> seen = new ArrayList<>();
        first.items().forEach(found -> seen.add(found.entry().run().id()));
        second.items().forEach(found -> seen.add(found.entry().run().id()));
        assertThat(first.hasMore()).isTrue();
        assertThat(second.hasMore()).isFalse();
        // s2 and s3 start in the same second: the one kept later is the newer.
        assertThat(seen).containsExactly("s4", "s3", "s2", "s1");
        assertThat(first.items().get(0).appId()).isEqualTo(OTHER_APP);
        assertThat(first.items().get(0).taskId()).isEqualTo("task-s4");
        assertThat(searchIds(apps, "failed", null, null)).containsExactly("s3");
        assertThat(searchIds(apps, null, "bob", null)).containsExactly("s2");
        assertThat(searchIds(apps, null, null, "FOURTH")).containsExactly("s4");
        assertThat(searchIds(List.of(OTHER_APP), null, null, null)).containsExactly("s4", "s2");
    }

    private List<String> searchIds(List<String> apps, String status, String session, String keyword) {
        return repository().search(new RunRepository.RunSearch(apps, status, session, null, null, keyword, null, 10))
                .items().stream().map(found -> found.entry().run().id()).toList();
    }

    @Test
    void aRunIsLocatedByItsIdAloneWithItsAppTaskAndEndUser() {
        WorkflowRun run = start(OTHER_APP, "l1", "ada", Map.of("q", "x"), 100);

        RunRepository.FoundRun found = repository().locate("l1").orElseThrow();

        assertThat(found.appId()).isEqualTo(OTHER_APP);
        assertThat(found.taskId()).isEqualTo("task-l1");
        assertThat(found.entry().run()).isEqualTo(run);
        assertThat(found.entry().user().sessionId()).isEqualTo("ada");
        assertThat(found.entry().version()).isEqualTo("v-l1");
        assertThat(repository().locate("l9")).isEmpty();
    }
}
