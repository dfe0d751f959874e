package dev.hexaflow.workflow.nodes;

import dev.hexaflow.workflow.engine.NodeContext;
import dev.hexaflow.workflow.engine.NodeExecutor;
import dev.hexaflow.workflow.engine.NodeFailure;
import dev.hexaflow.workflow.engine.NodeResult;
import dev.hexaflow.workflow.engine.PreparedNode;
import dev.hexaflow.domain.workflow.Condition;
import dev.hexaflow.domain.workflow.ConditionException;
import dev.hexaflow.domain.workflow.Conditions;
import dev.hexaflow.domain.workflow.DataTree;
import dev.hexaflow.domain.workflow.InvalidNodeDataException;
import dev.hexaflow.domain.workflow.JsonText;
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
 * loop: sets its loop variables (constants of their declared type, or copies of other variables), then runs its
 * children on the run's own variables round after round, at most loop_count times, until a loop-end node is
 * reached or the break conditions hold (checked before the first round and after each). Its outputs are the loop
 * variables as they end.
 */
public final class LoopNode implements NodeExecutor {

    private record LoopVariable(String label, String type, VariableSelector source, Object constant) {
    }

    @Override
    public NodeType type() {
        return NodeType.LOOP;
    }

    @Override
    public PreparedNode prepare(Node node) {
        DataTree data = node.data();
        long count = data.longValue("loop_count", 1);
        if (count < 0) {
            throw new InvalidNodeDataException("loop_count", "must not be negative");
        }
        List<Condition> breaks = ConditionReader.conditions(data, "break_conditions");
        Condition.LogicalOperator operator = Condition.LogicalOperator.fromWireName(
                data.string("logical_operator", "and"));
        String start = data.string("start_node_id");
        List<LoopVariable> variables = new ArrayList<>();
        for (DataTree variable : data.trees("loop_variables")) {
            boolean fromVariable = variable.string("value_type", "constant").equals("variable");
            Object value = variable.get("value");
            variables.add(new LoopVariable(variable.string("label"), variable.string("var_type", "string"),
                    fromVariable && value instanceof List<?> path ? DataTree.selector("loop_variables.value", path)
                            : null,
                    fromVariable ? null : value));
        }
        Set<String> outputs = new LinkedHashSet<>();
        variables.forEach(v -> outputs.add(v.label()));
        List<VariableSelector> references = new ArrayList<>();
        breaks.forEach(c -> references.add(c.variable()));
        variables.stream().filter(v -> v.source() != null).forEach(v -> references.add(v.source()));
        return PreparedNode.of(references, Optional.of(outputs), context -> {
            Map<String, Object> inputs = new LinkedHashMap<>();
            for (LoopVariable variable : variables) {
                Object value = variable.source() != null
                        ? context.pool().get(variable.source()).orElse(null)
                        : constant(variable);
                context.pool().set(node.id(), variable.label(), value);
                inputs.put(variable.label(), value);
            }
            int rounds = 0;
            if (breaks.isEmpty() || !holds(breaks, operator, context)) {
                for (int round = 0; round < count; round++) {
                    context.checkStopped();
                    context.emitRound(round);
                    rounds++;
                    boolean ended = context.runChildren(start, context.pool(),
                            context.metadata().inLoop(node.id(), round)).reachedLoopEnd();
                    if (ended || (!breaks.isEmpty() && holds(breaks, operator, context))) {
                        break;
                    }
                }
            }
            Map<String, Object> result = new LinkedHashMap<>();
            for (LoopVariable variable : variables) {
                result.put(variable.label(), context.pool().get(VariableSelector.of(node.id(), variable.label()))
                        .orElse(null));
            }
            return NodeResult.of(inputs, result).withProcessData(Map.of("loop_round", rounds));
        });
    }


    private static Object constant(LoopVariable variable) {
        Object value = variable.constant();
        String type = variable.type();
        if (value == null) {
            return null;
        }
        try {
            if (type.equals("number")) {
                if (value instanceof Number) {
                    return value;
                }
                String text = value.toString().trim();
                return text.contains(".") ? (Object) Double.parseDouble(text) : (Object) Long.parseLong(text);
            }
            if (type.equals("boolean")) {
                return value instanceof Boolean ? value : Boolean.parseBoolean(value.toString().trim());
            }
            if ((type.equals("object") || type.startsWith("array")) && value instanceof String text) {
                return text.isBlank() ? null : JsonText.parse(text);
            }
            if (type.equals("string")) {
                return value.toString();
            }
            return value;
        } catch (IllegalArgumentException e) {
            throw new NodeFailure("LoopNodeError", "loop variable " + variable.label() + " is not a valid " + type
                    + ": " + e.getMessage(), e);
        }
    }

    private static boolean holds(List<Condition> breaks, Condition.LogicalOperator operator,
            NodeContext context) {
        try {
            return Conditions.evaluate(breaks, operator, context.pool()).result();
        } catch (ConditionException e) {
            throw new NodeFailure("LoopNodeError", e.getMessage(), e);
        }
    }
}
