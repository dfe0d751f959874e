package dev.hexaflow.workflow.nodes;

import dev.hexaflow.workflow.engine.NodeExecutor;
import dev.hexaflow.workflow.engine.NodeResult;
import dev.hexaflow.workflow.engine.PreparedNode;
import dev.hexaflow.domain.workflow.DataTree;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.VariableSelector;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** end: names the run's outputs; the engine's response coordinator streams them as they become ready. */
public final class EndNode implements NodeExecutor {

    @Override
    public NodeType type() {
        return NodeType.END;
    }

    @Override
    public PreparedNode prepare(Node node) {
        List<String> names = new ArrayList<>();
        List<VariableSelector> selectors = new ArrayList<>();
        for (DataTree output : node.data().trees("outputs")) {
            names.add(output.string("variable"));
            selectors.add(output.selector("value_selector"));
        }
        return PreparedNode.of(selectors, Optional.of(new LinkedHashSet<>(names)), context -> {
            Map<String, Object> outputs = new LinkedHashMap<>();
            for (int i = 0; i < names.size(); i++) {
                outputs.put(names.get(i), context.pool().get(selectors.get(i)).orElse(null));
            }
            return NodeResult.of(outputs, outputs);
        });
    }
}
