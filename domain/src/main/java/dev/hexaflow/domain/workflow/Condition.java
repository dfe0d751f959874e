package dev.hexaflow.domain.workflow;

import java.util.List;

/**
 * One condition of an if-else case, a loop's break or a list filter: the variable, the operator, the expected
 * value (text that may hold references, a list, a boolean, or null), and for arrays of files the conditions on
 * their attributes.
 */
public record Condition(VariableSelector variable, ComparisonOperator operator, Object expected,
        LogicalOperator subOperator, List<SubCondition> subConditions) {

    public Condition {
        if (variable == null || operator == null) {
            throw new IllegalArgumentException("a condition needs a variable and an operator");
        }
        subOperator = subOperator == null ? LogicalOperator.AND : subOperator;
        subConditions = subConditions == null ? List.of() : List.copyOf(subConditions);
    }

    public static Condition of(VariableSelector variable, ComparisonOperator operator, Object expected) {
        return new Condition(variable, operator, expected, LogicalOperator.AND, List.of());
    }

    /** A condition on one attribute of each file of an array (type, size, name, extension, ...). */
    public record SubCondition(String key, ComparisonOperator operator, Object expected) {
    }

    /** How conditions combine. */
    public enum LogicalOperator {
        AND, OR;

        public static LogicalOperator fromWireName(String name) {
            return "or".equalsIgnoreCase(name) ? OR : AND;
        }
    }
}
