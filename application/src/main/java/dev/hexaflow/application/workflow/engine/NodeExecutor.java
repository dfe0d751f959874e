package dev.hexaflow.application.workflow.engine;

import dev.hexaflow.domain.workflow.InvalidNodeDataException;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeType;

/** Knows one node type: reads a node's data of that type into a {@link PreparedNode}. */
public interface NodeExecutor {

    NodeType type();

    /** @throws InvalidNodeDataException naming the field when the data does not fit the type */
    PreparedNode prepare(Node node);

    /**
     * Checked before every run: whether this server can run the node now.
     *
     * @throws NodeUnavailableException when it cannot, such as a model node with no model provider
     */
    default void checkReady(Node node) {
    }
}
