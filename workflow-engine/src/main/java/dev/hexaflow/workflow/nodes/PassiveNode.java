package dev.hexaflow.workflow.nodes;

import dev.hexaflow.workflow.engine.NodeExecutor;
import dev.hexaflow.workflow.engine.NodeResult;
import dev.hexaflow.workflow.engine.PreparedNode;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeType;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The nodes that only mark a place: iteration-start and loop-start (where a container's round begins) and
 * loop-end (reaching it ends the loop; the engine watches for it).
 */
public final class PassiveNode implements NodeExecutor {

    private final NodeType type;

    public PassiveNode(NodeType type) {
        this.type = type;
    }

    @Override
    public NodeType type() {
        return type;
    }

    @Override
    public PreparedNode prepare(Node node) {
        return PreparedNode.of(List.of(), Optional.of(Set.of()), context -> NodeResult.of(Map.of(), Map.of()));
    }
}
