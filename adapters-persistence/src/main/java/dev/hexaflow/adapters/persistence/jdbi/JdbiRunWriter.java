package dev.hexaflow.adapters.persistence.jdbi;

import dev.hexaflow.application.runs.port.out.RunRepository.KeptEvent;
import dev.hexaflow.application.runs.port.out.RunRepository.KeptRun;
import dev.hexaflow.application.runs.port.out.RunRepository.RunPause;
import dev.hexaflow.application.runs.port.out.RunRepository.StartedRun;
import dev.hexaflow.domain.workflow.HumanInputForm;
import dev.hexaflow.domain.workflow.NodeExecution;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.jdbi.v3.core.Jdbi;

/**
 * The run store's writes, through one {@link GroupCommitWriter}: queued, and committed together with whatever else
 * is waiting. Runs in {@code workflow_run}, node executions in {@code node_execution}, the events their streams
 * showed in {@code run_event}: a run's events of one batch packed in one row (their data lines joined by newlines,
 * which a JSON line never holds), inserted with the batch's other rows in one JDBC batch. The counts of runs by app
 * and status ({@code run_count}) change with the runs. A pause is the run's end as far as its row goes (status
 * {@code paused}, no end time), with its paused run in {@code run_pause} and its new forms in
 * {@code human_input_form}; a run's end drops its paused run.
 */
final class JdbiRunWriter implements AutoCloseable {

    private static final String INSERT_EVENTS = "INSERT INTO run_event (run_id, seq, first_seq, data) VALUES "
            + "(?, ?, ?, ?)";

    private static final String INSERT_RUN = "INSERT INTO workflow_run (id, app_id, workflow_id, version, task_id, "
            + "end_user_id, session_id, log_id, inputs, created_at, status, outputs, error, elapsed_time, total_tokens, "
            + "total_steps, exceptions_count, finished_at, instance_id, trace_id, triggered_from, nodes, events_from, events) "
            + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

    private static final String END_RUN = "UPDATE workflow_run SET status = ?, outputs = ?, error = ?, "
            + "elapsed_time = ?, total_tokens = ?, total_steps = ?, exceptions_count = ?, finished_at = ? WHERE id = ? "
            + "AND status = 'running'";

    private static final String INSERT_NODE = "INSERT INTO node_execution (id, run_id, node_id, node_type, title, "
            + "idx, predecessor, inputs, process_data, outputs, status, error, elapsed_time, metadata, created_at, "
            + "finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

    /** A node execution's columns, saved (inserted, or replaced as it is now) by the dialect's upsert. */
    private static final String NODE_COLUMNS = "id, run_id, node_id, node_type, title, idx, predecessor, inputs, "
            + "process_data, outputs, status, error, elapsed_time, metadata, created_at, finished_at";

    private static final String NODE_VALUES = "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?";

    private static final String INSERT_FORM = "INSERT INTO human_input_form (id, token, run_id, app_id, end_user_id, "
            + "node_id, definition, status, expiration_time, created_at, applied, forwards_to_run_id, forwards_to_form_id) "
            + "VALUES (?, ?, ?, ?, ?, ?, ?, 'waiting', ?, ?, FALSE, ?, ?)";

    /**
     * Drops the paused run of a run that is no longer paused: a run's end, written after its pause, never leaves a
     * paused run behind, and an end that ended nothing (the run was paused) takes nothing from it.
     */
    private static final String DROP_ENDED_PAUSE = "DELETE FROM run_pause WHERE run_id = ? AND NOT EXISTS (SELECT 1 "
            + "FROM workflow_run WHERE id = run_pause.run_id AND status = 'paused')";

    private static final String RUNNING = RunStatus.RUNNING.wireName();

    private static final java.util.Comparator<List<String>> COUNT_ORDER = java.util.Comparator
            .<List<String>, String>comparing(key -> key.get(0)).thenComparing(key -> key.get(1));

    private static final String STATUS_OF_RUN = "SELECT app_id, status FROM workflow_run WHERE id = ?";

    private final GroupCommitWriter<Change> writer;
    /** Adds to an app's count of runs in a status: the amount, the app, the status. */
    private final String addToCount;
    private final String saveNode;
    /** Keeps a run's paused run, replacing the one of an earlier pause. */
    private final String savePause;
    private final String instance;

