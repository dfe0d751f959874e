package dev.hexaflow.adapters.persistence.jdbi;

import dev.hexaflow.domain.workflow.ExecutionMetadata;
import dev.hexaflow.domain.workflow.NodeExecution;
import dev.hexaflow.domain.workflow.NodeStatus;
import dev.hexaflow.domain.workflow.NodeType;
import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A node execution as a row of {@code node_execution}, and back: its columns, and its metadata as JSON text. */
final class NodeExecutionRows {

    /** The size of the node execution's metadata column. */
    private static final int METADATA_CHARS = 100_000;

    private NodeExecutionRows() {
    }

    /** The execution's columns, in {@link JdbiRunWriter}'s order for {@code node_execution}. */
    static Object[] columns(String runId, NodeExecution execution) {
        return new Object[] {execution.id(), runId, execution.nodeId(), execution.nodeType().wireName(),
                execution.title(), execution.index(), execution.predecessorNodeId(),
                JsonColumns.write(execution.inputs()), JsonColumns.write(execution.processData()),
                JsonColumns.write(execution.outputs()), execution.status().wireName(), execution.error(),
                execution.elapsedTime(), metadata(execution.metadata()), execution.createdAt(),
                execution.finishedAt()};
    }

    static NodeExecution execution(ResultSet rs) throws SQLException {
        Map<String, Object> metadata = JsonColumns.readMap(rs.getString("metadata"));
        return new NodeExecution(rs.getString("id"), rs.getString("node_id"),
                NodeType.fromWireName(rs.getString("node_type")).orElse(NodeType.END), rs.getString("title"),
                rs.getInt("idx"), rs.getString("predecessor"), JsonColumns.readMap(rs.getString("inputs")),
                JsonColumns.readMap(rs.getString("process_data")), JsonColumns.readMap(rs.getString("outputs")),
                NodeStatus.fromWireName(rs.getString("status")), rs.getString("error"), rs.getDouble("elapsed_time"),
                metadata(metadata), rs.getLong("created_at"), rs.getObject("finished_at", Long.class));
    }

    /** Whether the column holds JSON text. */
    static boolean isJson(String column) {
        return switch (column) {
            case "inputs", "process_data", "outputs", "metadata" -> true;
            default -> false;
        };
    }

    /**
     * An execution from its columns as a run's record keeps them, the JSON ones read as values: what a column left
     * out (null) reads as it does from a row.
     */
    static NodeExecution execution(Map<String, Object> columns) {
        Number finishedAt = (Number) columns.get("finished_at");
        return new NodeExecution((String) columns.get("id"), (String) columns.get("node_id"),
                NodeType.fromWireName((String) columns.get("node_type")).orElse(NodeType.END),
                (String) columns.get("title"), number(columns.get("idx")).intValue(),
                (String) columns.get("predecessor"), map(columns.get("inputs")), map(columns.get("process_data")),
                map(columns.get("outputs")), NodeStatus.fromWireName((String) columns.get("status")),
                (String) columns.get("error"), number(columns.get("elapsed_time")).doubleValue(),
                metadata(map(columns.get("metadata"))), number(columns.get("created_at")).longValue(),
                finishedAt == null ? null : finishedAt.longValue());
    }

    private static Number number(Object value) {
        return value == null ? 0 : (Number) value;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return value instanceof Map<?, ?> map ? (Map<String, Object>) map : null;
    }

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
