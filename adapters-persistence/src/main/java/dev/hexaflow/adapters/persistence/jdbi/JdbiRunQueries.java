package dev.hexaflow.adapters.persistence.jdbi;

import dev.hexaflow.application.runs.port.out.RunRepository.FoundRun;
import dev.hexaflow.application.runs.port.out.RunRepository.KeptEvent;
import dev.hexaflow.application.runs.port.out.RunRepository.LogEntry;
import dev.hexaflow.application.runs.port.out.RunRepository.LogPage;
import dev.hexaflow.application.runs.port.out.RunRepository.LogQuery;
import dev.hexaflow.application.runs.port.out.RunRepository.NodeExecutionSlice;
import dev.hexaflow.application.runs.port.out.RunRepository.RunPosition;
import dev.hexaflow.application.runs.port.out.RunRepository.RunSearch;
import dev.hexaflow.application.runs.port.out.RunRepository.RunSlice;
import dev.hexaflow.domain.app.EndUser;
import dev.hexaflow.domain.workflow.NodeExecution;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.Query;

/**
 * The run store's reads: runs, their node executions, the events their streams showed, and the logs. The logs'
 * total comes from {@code run_count} (runs by app and status, kept with the runs) unless a keyword, a time or a
 * user narrows it; then {@link SearchTotals} counts it, in full only the first time. The log search matches the
 * keyword, case-insensitively, in the inputs and outputs JSON text and the user, or a run id exactly, as Dify's
 * does.
 */
final class JdbiRunQueries {

    /** The run's columns but its record's (node executions and events), which only their own reads need. */
    private static final String RUN_COLUMNS = "seq, id, app_id, workflow_id, version, task_id, end_user_id, "
            + "session_id, log_id, status, inputs, outputs, error, elapsed_time, total_tokens, total_steps, "
            + "exceptions_count, created_at, finished_at, instance_id, trace_id, triggered_from";

    private final Jdbi jdbi;
    private final SqlDialect dialect;
    private final SearchTotals searchTotals = new SearchTotals();
    private volatile String primaryKeyHint;

    JdbiRunQueries(Jdbi jdbi, SqlDialect dialect) {
        this.jdbi = jdbi;
        this.dialect = dialect;
    }

    /**
     * The run's events after {@code after}: its rows' (events kept as they came) and its record's. The rows are read
     * first: the fold moves a run's rows into its record in one transaction, so a read that sees the rows before the
     * fold and the record after it finds the same events twice (told once, by number), never none.
     */
    List<KeptEvent> events(String runId, long after) {
        TreeMap<Long, KeptEvent> events = new TreeMap<>();
        jdbi.useHandle(handle -> {
            handle.createQuery("SELECT seq, first_seq, data FROM run_event WHERE run_id = :run_id AND seq > :after "
                    + "ORDER BY seq").bind("run_id", runId).bind("after", after).map((rs, ctx) -> {
                        long seq = rs.getLong("first_seq");
                        String text = rs.getString("data");
                        // A row of one event is its data whole, newlines and all.
                        String[] lines = seq == rs.getLong("seq") ? new String[] {text} : text.split("\n", -1);
                        for (String data : lines) {
                            if (seq > after) {
                                events.put(seq, new KeptEvent(runId, seq, data));
                            }
                            seq++;
                        }
                        return null;
                    }).list();
            handle.createQuery("SELECT events_from, events FROM workflow_run WHERE id = :run_id AND events IS NOT "
                    + "NULL").bind("run_id", runId).map((rs, ctx) -> {
                        RunRecords.events(runId, rs.getLong("events_from"), rs.getString("events"), after)
                                .forEach(event -> events.putIfAbsent(event.seq(), event));
                        return null;
                    }).list();
        });
        return new ArrayList<>(events.values());
    }

