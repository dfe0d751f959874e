package dev.hexaflow.adapters.persistence.jdbi;

import dev.hexaflow.application.app.port.out.RunRepository;
import dev.hexaflow.domain.app.EndUser;
import dev.hexaflow.domain.workflow.ExecutionMetadata;
import dev.hexaflow.domain.workflow.NodeExecution;
import dev.hexaflow.domain.workflow.NodeStatus;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.Query;

/**
 * Runs in {@code workflow_run} (each run its own log entry), node executions in {@code node_execution}. The log
 * search matches the keyword, case-insensitively, in the inputs and outputs JSON text and the user, or a run id
 * exactly, as Dify's does.
 */
public final class JdbiRunRepository implements RunRepository {

    private final Jdbi jdbi;

    public JdbiRunRepository(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    @Override
    public void started(StartedRun started) {
        WorkflowRun run = started.run();
        jdbi.useHandle(handle -> handle.createUpdate("INSERT INTO workflow_run (id, app_id, workflow_id, version, "
                + "task_id, end_user_id, session_id, log_id, status, inputs, created_at) VALUES (:id, :app_id, "
                + ":workflow_id, :version, :task_id, :end_user_id, :session_id, :log_id, :status, :inputs, "
                + ":created_at)").bind("id", run.id()).bind("app_id", started.appId())
                .bind("workflow_id", run.workflowId()).bind("version", started.version())
                .bind("task_id", started.taskId()).bind("end_user_id", started.user().id())
                .bind("session_id", started.user().sessionId()).bind("log_id", started.logId())
                .bind("status", run.status().wireName()).bind("inputs", JsonColumns.write(run.inputs()))
                .bind("created_at", run.createdAt()).execute());
    }

    @Override
    public void saveNode(String runId, NodeExecution execution) {
        jdbi.useHandle(handle -> handle.createUpdate("MERGE INTO node_execution (id, run_id, node_id, node_type, "
                + "title, idx, predecessor, inputs, process_data, outputs, status, error, elapsed_time, metadata, "
                + "created_at, finished_at) KEY (id) VALUES (:id, :run_id, :node_id, :node_type, :title, :idx, "
                + ":predecessor, :inputs, :process_data, :outputs, :status, :error, :elapsed_time, :metadata, "
                + ":created_at, :finished_at)").bind("id", execution.id()).bind("run_id", runId)
                .bind("node_id", execution.nodeId()).bind("node_type", execution.nodeType().wireName())
                .bind("title", execution.title()).bind("idx", execution.index())
                .bind("predecessor", execution.predecessorNodeId())
                .bind("inputs", JsonColumns.write(execution.inputs()))
                .bind("process_data", JsonColumns.write(execution.processData()))
                .bind("outputs", JsonColumns.write(execution.outputs())).bind("status", execution.status().wireName())
                .bind("error", execution.error()).bind("elapsed_time", execution.elapsedTime())
                .bind("metadata", JsonColumns.write(metadata(execution.metadata())))
                .bind("created_at", execution.createdAt()).bindByType("finished_at", execution.finishedAt(), Long.class)
                .execute());
    }

    @Override
    public void finished(WorkflowRun run) {
        jdbi.useHandle(handle -> handle.createUpdate("UPDATE workflow_run SET status = :status, outputs = :outputs, "
                + "error = :error, elapsed_time = :elapsed_time, total_tokens = :total_tokens, total_steps = "
                + ":total_steps, exceptions_count = :exceptions_count, finished_at = :finished_at WHERE id = :id")
                .bind("id", run.id()).bind("status", run.status().wireName())
                .bind("outputs", JsonColumns.write(run.outputs())).bind("error", run.error())
                .bind("elapsed_time", run.elapsedTime()).bind("total_tokens", run.totalTokens())
                .bind("total_steps", run.totalSteps()).bind("exceptions_count", run.exceptionsCount())
                .bindByType("finished_at", run.finishedAt(), Long.class).execute());
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
    public LogPage logs(LogQuery query) {
        StringBuilder where = new StringBuilder(" FROM workflow_run WHERE app_id = :app_id");
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
        return jdbi.withHandle(handle -> {
            Query count = handle.createQuery("SELECT COUNT(*)" + where);
            values.forEach(count::bind);
            long total = count.mapTo(Long.class).one();
            Query page = handle.createQuery("SELECT *" + where
                    + " ORDER BY created_at DESC, seq DESC LIMIT :limit OFFSET :offset");
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

    @Override
    public int failUnfinished(String error, long finishedAt) {
        return jdbi.inTransaction(handle -> {
            handle.createUpdate("UPDATE node_execution SET status = 'failed', error = :error, finished_at = :at "
                    + "WHERE status = 'running'").bind("error", error).bind("at", finishedAt).execute();
            return handle.createUpdate("UPDATE workflow_run SET status = 'failed', error = :error, finished_at = :at "
                    + "WHERE status = 'running'").bind("error", error).bind("at", finishedAt).execute();
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
                metadata == null ? ExecutionMetadata.NONE : ExecutionMetadata.NONE.withTokens(
                        ((Number) metadata.getOrDefault("total_tokens", 0L)).longValue(), BigDecimal.ZERO),
                rs.getLong("created_at"), rs.getObject("finished_at", Long.class));
    }

    private static Map<String, Object> metadata(ExecutionMetadata metadata) {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("total_tokens", metadata.totalTokens());
        map.put("total_price", metadata.totalPrice().toPlainString());
        map.put("currency", metadata.currency());
        map.put("iteration_id", metadata.iterationId());
        map.put("iteration_index", metadata.iterationIndex());
        map.put("loop_id", metadata.loopId());
        map.put("loop_index", metadata.loopIndex());
        return map;
    }

}
