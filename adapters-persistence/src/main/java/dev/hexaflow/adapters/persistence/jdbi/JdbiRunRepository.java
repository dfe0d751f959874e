package dev.hexaflow.adapters.persistence.jdbi;

import dev.hexaflow.application.runs.port.out.RunRepository;
import dev.hexaflow.domain.app.EndUser;
import dev.hexaflow.domain.workflow.ExecutionMetadata;
import dev.hexaflow.domain.workflow.NodeExecution;
import dev.hexaflow.domain.workflow.NodeStatus;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.Query;

/**
 * The logs' total comes from {@code run_count} (runs by app and status, kept with the runs) unless a keyword, a
 * time or a user narrows it; then {@link SearchTotals} counts it, in full only the first time.
 * Writes go through one {@link GroupCommitWriter}: queued, and committed together with whatever else is waiting.
 * Runs in {@code workflow_run} (each run its own log entry), node executions in {@code node_execution}, the events
 * their streams showed in {@code run_event}: a run's events of one batch packed in one row (their data lines
 * joined by newlines, which a JSON line never holds), inserted with the batch's other rows in one JDBC batch. The
 * log
 * search matches the keyword, case-insensitively, in the inputs and outputs JSON text and the user, or a run id
 * exactly, as Dify's does.
 */
public final class JdbiRunRepository implements RunRepository {

    private final Jdbi jdbi;
    private final GroupCommitWriter<Change> writer;
    private final SearchTotals searchTotals = new SearchTotals();
    private final SqlDialect dialect;
    /** Adds to an app's count of runs in a status: the amount, the app, the status. */
    private final String addToCount;
    private volatile String primaryKeyHint;

    public JdbiRunRepository(Jdbi jdbi) {
        this(jdbi, WriteGate.OPEN);
    }

    /** @param gate refuses writes at once while the store cannot keep them */
    public JdbiRunRepository(Jdbi jdbi, WriteGate gate) {
        this(jdbi, gate, null);
    }

    /**
     * @param gate     refuses writes at once while the store cannot keep them
     * @param instance the instance whose runs these are, kept with each run: another instance fails them once its
     *                 lease runs out ({@link #failRunsOfLapsedInstances}); null where one instance is alone
     */
    public JdbiRunRepository(Jdbi jdbi, WriteGate gate, String instance) {
        this.jdbi = jdbi;
        this.dialect = SqlDialect.of(jdbi);
        this.addToCount = dialect.addTo("run_count", "n", "app_id, status");
        String saveNode = dialect.upsert("node_execution", "id", NODE_COLUMNS, NODE_VALUES);
        this.writer = new GroupCommitWriter<>(jdbi, gate, "hexaflow-run-writer",
                (statements, changes) -> write(statements, changes, saveNode, instance), JdbiRunRepository::weight);
    }

    @Override
    public CompletableFuture<Void> started(StartedRun started) {
        return writer.submit(new Started(start(started), end(started.run())));
    }

    /** What a run's start sets, in {@link #INSERT_RUN}'s order (its first ten columns). */
    private static Object[] start(StartedRun started) {
        WorkflowRun run = started.run();
        return new Object[] {run.id(), started.appId(), run.workflowId(), started.version(), started.taskId(),
                started.user().id(), started.user().sessionId(), started.logId(), JsonColumns.write(run.inputs()),
                run.createdAt()};
    }

    @Override
    public CompletableFuture<Void> saveNode(String runId, NodeExecution execution) {
        return writer.submit(new NodeSaved(execution.id(), columns(runId, execution)));
    }

    /** One change for the writer: the run's row, its node executions' rows and its events' row, all inserted. */
    @Override
    public CompletableFuture<Void> kept(KeptRun kept) {
        WorkflowRun run = kept.started().run();
        List<Object[]> nodes = new ArrayList<>(kept.nodes().size());
        kept.nodes().forEach(node -> nodes.add(columns(run.id(), node)));
        return writer.submit(new RunKept(start(kept.started()), end(run), nodes, kept.events()));
    }

    private static Object[] columns(String runId, NodeExecution execution) {
        return new Object[] {execution.id(), runId, execution.nodeId(), execution.nodeType().wireName(),
                execution.title(), execution.index(), execution.predecessorNodeId(),
                JsonColumns.write(execution.inputs()), JsonColumns.write(execution.processData()),
                JsonColumns.write(execution.outputs()), execution.status().wireName(), execution.error(),
                execution.elapsedTime(), metadata(execution.metadata()), execution.createdAt(),
                execution.finishedAt()};
    }