    Optional<WorkflowRun> find(String appId, String runId) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT " + RUN_COLUMNS + " FROM workflow_run WHERE id = :id AND app_id = "
                + ":app_id").bind("id", runId).bind("app_id", appId).map((rs, ctx) -> run(rs)).findOne());
    }

    /**
     * The run's node executions by index: its rows', and its record's that have no row of the same id. The rows are
     * read first, as {@link #events} reads them, so that a fold between the two reads loses none.
     */
    List<NodeExecution> nodeExecutions(String runId) {
        return jdbi.withHandle(handle -> nodeExecutions(handle, runId));
    }

    private static List<NodeExecution> nodeExecutions(Handle handle, String runId) {
        Map<String, NodeExecution> executions = new LinkedHashMap<>();
        handle.createQuery("SELECT * FROM node_execution WHERE run_id = :run_id ORDER BY idx, id")
                .bind("run_id", runId).map((rs, ctx) -> NodeExecutionRows.execution(rs))
                .forEach(node -> executions.put(node.id(), node));
        handle.createQuery("SELECT nodes FROM workflow_run WHERE id = :run_id AND nodes IS NOT NULL")
                .bind("run_id", runId).mapTo(String.class).findOne()
                .ifPresent(nodes -> RunRecords.nodes(nodes).forEach(node -> executions.putIfAbsent(node.id(), node)));
        List<NodeExecution> sorted = new ArrayList<>(executions.values());
        sorted.sort(java.util.Comparator.comparingInt(NodeExecution::index));
        return sorted;
    }

    Optional<String> taskId(String runId) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT task_id FROM workflow_run WHERE id = :id")
                .bind("id", runId).mapTo(String.class).findOne());
    }

    NodeExecutionSlice nodeExecutions(String runId, int offset, int limit) {
        if (offset < 0 || limit < 1) {
            throw new IllegalArgumentException("a slice starts at 0 or later and holds 1 or more");
        }
        List<NodeExecution> executions = nodeExecutions(runId);
        List<NodeExecution> slice = offset >= executions.size() ? List.of()
                : executions.subList(offset, (int) Math.min(executions.size(), (long) offset + limit));
        return new NodeExecutionSlice(executions.size(), List.copyOf(slice));
    }

    LogPage logs(LogQuery query) {
        if (query.page() < 1 || query.limit() < 1) {
            throw new IllegalArgumentException("a log page is 1 or more, and so is its limit");
        }
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("app_id", query.appId());
        String where = "app_id = :app_id" + filters(query, values);
        boolean byStatusOnly = query.keyword() == null && query.createdBefore() == null
                && query.createdAfter() == null && query.endUserSessionId() == null;
        return jdbi.withHandle(handle -> {
            long total;
            if (byStatusOnly) {
                Query count = handle.createQuery("SELECT COALESCE(SUM(n), 0) FROM run_count WHERE app_id = :app_id"
                        + (query.status() != null ? " AND status = :status" : ""));
                values.forEach(count::bind);
                total = count.mapTo(Long.class).one();
            } else {
                total = searchTotals.total(handle, where, values, query.appId(), primaryKeyHint(handle));
            }
            Query page = handle.createQuery("SELECT " + RUN_COLUMNS + " FROM workflow_run WHERE " + where + order(query.status())
                    + " LIMIT :limit OFFSET :offset");
            values.forEach(page::bind);
            List<LogEntry> items = page.bind("limit", query.limit())
                    .bind("offset", (long) (query.page() - 1) * query.limit())
                    .map((rs, ctx) -> logEntry(rs)).list();
            return new LogPage(query.page(), query.limit(), total, total > (long) query.page() * query.limit(),
                    items);
        });
    }

    /**
     * Each app's newest matches after the position, read through the app's own index (no index orders runs across
     * apps, and none is worth its cost on every run's write), merged newest first.
     */
    RunSlice search(RunSearch search) {
        LogQuery filters = new LogQuery(null, search.keyword(), search.status(), 1, search.limit(),
                search.createdBefore(), search.createdAfter(), search.endUserSessionId());
        List<FoundRun> found = new ArrayList<>();
        jdbi.useHandle(handle -> {
            for (String appId : new java.util.LinkedHashSet<>(search.appIds())) {
                Map<String, Object> values = new LinkedHashMap<>();
                values.put("app_id", appId);
                StringBuilder where = new StringBuilder("app_id = :app_id").append(filters(filters, values));
                if (search.after() != null) {
                    where.append(" AND (created_at < :at OR (created_at = :at AND seq < :seq))");
                    values.put("at", search.after().createdAt());
                    values.put("seq", search.after().order());
                }
                Query page = handle.createQuery("SELECT " + RUN_COLUMNS + " FROM workflow_run WHERE " + where + order(search.status())
                        + " LIMIT :limit");
                values.forEach(page::bind);
                found.addAll(page.bind("limit", search.limit() + 1).map((rs, ctx) -> foundRun(rs)).list());
            }
        });
        found.sort(java.util.Comparator.comparing((FoundRun run) -> run.position().createdAt())
                .thenComparing(run -> run.position().order()).reversed());
        return new RunSlice(found.subList(0, Math.min(found.size(), search.limit())), found.size() > search.limit());
    }

    Optional<FoundRun> locate(String runId) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT " + RUN_COLUMNS + " FROM workflow_run WHERE id = :id")
                .bind("id", runId).map((rs, ctx) -> foundRun(rs)).findOne());
    }

    /** The search's filters after the app's, their values put in {@code values}. */
    private static String filters(LogQuery query, Map<String, Object> values) {
        StringBuilder where = new StringBuilder();
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
        return where.toString();
    }

    /**
     * Newest first. The leading columns of the order are equal in every row; naming them lets H2 read the (app,
     * status, time) or (app, time) index in its order and stop after the page, instead of sorting every match.
     */
    private static String order(String status) {
        return status != null ? " ORDER BY app_id, status, created_at DESC, seq DESC"
                : " ORDER BY app_id, created_at DESC, seq DESC";
    }

    private static LogEntry logEntry(ResultSet rs) throws SQLException {
        return new LogEntry(rs.getString("log_id"), run(rs), rs.getString("version"),
                new EndUser(rs.getString("end_user_id"), rs.getString("app_id"), rs.getString("session_id"),
                        rs.getLong("created_at")), rs.getLong("created_at"), rs.getString("triggered_from"));
    }

    private static FoundRun foundRun(ResultSet rs) throws SQLException {
        return new FoundRun(rs.getString("app_id"), rs.getString("task_id"), logEntry(rs),
                new RunPosition(rs.getLong("created_at"), rs.getLong("seq")), rs.getString("trace_id"));
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
}
