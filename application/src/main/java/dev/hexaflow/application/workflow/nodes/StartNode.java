package dev.hexaflow.application.workflow.nodes;

import dev.hexaflow.application.workflow.engine.NodeExecutor;
import dev.hexaflow.application.workflow.engine.NodeResult;
import dev.hexaflow.application.workflow.engine.PreparedNode;
import dev.hexaflow.domain.workflow.DataTree;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.VariableSelector;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** start: its outputs are the checked inputs of its form, which the engine put in the pool before the run. */
public final class StartNode implements NodeExecutor {

    private static final Set<String> TYPES = Set.of("text-input", "paragraph", "select", "number", "file",
            "file-list", "checkbox", "json_object", "external_data_tool");

    @Override
    public NodeType type() {
        return NodeType.START;
    }

    @Override
    public PreparedNode prepare(Node node) {
        Set<String> names = new LinkedHashSet<>();
        for (DataTree field : node.data().trees("variables")) {
            String name = field.string("variable");
            String type = field.string("type", "text-input");
            if (!TYPES.contains(type)) {
                throw new dev.hexaflow.domain.workflow.InvalidNodeDataException("variables." + name + ".type",
                        "'" + type + "' is not an input type");
            }
            names.add(name);
        }
        return PreparedNode.of(List.of(), Optional.of(names), context -> {
            Map<String, Object> values = new LinkedHashMap<>();
            for (String name : names) {
                values.put(name, context.pool().get(VariableSelector.of(node.id(), name)).orElse(null));
            }
            return NodeResult.of(values, values);
        });
    }
}
