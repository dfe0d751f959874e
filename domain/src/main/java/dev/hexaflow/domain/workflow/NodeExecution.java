package dev.hexaflow.domain.workflow;

import java.util.Map;

/**
 * One execution of one node in a run, as a value: each transition answers a new execution and refuses to
 * leave a terminal status.
 *
 * @param index       the 1-based order of the execution in its run
 * @param createdAt   Unix seconds
 * @param elapsedTime seconds, once finished
 */
public record NodeExecution(String id, String nodeId, NodeType nodeType, String title, int index,
        String predecessorNodeId, Map<String, Object> inputs, Map<String, Object> processData,
        Map<String, Object> outputs, NodeStatus status, String error, double elapsedTime,
        ExecutionMetadata metadata, long createdAt, Long finishedAt) {

    public NodeExecution {
        if (id == null || nodeId == null || nodeType == null || status == null) {
            throw new IllegalArgumentException("a node execution needs an id, a node, a type and a status");
        }
        metadata = metadata == null ? ExecutionMetadata.NONE : metadata;
    }

    public static NodeExecution started(String id, Node node, int index, String predecessorNodeId,
            ExecutionMetadata metadata, long createdAt) {
        return new NodeExecution(id, node.id(), node.type(), node.title(), index, predecessorNodeId, null, null,
                null, NodeStatus.RUNNING, null, 0, metadata, createdAt, null);
    }

    /** Ends the execution with a terminal status and what it produced. */
    public NodeExecution finish(NodeStatus next, Map<String, Object> inputs, Map<String, Object> processData,
            Map<String, Object> outputs, String error, double elapsedTime, ExecutionMetadata metadata,
            long finishedAt) {
        if (!status.canBecome(next)) {
            throw new IllegalTransitionException("node execution " + id, status, next);
        }
        return new NodeExecution(id, nodeId, nodeType, title, index, predecessorNodeId, inputs, processData,
                outputs, next, error, elapsedTime, metadata == null ? this.metadata : metadata, createdAt,
                finishedAt);
    }

    /** A human-input node waiting for its form: paused with the inputs it read, no end yet. */
    public NodeExecution pause(Map<String, Object> inputs, double elapsedTime) {
        if (!status.canBecome(NodeStatus.PAUSED)) {
            throw new IllegalTransitionException("node execution " + id, status, NodeStatus.PAUSED);
        }
        return new NodeExecution(id, nodeId, nodeType, title, index, predecessorNodeId, inputs, null, null,
                NodeStatus.PAUSED, null, elapsedTime, metadata, createdAt, null);
    }
}
