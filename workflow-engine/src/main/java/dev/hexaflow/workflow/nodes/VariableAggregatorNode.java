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
import java.util.Set;

/**
 * variable-aggregator (and its legacy name variable-assigner): the first of its variables that holds a value is
 * its {@code output}; with groups, each group gives {@code <group_name>.output}.
 */
public final class VariableAggregatorNode implements NodeExecutor {

    private final NodeType type;

    public VariableAggregatorNode(NodeType type) {
        this.type = type;
    }

    @Override
    public NodeType type() {
        return type;
    }

    private record Group(String name, List<VariableSelector> variables) {
    }

    @Override
    public PreparedNode prepare(Node node) {
        DataTree advanced = node.data().tree("advanced_settings");
        boolean grouped = advanced.bool("group_enabled", false);
        List<Group> groups = new ArrayList<>();
        if (grouped) {
            for (DataTree group : advanced.trees("groups")) {
                groups.add(new Group(group.string("group_name"), selectors(group.list("variables"))));
            }
        } else {
            groups.add(new Group("output", selectors(node.data().list("variables"))));
        }
        List<VariableSelector> references = groups.stream().flatMap(g -> g.variables().stream()).toList();
        Set<String> outputs = new LinkedHashSet<>();
        groups.forEach(g -> outputs.add(g.name()));
        return PreparedNode.of(references, Optional.of(outputs), context -> {
            Map<String, Object> result = new LinkedHashMap<>();
            for (Group group : groups) {
                Object value = null;
                for (VariableSelector selector : group.variables()) {
                    Optional<Object> found = context.pool().get(selector);
                    if (found.isPresent()) {
                        value = found.get();
                        break;
                    }
                }
                if (grouped) {
                    Map<String, Object> output = new LinkedHashMap<>();
                    output.put("output", value);
                    result.put(group.name(), output);
                } else {
                    result.put("output", value);
                }
            }
            return NodeResult.of(Map.of(), result);
        });
    }

    private static List<VariableSelector> selectors(List<Object> lists) {
        List<VariableSelector> selectors = new ArrayList<>();
        for (Object path : lists) {
            if (path instanceof List<?> list) {
                selectors.add(DataTree.selector("variables", list));
            }
        }
        return selectors;
    }
}
