package dev.hexaflow.workflow.nodes;

import dev.hexaflow.workflow.engine.NodeExecutor;
import dev.hexaflow.workflow.engine.NodeFailure;
import dev.hexaflow.workflow.engine.NodeResult;
import dev.hexaflow.workflow.engine.PreparedNode;
import dev.hexaflow.domain.workflow.DataTree;
import dev.hexaflow.domain.workflow.InvalidNodeDataException;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.Values;
import dev.hexaflow.domain.workflow.VariableSelector;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * assigner: changes variables that already exist (loop variables, mostly). Version 2 takes a list of items, each
 * an operation on one variable with a constant or another variable; version 1 one over-write, append or clear.
 */
public final class AssignerNode implements NodeExecutor {

    static final Set<String> OPERATIONS = Set.of("over-write", "clear", "append", "extend", "set", "+=", "-=",
            "*=", "/=", "remove-first", "remove-last");

    private record Item(VariableSelector target, String operation, boolean fromVariable, Object value) {
    }

    @Override
    public NodeType type() {
        return NodeType.ASSIGNER;
    }

    @Override
    public PreparedNode prepare(Node node) {
        List<Item> items = new ArrayList<>();
        if (node.data().has("items")) {
            for (DataTree item : node.data().trees("items")) {
                String operation = item.string("operation");
                if (!OPERATIONS.contains(operation)) {
                    throw new InvalidNodeDataException("items.operation", "'" + operation + "' is not an operation");
                }
                boolean fromVariable = item.string("input_type", "constant").equals("variable");
                Object value = item.get("value");
                if (fromVariable && value instanceof List<?> path) {
                    value = DataTree.selector("items.value", path);
                }
                items.add(new Item(item.selector("variable_selector"), operation, fromVariable, value));
            }
        } else {
            String mode = node.data().string("write_mode", "over-write");
            items.add(new Item(node.data().selector("assigned_variable_selector"), mode, true,
                    mode.equals("clear") ? null : node.data().selector("input_variable_selector")));
        }
        List<VariableSelector> references = new ArrayList<>();
        for (Item item : items) {
            references.add(item.target());
            if (item.value() instanceof VariableSelector source) {
                references.add(source);
            }
        }
        return PreparedNode.of(references, Optional.of(Set.of()), context -> {
            Map<String, Object> updated = new LinkedHashMap<>();
            for (Item item : items) {
                VariableSelector target = item.target();
                if (!context.pool().has(target.nodeId(), target.variable())) {
                    throw new NodeFailure("VariableOperatorNodeError", "Variable " + target + " not found", null);
                }
                Object current = context.pool().get(target).orElse(null);
                Object operand = item.fromVariable() && item.value() instanceof VariableSelector source
                        ? context.pool().get(source).orElse(null)
                        : Values.normalize(item.value());
                Object next = apply(item.operation(), current, operand, target);
                context.pool().set(target.nodeId(), target.variable(), next);
                updated.put(target.dotted(), next);
            }
            return new NodeResult(Map.of(), Map.of("updated_variables", updated), Map.of(), null, 0, null);
        });
    }

    static Object apply(String operation, Object current, Object operand, VariableSelector target) {
        switch (operation) {
            case "over-write", "set":
                return operand;
            case "clear":
                return empty(current);
            case "append": {
                List<Object> list = list(current, target);
                list.add(operand);
                return list;
            }
            case "extend": {
                List<Object> list = list(current, target);
                if (!(operand instanceof List<?> more)) {
                    throw new NodeFailure("InvalidInputValue", "extend needs an array value for " + target, null);
                }
                list.addAll(more);
                return list;
            }
            case "remove-first", "remove-last": {
                List<Object> list = list(current, target);
                if (!list.isEmpty()) {
                    list.remove(operation.equals("remove-first") ? 0 : list.size() - 1);
                }
                return list;
            }
            default:
                return arithmetic(operation, current, operand, target);
        }
    }

    private static Object arithmetic(String operation, Object current, Object operand, VariableSelector target) {
        if (!Values.isNumber(current) || !Values.isNumber(operand)) {
            throw new NodeFailure("InvalidInputValue", "operation " + operation + " needs numbers, " + target
                    + " is " + Values.typeName(current) + " and the value is " + Values.typeName(operand), null);
        }
        if (current instanceof Long a && operand instanceof Long b && !operation.equals("/=")) {
            return switch (operation) {
                case "+=" -> a + b;
                case "-=" -> a - b;
                default -> a * b;
            };
        }
        double a = Values.toDouble(current);
        double b = Values.toDouble(operand);
        if (operation.equals("/=") && b == 0) {
            throw new NodeFailure("InvalidInputValue", "division by zero on " + target, null);
        }
        return switch (operation) {
            case "+=" -> a + b;
            case "-=" -> a - b;
            case "*=" -> a * b;
            default -> a / b;
        };
    }

    private static List<Object> list(Object current, VariableSelector target) {
        if (!(current instanceof List<?> list)) {
            throw new NodeFailure("InvalidInputValue", target + " is not an array", null);
        }
        return new ArrayList<>(list);
    }

    private static Object empty(Object current) {
        if (current instanceof String) {
            return "";
        }
        if (current instanceof Long) {
            return 0L;
        }
        if (current instanceof Double) {
            return 0.0;
        }
        if (current instanceof Boolean) {
            return false;
        }
        if (current instanceof Map<?, ?>) {
            return new LinkedHashMap<>();
        }
        if (current instanceof List<?>) {
            return new ArrayList<>();
        }
        return null;
    }
}
