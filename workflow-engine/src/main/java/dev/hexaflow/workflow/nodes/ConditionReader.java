package dev.hexaflow.workflow.nodes;

import dev.hexaflow.domain.workflow.ComparisonOperator;
import dev.hexaflow.domain.workflow.Condition;
import dev.hexaflow.domain.workflow.DataTree;
import dev.hexaflow.domain.workflow.InvalidNodeDataException;
import java.util.ArrayList;
import java.util.List;

/** Reads Dify's condition objects (if-else cases, loop breaks), file sub-conditions included. */
final class ConditionReader {

    private ConditionReader() {
    }

    static List<Condition> conditions(DataTree data, String key) {
        List<Condition> conditions = new ArrayList<>();
        for (DataTree condition : data.trees(key)) {
            DataTree sub = condition.tree("sub_variable_condition");
            List<Condition.SubCondition> subConditions = new ArrayList<>();
            for (DataTree item : sub.trees("conditions")) {
                subConditions.add(new Condition.SubCondition(item.string("key", ""),
                        operator(item.string("comparison_operator", "")), item.get("value")));
            }
            conditions.add(new Condition(condition.selector("variable_selector"),
                    operator(condition.string("comparison_operator", "")), condition.get("value"),
                    Condition.LogicalOperator.fromWireName(sub.string("logical_operator", "and")), subConditions));
        }
        return conditions;
    }

    static ComparisonOperator operator(String name) {
        return ComparisonOperator.fromWireName(name).orElseThrow(() -> new InvalidNodeDataException(
                "comparison_operator", "'" + name + "' is not one of Dify's operators"));
    }
}