    /**
     * @param gate     refuses writes at once while the store cannot keep them
     * @param instance the instance whose runs these are, kept with each run; null where one instance is alone
     */
    JdbiRunWriter(Jdbi jdbi, SqlDialect dialect, WriteGate gate, String instance) {
        this.addToCount = dialect.addTo("run_count", "n", "app_id, status");
        this.saveNode = dialect.upsert("node_execution", "id", NODE_COLUMNS, NODE_VALUES);
        this.savePause = dialect.upsert("run_pause", "run_id", "run_id, app_id, snapshot, paused_at", "?, ?, ?, ?");
        this.instance = instance;
        this.writer = new GroupCommitWriter<>(jdbi, gate, "hexaflow-run-writer", this::write, JdbiRunWriter::weight);
    }

    CompletableFuture<Void> started(StartedRun started) {
        return writer.submit(new Started(start(started), end(started.run()), tags(started)));
    }

    /**
     * The run's last columns of {@link #INSERT_RUN}, after its instance: its trace, how it started, and its record
     * (none: its node executions and events are rows of their own).
     */
    private static Object[] tags(StartedRun started) {
        return new Object[] {started.traceId(), started.triggeredFrom(), null, null, null};
    }

    /** What a run's start sets, in {@link #INSERT_RUN}'s order (its first ten columns). */
    private static Object[] start(StartedRun started) {
        WorkflowRun run = started.run();
        return new Object[] {run.id(), started.appId(), run.workflowId(), started.version(), started.taskId(),
                started.user().id(), started.user().sessionId(), started.logId(), JsonColumns.write(run.inputs()),
                run.createdAt()};
    }

    CompletableFuture<Void> saveNode(String runId, NodeExecution execution) {
        return writer.submit(new NodeSaved(execution.id(), NodeExecutionRows.columns(runId, execution)));
    }

    /**
     * One change for the writer. A run that has ended is one record: its row holds its node executions and events
     * ({@link RunRecords}), one insert in all. A run still going on (kept as it is after the hold) gets its row, its
     * node executions' rows and its events' rows, which the writes of its next events find.
     */
    CompletableFuture<Void> kept(KeptRun kept) {
        WorkflowRun run = kept.started().run();
        List<Object[]> nodes = new ArrayList<>(kept.nodes().size());
        for (NodeExecution node : kept.nodes()) {
            nodes.add(NodeExecutionRows.columns(run.id(), node));
        }
        Object[] tags = tags(kept.started());
        List<KeptEvent> events = kept.events();
        if (run.status().isTerminal()) {
            tags[2] = RunRecords.nodes(nodes);
            nodes = List.of();
            String joined = RunRecords.events(events);
            if (joined != null) {
                tags[3] = events.get(0).seq();
                tags[4] = joined;
                events = List.of();
            }
        }
        return writer.submit(new RunKept(start(kept.started()), end(run), nodes, events, tags));
    }

    /** Keeps the end of a run that is running: a run that has ended keeps its first end. */
    CompletableFuture<Void> finished(WorkflowRun run) {
        return writer.submit(new Finished(run.id(), end(run)));
    }

    /** Keeps a pause as the run's end would be kept (a run that is running pauses), with its paused run and forms. */
    CompletableFuture<Void> paused(RunPause pause) {
        WorkflowRun run = pause.paused().run();
        if (run.status() != RunStatus.PAUSED) {
            return CompletableFuture.failedFuture(new IllegalArgumentException("run " + run.id() + " is "
                    + run.status().wireName() + ", not paused"));
        }
        List<Object[]> forms = new ArrayList<>(pause.newForms().size());
        for (HumanInputForm form : pause.newForms()) {
            HumanInputForm.FormRef forwardsTo = form.forwardsTo();
            forms.add(new Object[] {form.formId(), form.formToken(), run.id(), pause.appId(), pause.endUserId(),
                    form.nodeId(), PauseColumns.write(form), form.expirationTime(), pause.pausedAt(),
                    forwardsTo == null ? null : forwardsTo.runId(), forwardsTo == null ? null : forwardsTo.formId()});
        }
        Object[] kept = {run.id(), pause.appId(), PauseColumns.write(pause.paused()), pause.pausedAt()};
        return writer.submit(new Paused(run.id(), end(run), kept, forms));
    }

    CompletableFuture<Void> event(KeptEvent event) {
        return writer.submit(new EventKept(event));
    }

    /** Writes queued and not yet committed. */
    int backlog() {
        return writer.backlog();
    }

    /** Writes what is queued, then takes no more writes. */
    @Override
    public void close() {
        writer.close();
    }

