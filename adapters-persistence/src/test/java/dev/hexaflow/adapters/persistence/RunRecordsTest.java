package dev.hexaflow.adapters.persistence;

import static dev.hexaflow.adapters.persistence.WorkflowFixtures.APP;
import static dev.hexaflow.adapters.persistence.WorkflowFixtures.nodeStarted;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.adapters.persistence.jdbi.JdbiRunRepository;
import dev.hexaflow.application.runs.port.out.RunRepository.KeptEvent;
import dev.hexaflow.application.runs.port.out.RunRepository.KeptRun;
import dev.hexaflow.application.runs.port.out.RunRepository.StartedRun;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A run that ended before anything of it was written is kept as one record (its row holds its node executions and
 * events), and reads back exactly as the same run kept row by row does: on H2 and PostgreSQL alike.
 */
@ParameterizedClass(name = "on {0}")
@EnumSource(Store.class)
class RunRecordsTest {

    private final Database database;
    private final JdbiRunRepository runs;

    RunRecordsTest(Store store) {
        database = store.open();
        runs = new JdbiRunRepository(database.jdbi());
    }

    @AfterEach
    void close() {
        runs.close();
        database.close();
    }

    @Test
    void anEndedRunKeptWholeIsOneRowAndReadsBackAsTheSameRunKeptRowByRow() {
        List<NodeExecution> nodes = nodes();
        List<String> frames = List.of("{\"event\": \"workflow_started\", \"q\": \"caf\u00e9 \\\"quoted\\\"\"}",
                "{\"event\": \"node_finished\", \"text\": \"line\\nbreak \u2603\"}", "{\"event\": \"workflow_finished\"}");
        WorkflowRun whole = succeeded(WorkflowRun.started("whole", "wf-1", Map.of("q", "hi"), 100));
        runs.kept(new KeptRun(started(whole), nodes, events("whole", frames))).join();
        WorkflowRun byRows = WorkflowRun.started("rows", "wf-1", Map.of("q", "hi"), 100);
        runs.started(started(byRows)).join();
        List<CompletableFuture<Void>> writes = new ArrayList<>();
        // The same node executions (their ids are free: the record's are in no table), kept as they came.
        nodes.forEach(node -> writes.add(runs.saveNode("rows", node)));
        events("rows", frames).forEach(event -> writes.add(runs.event(event)));
        writes.add(runs.finished(succeeded(byRows)));
        writes.forEach(CompletableFuture::join);

        assertThat(count("SELECT COUNT(*) FROM node_execution WHERE run_id = 'whole'")).isZero();
        assertThat(count("SELECT COUNT(*) FROM run_event WHERE run_id = 'whole'")).isZero();
        assertThat(count("SELECT COUNT(*) FROM workflow_run WHERE id = 'whole' AND nodes IS NOT NULL")).isOne();
        assertThat(runs.nodeExecutions("whole")).isEqualTo(runs.nodeExecutions("rows")).hasSize(3);
        assertThat(runs.nodeExecutions("whole").get(2).metadata().agentLog()).hasSize(2);
        assertThat(runs.nodeExecutions("whole", 1, 5).items()).isEqualTo(runs.nodeExecutions("rows", 1, 5).items());
        assertThat(runs.nodeExecutions("whole", 1, 5).total()).isEqualTo(3);
        assertThat(runs.nodeExecutions("whole", 3, 5).items()).isEmpty();
        assertThat(runs.events("whole", 0)).extracting(KeptEvent::data).containsExactlyElementsOf(frames);
        assertThat(runs.events("whole", 1)).extracting(KeptEvent::seq).containsExactly(2L, 3L);
        assertThat(runs.find(APP, "whole").orElseThrow().status()).isEqualTo(RunStatus.SUCCEEDED);
    }

    @Test
    void aNodeSavedAfterItsRecordReplacesItThereAndEventsKeptAfterItFollowItsOwn() {
        List<NodeExecution> nodes = nodes();
        WorkflowRun run = succeeded(WorkflowRun.started("r1", "wf-1", Map.of(), 100));
        runs.kept(new KeptRun(started(run), nodes, events("r1", List.of("one", "two")))).join();
        NodeExecution changed = new NodeExecution(nodes.get(1).id(), nodes.get(1).nodeId(), nodes.get(1).nodeType(),
                "Renamed", nodes.get(1).index(), null, Map.of(), null, Map.of("x", 2L), NodeStatus.SUCCEEDED, null,
                0.2, ExecutionMetadata.NONE, 100, 101L);
        CompletableFuture.allOf(runs.saveNode("r1", changed), runs.event(new KeptEvent("r1", 3, "three"))).join();

        assertThat(runs.nodeExecutions("r1")).containsExactly(nodes.get(0), changed, nodes.get(2));
        assertThat(runs.events("r1", 0)).extracting(KeptEvent::data).containsExactly("one", "two", "three");
        assertThat(runs.events("r1", 2)).extracting(KeptEvent::data).containsExactly("three");
    }

    @Test
    void eventsThatCannotBeJoinedKeepTheirRowsWhileTheNodesStillGoInTheRecord() {
        WorkflowRun run = succeeded(WorkflowRun.started("r1", "wf-1", Map.of(), 100));
        List<KeptEvent> events = List.of(new KeptEvent("r1", 1, "one"), new KeptEvent("r1", 2, "two\nlines"));
        runs.kept(new KeptRun(started(run), nodes(), events)).join();

        assertThat(count("SELECT COUNT(*) FROM node_execution WHERE run_id = 'r1'")).isZero();
        assertThat(runs.events("r1", 0)).extracting(KeptEvent::data).containsExactly("one", "two\nlines");
        assertThat(runs.nodeExecutions("r1")).hasSize(3);
    }

