package dev.hexaflow.workflow.engine;

import dev.hexaflow.domain.workflow.NodeType;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The node types an engine runs, each with its executor. */
public final class NodeCatalogue {

    private final Map<NodeType, NodeExecutor> executors = new EnumMap<>(NodeType.class);

    public NodeCatalogue(List<NodeExecutor> executors) {
        for (NodeExecutor executor : executors) {
            this.executors.put(executor.type(), executor);
        }
    }

    public Optional<NodeExecutor> executor(NodeType type) {
        return Optional.ofNullable(executors.get(type));
    }

    public Set<NodeType> types() {
        return executors.keySet();
    }
}