    /**
     * A change the writer keeps, as the column values it writes: a run that started, a node execution as it is
     * now, a run's end. The values (JSON text above all) are made by the caller's thread, so that the one writer
     * thread only writes.
     */
    private sealed interface Change {
    }

    /** The characters a change writes (its JSON and texts), which bound how many of them one transaction takes. */
    private static long weight(Change change) {
        if (change instanceof Started started) {
            return weight(started.start()) + weight(started.end());
        } else if (change instanceof NodeSaved node) {
            return weight(node.columns());
        } else if (change instanceof Finished finished) {
            return weight(finished.end());
        } else if (change instanceof EventKept event) {
            return event.event().data().length();
        } else if (change instanceof Paused paused) {
            return weight(paused.end()) + weight(paused.pause())
                    + paused.forms().stream().mapToLong(JdbiRunWriter::weight).sum();
        }
        RunKept kept = (RunKept) change;
        return weight(kept.start()) + weight(kept.end()) + weight(kept.tags())
                + kept.nodes().stream().mapToLong(JdbiRunWriter::weight).sum()
                + kept.events().stream().mapToLong(event -> event.data().length()).sum();
    }

    private static long weight(Object[] columns) {
        long characters = 0;
        for (Object column : columns) {
            characters += column instanceof String text ? text.length() : 8;
        }
        return characters;
    }

    /** The start columns of {@link #INSERT_RUN} (its first ten), and the run as it is now. */
    private record Started(Object[] start, Object[] end, Object[] tags) implements Change {
    }

    private record NodeSaved(String id, Object[] columns) implements Change {
    }

    private record Finished(String runId, Object[] end) implements Change {
    }

    private record EventKept(KeptEvent event) implements Change {
    }

    /** A pause: the run's row as {@link #END_RUN} sets it, its {@code run_pause} row, its new forms' rows. */
    private record Paused(String runId, Object[] end, Object[] pause, List<Object[]> forms) implements Change {
    }

    /** A run kept in one change: its start and end columns, its node executions' columns, its events. */
    private record RunKept(Object[] start, Object[] end, List<Object[]> nodes, List<KeptEvent> events,
            Object[] tags) implements Change {
    }

    /** What a run's end sets, in {@link #END_RUN}'s order (all of it empty while the run goes on). */
    private static Object[] end(WorkflowRun run) {
        return new Object[] {run.status().wireName(), JsonColumns.write(run.outputs()), run.error(), run.elapsedTime(),
                run.totalTokens(), run.totalSteps(), run.exceptionsCount(), run.finishedAt()};
    }

    /**
     * Writes a batch in as few statements as it needs: a run that starts and ends in the same batch is inserted
     * ended, a node execution saved twice is written once as it is last. Runs are inserted before any update, so
     * that a run's end always finds its row; only the first end of a run is written. The app's counts by status
     * change in the same transaction. A pause is written as an end is (the first of a run's ends and pauses wins),
     * and the paused runs kept and dropped after it, so that they follow what the run's row became. A run started
     * twice in one batch fails the batch, so that the writer writes its changes one at a time and the second start
     * fails alone, on the table's unique id.
     */
    private void write(GroupCommitWriter.Statements statements, List<Change> changes) throws SQLException {
        Map<Object, Object[]> inserts = new LinkedHashMap<>();
        Map<Object, Object[]> ends = new LinkedHashMap<>();
        Map<String, Object[]> nodes = new LinkedHashMap<>();
        List<Object[]> newNodes = new ArrayList<>();
        Map<String, List<KeptEvent>> events = new LinkedHashMap<>();
        Map<Object, Object[]> tags = new HashMap<>();
        Map<String, Object[]> pauses = new LinkedHashMap<>();
        List<Object[]> newForms = new ArrayList<>();
        List<Object[]> endedRuns = new ArrayList<>();
        for (Change change : changes) {
            Object[] start = change instanceof Started started ? concat(started.start(), started.end())
                    : change instanceof RunKept kept ? concat(kept.start(), kept.end()) : null;
            if (start != null) {
                if (inserts.putIfAbsent(start[0], start) != null) {
                    throw new SQLException("run " + start[0] + " started twice in one batch");
                }
                // An end queued before its run started ended nothing, as it would have in a batch of its own.
                ends.remove(start[0]);
                tags.put(start[0], change instanceof Started started ? started.tags() : ((RunKept) change).tags());
            }
            if (change instanceof RunKept kept) {
                // Inserted before any node saved later in the batch is merged: a later save finds its row.
                newNodes.addAll(kept.nodes());
                kept.events().forEach(event -> events.computeIfAbsent(event.runId(), run -> new ArrayList<>())
                        .add(event));
            } else if (change instanceof EventKept event) {
                events.computeIfAbsent(event.event().runId(), run -> new ArrayList<>()).add(event.event());
            } else if (change instanceof NodeSaved node) {
                nodes.put(node.id(), node.columns());
            } else if (change instanceof Finished finished) {
                mergeEnd(finished.runId(), finished.end(), inserts, ends);
                endedRuns.add(new Object[] {finished.runId()});
            } else if (change instanceof Paused paused) {
                mergeEnd(paused.runId(), paused.end(), inserts, ends);
                pauses.put(paused.runId(), paused.pause());
                newForms.addAll(paused.forms());
            }
        }
        Map<List<String>, Long> counts = counts(statements, inserts, ends);
        List<Object[]> runs = new ArrayList<>(inserts.size());
        inserts.values().forEach(row -> runs.add(concat(concat(row, new Object[] {instance}), tags.get(row[0]))));
        execute(statements, INSERT_RUN, runs);
        execute(statements, INSERT_NODE, newNodes);
        execute(statements, saveNode, nodes.values());
        execute(statements, END_RUN, ends.values());
        execute(statements, savePause, pauses.values());
        execute(statements, INSERT_FORM, newForms);
        execute(statements, DROP_ENDED_PAUSE, endedRuns);
        execute(statements, INSERT_EVENTS, RunRecords.eventRows(events));
        count(statements, counts);
    }