    @Test
    void anEndedRunKeptRowByRowIsFoldedIntoARecordThatReadsTheSameAndARunningOneIsLeft() {
        List<String> frames = List.of("one", "two", "three");
        WorkflowRun ended = WorkflowRun.started("ended", "wf-1", Map.of(), 100);
        WorkflowRun running = WorkflowRun.started("running", "wf-1", Map.of(), 100);
        List<CompletableFuture<Void>> writes = new ArrayList<>();
        for (WorkflowRun run : List.of(ended, running)) {
            runs.started(started(run)).join();
            // Node ids are the table's key: each run's are its own.
            nodes().forEach(node -> writes.add(runs.saveNode(run.id(), renamed(node, run.id()))));
            events(run.id(), frames).forEach(event -> writes.add(runs.event(event)));
        }
        writes.add(runs.finished(succeeded(ended)));
        writes.forEach(CompletableFuture::join);
        List<NodeExecution> nodesBefore = runs.nodeExecutions("ended");
        List<KeptEvent> eventsBefore = runs.events("ended", 0);

        assertThat(runs.foldIntoRecords(10)).isOne();

        assertThat(count("SELECT COUNT(*) FROM node_execution WHERE run_id = 'ended'")).isZero();
        assertThat(count("SELECT COUNT(*) FROM run_event WHERE run_id = 'ended'")).isZero();
        assertThat(runs.nodeExecutions("ended")).isEqualTo(nodesBefore).hasSize(3);
        assertThat(runs.events("ended", 0)).isEqualTo(eventsBefore).hasSize(3);
        assertThat(count("SELECT COUNT(*) FROM node_execution WHERE run_id = 'running'")).isEqualTo(3);
        assertThat(runs.foldIntoRecords(10)).isZero();
    }

    @Test
    void aReadWhileItsRunIsFoldedFindsItsEventsAndNodesOnceEach() throws Exception {
        List<String> frames = List.of("one", "two", "three");
        for (int round = 0; round < 80; round++) {
            WorkflowRun run = WorkflowRun.started("ended-" + round, "wf-1", Map.of(), 100);
            List<CompletableFuture<Void>> writes = new ArrayList<>();
            runs.started(started(run)).join();
            nodes().forEach(node -> writes.add(runs.saveNode(run.id(), renamed(node, run.id()))));
            events(run.id(), frames).forEach(event -> writes.add(runs.event(event)));
            writes.add(runs.finished(succeeded(run)));
            writes.forEach(CompletableFuture::join);
            // The run is read again and again while it is folded: the fold's commit lands during some read.
            CompletableFuture<Integer> folding = CompletableFuture.supplyAsync(() -> runs.foldIntoRecords(1));
            do {
                assertThat(runs.events(run.id(), 0)).as("the events of %s", run.id()).extracting(KeptEvent::data)
                        .containsExactlyElementsOf(frames);
                assertThat(runs.nodeExecutions(run.id())).as("the nodes of %s", run.id()).hasSize(3);
            } while (!folding.isDone());
            assertThat(folding.get()).isOne();
        }
    }

    private static NodeExecution renamed(NodeExecution node, String runId) {
        return new NodeExecution(runId + "-" + node.id(), node.nodeId(), node.nodeType(), node.title(), node.index(),
                node.predecessorNodeId(), node.inputs(), node.processData(), node.outputs(), node.status(),
                node.error(), node.elapsedTime(), node.metadata(), node.createdAt(), node.finishedAt());
    }

    private long count(String sql) {
        return database.jdbi().withHandle(handle -> handle.createQuery(sql).mapTo(Long.class).one());
    }

    private static StartedRun started(WorkflowRun run) {
        return new StartedRun(run, APP, "task-" + run.id(), new EndUser("user-ada", APP, "ada", 1), "v1",
                "log-" + run.id());
    }

    private static WorkflowRun succeeded(WorkflowRun run) {
        return run.finish(RunStatus.SUCCEEDED, Map.of("answer", "ok"), null, 0.5, 30, 3, 0, 102);
    }

    private static List<KeptEvent> events(String runId, List<String> frames) {
        List<KeptEvent> events = new ArrayList<>();
        for (int i = 0; i < frames.size(); i++) {
            events.add(new KeptEvent(runId, i + 1, frames.get(i)));
        }
        return events;
    }

    /** Three node executions whose values try what JSON text can hold: quotes, newlines, nesting, numbers, none. */
    private static List<NodeExecution> nodes() {
        Map<String, Object> inputs = new LinkedHashMap<>();
        inputs.put("text", "say \"hi\"\nand go \u00e9\u2603");
        inputs.put("list", List.of(1L, 2.5, "three", Map.of("deep", List.of())));
        inputs.put("none", null);
        NodeExecution start = nodeStarted("e-start", "start", 1, 100).finish(NodeStatus.SUCCEEDED, inputs, null,
                inputs, null, 0.01, ExecutionMetadata.NONE, 100);
        NodeExecution failed = nodeStarted("e-code", "code", 2, 100).finish(NodeStatus.FAILED, Map.of(),
                Map.of("step", 1L), null, "boom \"here\"", 0.02, ExecutionMetadata.NONE, 101);
        ExecutionMetadata metadata = new ExecutionMetadata(42, new BigDecimal("0.0012"), "USD", "it-1", 3, null,
                null, List.of(Map.of("label", "call"), Map.of("label", "answer")));
        NodeExecution llm = new NodeExecution("e-llm", "llm", dev.hexaflow.domain.workflow.NodeType.LLM, "LLM", 3,
                "code", Map.of("q", 1L), Map.of("model", "m"), Map.of("text", "ok"), NodeStatus.SUCCEEDED, null, 1.5,
                metadata, 101, 102L);
        return List.of(start, failed, llm);
    }
}