    /** Keeps the end of a run that is running: a run that has ended keeps its first end. */
    @Override
    public CompletableFuture<Void> finished(WorkflowRun run) {
        return writer.submit(new Finished(run.id(), end(run)));
    }

    @Override
    public CompletableFuture<Void> event(KeptEvent event) {
        return writer.submit(new EventKept(event));
    }

    @Override
    public List<KeptEvent> events(String runId, long after) {
        List<KeptEvent> events = new ArrayList<>();
        jdbi.useHandle(handle -> handle.createQuery("SELECT seq, first_seq, data FROM run_event WHERE run_id = "
                + ":run_id AND seq > :after ORDER BY seq").bind("run_id", runId).bind("after", after)
                .map((rs, ctx) -> {
                    long seq = rs.getLong("first_seq");
                    String text = rs.getString("data");
                    // A row of one event is its data whole, newlines and all.
                    String[] lines = seq == rs.getLong("seq") ? new String[] {text} : text.split("\n", -1);
                    for (String data : lines) {
                        if (seq > after) {
                            events.add(new KeptEvent(runId, seq, data));
                        }
                        seq++;
                    }
                    return null;
                }).list());
        return events;
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
        }
        RunKept kept = (RunKept) change;
        return weight(kept.start()) + weight(kept.end())
                + kept.nodes().stream().mapToLong(JdbiRunRepository::weight).sum()
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
    private record Started(Object[] start, Object[] end) implements Change {
    }

    private record NodeSaved(String id, Object[] columns) implements Change {
    }

    private record Finished(String runId, Object[] end) implements Change {
    }

    private record EventKept(KeptEvent event) implements Change {
    }

    /** A run kept in one change: its start and end columns, its node executions' columns, its events. */
    private record RunKept(Object[] start, Object[] end, List<Object[]> nodes, List<KeptEvent> events)
            implements Change {
    }

    private static final String INSERT_EVENTS = "INSERT INTO run_event (run_id, seq, first_seq, data) VALUES "
            + "(?, ?, ?, ?)";

    private static final String INSERT_RUN = "INSERT INTO workflow_run (id, app_id, workflow_id, version, task_id, "
            + "end_user_id, session_id, log_id, inputs, created_at, status, outputs, error, elapsed_time, total_tokens, "
            + "total_steps, exceptions_count, finished_at, instance_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
            + "?, ?)";

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

    /** What a run's end sets, in {@link #END_RUN}'s order (all of it empty while the run goes on). */
    private static Object[] end(WorkflowRun run) {
        return new Object[] {run.status().wireName(), JsonColumns.write(run.outputs()), run.error(), run.elapsedTime(),
                run.totalTokens(), run.totalSteps(), run.exceptionsCount(), run.finishedAt()};
    }

    private static final String RUNNING = RunStatus.RUNNING.wireName();

    private static final java.util.Comparator<List<String>> COUNT_ORDER = java.util.Comparator
            .<List<String>, String>comparing(key -> key.get(0)).thenComparing(key -> key.get(1));

    private static final String STATUS_OF_RUN = "SELECT app_id, status FROM workflow_run WHERE id = ?";


    /**
     * Writes a batch in as few statements as it needs: a run that starts and ends in the same batch is inserted
     * ended, a node execution saved twice is written once as it is last. Runs are inserted before any update, so
     * that a run's end always finds its row; only the first end of a run is written. The app's counts by status
     * change in the same transaction. A run started twice in one batch fails the batch, so that the writer writes
     * its changes one at a time and the second start fails alone, on the table's unique id.
     */
    private void write(GroupCommitWriter.Statements statements, List<Change> changes, String saveNode,
            String instance) throws SQLException {
        Map<Object, Object[]> inserts = new LinkedHashMap<>();
        Map<Object, Object[]> ends = new LinkedHashMap<>();
        Map<String, Object[]> nodes = new LinkedHashMap<>();
        List<Object[]> newNodes = new ArrayList<>();
        Map<String, List<KeptEvent>> events = new LinkedHashMap<>();
        for (Change change : changes) {
            Object[] start = change instanceof Started started ? concat(started.start(), started.end())
                    : change instanceof RunKept kept ? concat(kept.start(), kept.end()) : null;
            if (start != null) {
                if (inserts.putIfAbsent(start[0], start) != null) {
                    throw new SQLException("run " + start[0] + " started twice in one batch");
                }
                // An end queued before its run started ended nothing, as it would have in a batch of its own.
                ends.remove(start[0]);
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
                Object[] row = inserts.get(finished.runId());
                int endAt = row == null ? 0 : row.length - finished.end().length;
                if (row != null && RUNNING.equals(row[endAt])) {
                    System.arraycopy(finished.end(), 0, row, endAt, finished.end().length);
                } else if (row == null) {
                    ends.putIfAbsent(finished.runId(), concat(finished.end(), new Object[] {finished.runId()}));
                }
            }
        }
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
        List<Object[]> runs = new ArrayList<>(inserts.size());
        inserts.values().forEach(row -> runs.add(concat(row, new Object[] {instance})));
        execute(statements, INSERT_RUN, runs);
        execute(statements, INSERT_NODE, newNodes);
        execute(statements, saveNode, nodes.values());
        execute(statements, END_RUN, ends.values());
        execute(statements, INSERT_EVENTS, packed(events));
        count(statements, counts);
    }