    /**
     * A run's end (or pause): into its insert when it started in the batch and runs there, else an update of its
     * row.
     */
    private static void mergeEnd(String runId, Object[] end, Map<Object, Object[]> inserts,
            Map<Object, Object[]> ends) {
        Object[] row = inserts.get(runId);
        int endAt = row == null ? 0 : row.length - end.length;
        if (row != null && RUNNING.equals(row[endAt])) {
            System.arraycopy(end, 0, row, endAt, end.length);
        } else if (row == null) {
            ends.putIfAbsent(runId, concat(end, new Object[] {runId}));
        }
    }

    /**
     * How the batch changes the counts of runs by app and status: one more for each run inserted, and a run the
     * batch ends moves from running to its end's status. Read before the batch writes anything.
     */
    private static Map<List<String>, Long> counts(GroupCommitWriter.Statements statements,
            Map<Object, Object[]> inserts, Map<Object, Object[]> ends) throws SQLException {
        // In (app, status) order, as the prune updates them: two transactions never lock two counts crosswise.
        Map<List<String>, Long> counts = new java.util.TreeMap<>(COUNT_ORDER);
        for (Object[] row : inserts.values()) {
            counts.merge(List.of((String) row[1], (String) row[10]), 1L, Long::sum);
        }
        PreparedStatement statusOf = ends.isEmpty() ? null : statements.prepared(STATUS_OF_RUN);
        for (Map.Entry<Object, Object[]> end : ends.entrySet()) {
            statusOf.setObject(1, end.getKey());
            try (ResultSet before = statusOf.executeQuery()) {
                if (before.next() && RUNNING.equals(before.getString(2))
                        && !RUNNING.equals(end.getValue()[0])) {
                    counts.merge(List.of(before.getString(1), before.getString(2)), -1L, Long::sum);
                    counts.merge(List.of(before.getString(1), (String) end.getValue()[0]), 1L, Long::sum);
                }
            }
        }
        return counts;
    }

    private void count(GroupCommitWriter.Statements statements, Map<List<String>, Long> counts) throws SQLException {
        for (Map.Entry<List<String>, Long> count : counts.entrySet()) {
            if (count.getValue() == 0) {
                continue;
            }
            PreparedStatement add = statements.prepared(addToCount);
            add.setLong(1, count.getValue());
            add.setString(2, count.getKey().get(0));
            add.setString(3, count.getKey().get(1));
            add.executeUpdate();
        }
    }

    private static void execute(GroupCommitWriter.Statements statements, String sql, Collection<Object[]> rows)
            throws SQLException {
        if (rows.isEmpty()) {
            return;
        }
        PreparedStatement statement = statements.prepared(sql);
        for (Object[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                statement.setObject(i + 1, row[i]);
            }
            statement.addBatch();
        }
        statement.executeBatch();
    }

    private static Object[] concat(Object[] first, Object[] second) {
        Object[] both = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }
}
