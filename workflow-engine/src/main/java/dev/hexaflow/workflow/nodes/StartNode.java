package dev.hexaflow.workflow.nodes;

import dev.hexaflow.workflow.engine.NodeExecutor;
import dev.hexaflow.workflow.engine.NodeResult;
import dev.hexaflow.workflow.engine.PreparedNode;
import dev.hexaflow.domain.workflow.DataTree;
import dev.hexaflow.domain.workflow.InputField;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.VariableSelector;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * start: its outputs are the checked inputs of its form, which the engine put in the pool before the run. Its
 * form is read here, so that a field of a kind Dify does not know is refused when the workflow is prepared.
 */
public final class StartNode implements NodeExecutor {

    @Override
    public NodeType type() {
        return NodeType.START;
    }

    @Override
    public PreparedNode prepare(Node node) {
        Set<String> names = new LinkedHashSet<>();
        for (DataTree field : node.data().trees("variables")) {
            names.add(InputField.of(field).variable());
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