    /**
     * A run's events of the batch as rows of consecutive numbers, each row's data their lines joined: an event
     * out of order, or whose data holds a newline, starts a row of its own.
     */
    private static List<Object[]> packed(Map<String, List<KeptEvent>> events) {
        List<Object[]> rows = new ArrayList<>();
        for (List<KeptEvent> run : events.values()) {
            int from = 0;
            for (int i = 1; i <= run.size(); i++) {
                if (i < run.size() && run.get(i).seq() == run.get(i - 1).seq() + 1
                        && run.get(i).data().indexOf('\n') < 0 && run.get(from).data().indexOf('\n') < 0) {
                    continue;
                }
                StringBuilder data = new StringBuilder();
                for (int j = from; j < i; j++) {
                    data.append(j == from ? "" : "\n").append(run.get(j).data());
                }
                rows.add(new Object[] {run.get(from).runId(), run.get(i - 1).seq(), run.get(from).seq(),
                        data.toString()});
                from = i;
            }
        }
        return rows;
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

    @Override
    public Optional<WorkflowRun> find(String appId, String runId) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT * FROM workflow_run WHERE id = :id AND app_id = "
                + ":app_id").bind("id", runId).bind("app_id", appId).map((rs, ctx) -> run(rs)).findOne());
    }

    @Override
    public List<NodeExecution> nodeExecutions(String runId) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT * FROM node_execution WHERE run_id = :run_id "
                + "ORDER BY idx").bind("run_id", runId).map((rs, ctx) -> execution(rs)).list());
    }

    @Override
    public Optional<String> taskId(String runId) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT task_id FROM workflow_run WHERE id = :id")
                .bind("id", runId).mapTo(String.class).findOne());
    }

    @Override
    public NodeExecutionSlice nodeExecutions(String runId, int offset, int limit) {
        if (offset < 0 || limit < 1) {
            throw new IllegalArgumentException("a slice starts at 0 or later and holds 1 or more");
        }
        return jdbi.withHandle(handle -> {
            long total = handle.createQuery("SELECT COUNT(*) FROM node_execution WHERE run_id = :run_id")
                    .bind("run_id", runId).mapTo(Long.class).one();
            List<NodeExecution> items = handle.createQuery("SELECT * FROM node_execution WHERE run_id = :run_id "
                    + "ORDER BY idx, id OFFSET :offset ROWS FETCH NEXT :limit ROWS ONLY").bind("run_id", runId)
                    .bind("offset", offset).bind("limit", limit).map((rs, ctx) -> execution(rs)).list();
            return new NodeExecutionSlice(total, items);
        });
    }

    @Override
    public LogPage logs(LogQuery query) {
        if (query.page() < 1 || query.limit() < 1) {
            throw new IllegalArgumentException("a log page is 1 or more, and so is its limit");
        }
        StringBuilder where = new StringBuilder("app_id = :app_id");
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("app_id", query.appId());
        if (query.status() != null) {
            where.append(" AND status = :status");
            values.put("status", query.status());
        }
        if (query.createdBefore() != null) {
            where.append(" AND created_at <= :before");
            values.put("before", query.createdBefore());
        }
        if (query.createdAfter() != null) {
            where.append(" AND created_at >= :after");
            values.put("after", query.createdAfter());
        }
        if (query.endUserSessionId() != null) {
            where.append(" AND session_id = :session_id");
            values.put("session_id", query.endUserSessionId());
        }
        if (query.keyword() != null) {
            // '!' escapes the pattern: Jdbi's statement lexer would read a backslash in a literal as an escape.
            where.append(" AND (LOWER(inputs) LIKE :keyword ESCAPE '!' OR LOWER(outputs) LIKE :keyword ESCAPE '!'"
                    + " OR LOWER(session_id) LIKE :keyword ESCAPE '!' OR id = :exact)");
            values.put("keyword", "%" + escapeLike(query.keyword().toLowerCase(Locale.ROOT)) + "%");
            values.put("exact", query.keyword());
        }
        boolean byStatusOnly = query.keyword() == null && query.createdBefore() == null
                && query.createdAfter() == null && query.endUserSessionId() == null;
        // The leading columns of the order are equal in every row; naming them lets H2 read the (app, status,
        // time) or (app, time) index in its order and stop after the page, instead of sorting every match.
        String order = query.status() != null ? " ORDER BY app_id, status, created_at DESC, seq DESC"
                : " ORDER BY app_id, created_at DESC, seq DESC";
        return jdbi.withHandle(handle -> {
            long total;
            if (byStatusOnly) {
                Query count = handle.createQuery("SELECT COALESCE(SUM(n), 0) FROM run_count WHERE app_id = :app_id"
                        + (query.status() != null ? " AND status = :status" : ""));
                values.forEach(count::bind);
                total = count.mapTo(Long.class).one();
            } else {
                total = searchTotals.total(handle, where.toString(), values, query.appId(), primaryKeyHint(handle));
            }
            Query page = handle.createQuery("SELECT * FROM workflow_run WHERE " + where + order
                    + " LIMIT :limit OFFSET :offset");
            values.forEach(page::bind);
            List<LogEntry> items = page.bind("limit", query.limit())
                    .bind("offset", (long) (query.page() - 1) * query.limit())
                    .map((rs, ctx) -> new LogEntry(rs.getString("log_id"), run(rs), rs.getString("version"),
                            new EndUser(rs.getString("end_user_id"), rs.getString("app_id"), rs.getString("session_id"),
                                    rs.getLong("created_at")), rs.getLong("created_at"))).list();
            return new LogPage(query.page(), query.limit(), total, total > (long) query.page() * query.limit(),
                    items);
        });
    }

    /** What makes the database read workflow_run's ranges of numbers through its primary key, found once. */
    private String primaryKeyHint(Handle handle) {
        String hint = primaryKeyHint;
        if (hint == null) {
            hint = dialect.primaryKeyHint(handle, "workflow_run");
            primaryKeyHint = hint;
        }
        return hint;
    }

    @Override
    public int failUnfinished(String error, long finishedAt, java.util.Set<String> spared) {
        if (spared.isEmpty()) {
            return failRunning(error, finishedAt, "", Map.of());
        }
        // A bound list of ids, as H2 and PostgreSQL both take an array: one parameter however many runs go on.
        return failRunning(error, finishedAt, " AND NOT (id = ANY(:spared))",
                Map.of("spared", spared.toArray(new String[0])));
    }

    /**
     * As {@link #failUnfinished} for the runs of no instance whose lease was renewed at {@code leaseCutoff} or
     * after (Unix milliseconds): an instance that died, or a server from before runs named their instance. Two
     * instances that fail them at once fail each run once: the second finds it ended.
     */
    @Override
    public int failRunsOfLapsedInstances(String error, long finishedAt, long leaseCutoff) {
        return failRunning(error, finishedAt, " AND (instance_id IS NULL OR instance_id NOT IN (SELECT id FROM "
                + "instance_lease WHERE renewed_at >= :cutoff))", Map.of("cutoff", leaseCutoff));
    }

    /** Fails the running runs (and their running node executions) that {@code which} narrows, app by app. */
    private int failRunning(String error, long finishedAt, String which, Map<String, Object> binds) {
        return jdbi.inTransaction(handle -> {
            int failed = 0;
            List<String> apps = handle.createQuery("SELECT app_id FROM run_count WHERE status = 'running' AND n > 0")
                    .mapTo(String.class).list();
            for (String app : apps) {
                handle.createUpdate("UPDATE node_execution SET status = 'failed', error = :error, finished_at = :at "
                        + "WHERE status = 'running' AND run_id IN (SELECT id FROM workflow_run WHERE app_id = :app "
                        + "AND status = 'running'" + which + ")").bind("error", error).bind("at", finishedAt)
                        .bind("app", app).bindMap(binds).execute();
                int runs = handle.createUpdate("UPDATE workflow_run SET status = 'failed', error = :error, "
                        + "finished_at = :at WHERE app_id = :app AND status = 'running'" + which)
                        .bind("error", error).bind("at", finishedAt).bind("app", app).bindMap(binds).execute();
                if (runs == 0) {
                    continue;
                }
                // The counts in the writer's order ('failed' before 'running'), so that the two never deadlock.
                handle.createUpdate(addToCount).bind(0, runs).bind(1, app).bind(2, RunStatus.FAILED.wireName())
                        .execute();
                handle.createUpdate("UPDATE run_count SET n = n - :runs WHERE app_id = :app AND status = 'running'")
                        .bind("runs", runs).bind("app", app).execute();
                failed += runs;
            }
            return failed;
        });
    }

    /**
     * App by app, through the index on (app, created_at): the oldest ended runs before the age bound, then
     * those older than the app's newest {@code keepPerApp}; one transaction per batch, so that the run writer
     * waits on a prune for one batch at most. The index is (app_id, created_at DESC, seq DESC): oldest first is
     * every column of it reversed ({@code app_id DESC, created_at, seq}), which H2 reads backwards and stops after
     * the batch; {@code app_id, created_at, seq} would sort all the app's runs for every batch.
     */
    @Override
    public int prune(Pruning pruning) {
        return jdbi.inTransaction(handle -> {
            Map<String, String[]> victims = new LinkedHashMap<>();
            for (String app : handle.createQuery("SELECT app_id FROM run_count GROUP BY app_id HAVING SUM(n) > 0")
                    .mapTo(String.class).list()) {
                if (pruning.createdBefore() != null) {
                    handle.createQuery("SELECT id, status FROM workflow_run WHERE app_id = :app AND created_at < "
                            + ":before AND status <> 'running' ORDER BY app_id DESC, created_at, seq LIMIT :batch")
                            .bind("app", app).bind("before", pruning.createdBefore())
                            .bind("batch", pruning.batch() - victims.size())
                            .map((rs, ctx) -> new String[] {rs.getString("id"), app, rs.getString("status")})
                            .forEach(run -> victims.put(run[0], run));
                }
                if (pruning.keepPerApp() != null && victims.size() < pruning.batch()) {
                    // The app's runs past its newest keepPerApp are its oldest (total - keepPerApp), counted from
                    // run_count: read from the old end of the index, never skipped over from the new end. Running
                    // ones among them stay, and are looked past, but never past the newest keepPerApp.
                    Map<String, Long> counts = new LinkedHashMap<>();
                    handle.createQuery("SELECT status, n FROM run_count WHERE app_id = :app").bind("app", app)
                            .map((rs, ctx) -> counts.put(rs.getString("status"), rs.getLong("n"))).list();
                    long excess = counts.values().stream().mapToLong(Long::longValue).sum() - pruning.keepPerApp();
                    int room = pruning.batch() - victims.size();
                    // The age bound's victims of this app are the first ended runs of the same read: read past them.
                    long chosen = victims.values().stream().filter(run -> run[1].equals(app)).count();
                    long read = Math.min(excess, room + chosen + counts.getOrDefault(RUNNING, 0L));
                    if (read > 0) {
                        handle.createQuery("SELECT id, status FROM workflow_run WHERE app_id = :app ORDER BY "
                                + "app_id DESC, created_at, seq LIMIT :read").bind("app", app).bind("read", read)
                                .map((rs, ctx) -> new String[] {rs.getString("id"), app, rs.getString("status")})
                                .filter(run -> !RUNNING.equals(run[2]) && !victims.containsKey(run[0])).stream()
                                .limit(room)
                                .forEach(run -> victims.putIfAbsent(run[0], run));
                    }
                }
                if (victims.size() >= pruning.batch()) {
                    break;
                }
            }
            if (victims.isEmpty()) {
                return 0;
            }
            List<String> ids = List.copyOf(victims.keySet());
            handle.createUpdate("DELETE FROM node_execution WHERE run_id IN (<ids>)").bindList("ids", ids).execute();
            handle.createUpdate("DELETE FROM run_event WHERE run_id IN (<ids>)").bindList("ids", ids).execute();
            handle.createUpdate("DELETE FROM workflow_run WHERE id IN (<ids>)").bindList("ids", ids).execute();
            Map<String, Integer> gone = new java.util.TreeMap<>();
            for (String[] run : victims.values()) {
                gone.merge(run[1] + "\n" + run[2], 1, Integer::sum);
            }
            gone.forEach((appAndStatus, runs) -> {
                String[] key = appAndStatus.split("\n", 2);
                handle.createUpdate("UPDATE run_count SET n = n - :runs WHERE app_id = :app AND status = :status")
                        .bind("runs", runs).bind("app", key[0]).bind("status", key[1]).execute();
            });
            return ids.size();
        });
    }

    private static String escapeLike(String text) {
        return text.replace("!", "!!").replace("%", "!%").replace("_", "!_");
    }

    private static WorkflowRun run(ResultSet rs) throws SQLException {
        return new WorkflowRun(rs.getString("id"), rs.getString("workflow_id"),
                RunStatus.fromWireName(rs.getString("status")), JsonColumns.readMap(rs.getString("inputs")),
                JsonColumns.readMap(rs.getString("outputs")), rs.getString("error"), rs.getDouble("elapsed_time"),
                rs.getLong("total_tokens"), rs.getInt("total_steps"), rs.getInt("exceptions_count"),
                rs.getLong("created_at"), rs.getObject("finished_at", Long.class));
    }

    private static NodeExecution execution(ResultSet rs) throws SQLException {
        Map<String, Object> metadata = JsonColumns.readMap(rs.getString("metadata"));
        return new NodeExecution(rs.getString("id"), rs.getString("node_id"),
                NodeType.fromWireName(rs.getString("node_type")).orElse(NodeType.END), rs.getString("title"),
                rs.getInt("idx"), rs.getString("predecessor"), JsonColumns.readMap(rs.getString("inputs")),
                JsonColumns.readMap(rs.getString("process_data")), JsonColumns.readMap(rs.getString("outputs")),
                NodeStatus.fromWireName(rs.getString("status")), rs.getString("error"), rs.getDouble("elapsed_time"),
                metadata(metadata), rs.getLong("created_at"), rs.getObject("finished_at", Long.class));
    }

    /** The size of the node execution's metadata column. */
    private static final int METADATA_CHARS = 100_000;

    /** The metadata {@link #metadata(ExecutionMetadata)} wrote, whole. */
    private static ExecutionMetadata metadata(Map<String, Object> map) {
        if (map == null) {
            return ExecutionMetadata.NONE;
        }
        Object price = map.get("total_price");
        return new ExecutionMetadata(((Number) map.getOrDefault("total_tokens", 0L)).longValue(),
                price == null ? null : new BigDecimal(price.toString()), (String) map.get("currency"),
                (String) map.get("iteration_id"), whole(map.get("iteration_index")), (String) map.get("loop_id"),
                whole(map.get("loop_index")), agentLog(map.get("agent_log")));
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> agentLog(Object log) {
        return log instanceof List<?> entries ? (List<Map<String, Object>>) entries : List.of();
    }

    private static Integer whole(Object number) {
        return number == null ? null : ((Number) number).intValue();
    }

    /** The metadata as JSON text, or null for none at all (most nodes), which reads back as none. */
    private static String metadata(ExecutionMetadata metadata) {
        if (metadata.equals(ExecutionMetadata.NONE)) {
            return null;
        }
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("total_tokens", metadata.totalTokens());
        map.put("total_price", metadata.totalPrice().toPlainString());
        map.put("currency", metadata.currency());
        map.put("iteration_id", metadata.iterationId());
        map.put("iteration_index", metadata.iterationIndex());
        map.put("loop_id", metadata.loopId());
        map.put("loop_index", metadata.loopIndex());
        String written = JsonColumns.write(map);
        List<Map<String, Object>> log = metadata.agentLog();
        if (log.isEmpty()) {
            return written;
        }
        // The column holds 100,000 characters: an agent's log that does not fit keeps its first entries, as many
        // as fit, found by halving (each try writes the map once) rather than one entry at a time.
        int fits = 0;
        int fitsNot = log.size() + 1;
        String best = written;
        while (fitsNot - fits > 1) {
            int kept = (fits + fitsNot) / 2;
            map.put("agent_log", log.subList(0, kept));
            String withLog = JsonColumns.write(map);
            if (withLog.length() <= METADATA_CHARS) {
                fits = kept;
                best = withLog;
            } else {
                fitsNot = kept;
            }
        }
        return best;
    }

}
