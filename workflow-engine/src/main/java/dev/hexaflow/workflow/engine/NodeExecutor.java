package dev.hexaflow.workflow.engine;

import dev.hexaflow.domain.workflow.InvalidNodeDataException;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeType;
import java.util.List;

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

    /**
     * What an operator should know of a node that reads well but may not run as it stands, one sentence each,
     * such as a tool nothing runs yet; the import answers them and the app is kept.
     */
    default List<String> warnings(Node node) {
        return List.of();
    }
}
