package dev.hexaflow.workflow.nodes;

import dev.hexaflow.workflow.engine.NodeExecutor;
import dev.hexaflow.workflow.engine.NodeFailure;
import dev.hexaflow.workflow.engine.NodeResult;
import dev.hexaflow.workflow.engine.PreparedNode;
import dev.hexaflow.domain.workflow.Condition;
import dev.hexaflow.domain.workflow.ConditionException;
import dev.hexaflow.domain.workflow.Conditions;
import dev.hexaflow.domain.workflow.DataTree;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.VariablePool;
import dev.hexaflow.domain.workflow.VariableSelector;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * if-else: the first case whose conditions hold chooses the edges of its case_id; none chooses "false". The
 * legacy form (conditions and logical_operator on the node) is one case with the id "true".
 */
public final class IfElseNode implements NodeExecutor {

    private record Case(String id, Condition.LogicalOperator operator, List<Condition> conditions) {
    }

    @Override
    public NodeType type() {
        return NodeType.IF_ELSE;
    }

    @Override
    public PreparedNode prepare(Node node) {
        List<Case> cases = new ArrayList<>();
        if (node.data().has("cases")) {
            for (DataTree item : node.data().trees("cases")) {
                cases.add(new Case(item.string("case_id"),
                        Condition.LogicalOperator.fromWireName(item.string("logical_operator", "and")),
                        ConditionReader.conditions(item, "conditions")));
            }
        } else {
            cases.add(new Case("true", Condition.LogicalOperator.fromWireName(
                    node.data().string("logical_operator", "and")), ConditionReader.conditions(node.data(),
                    "conditions")));
        }
        List<VariableSelector> references = new ArrayList<>();
        for (Case c : cases) {
            for (Condition condition : c.conditions()) {
                references.add(condition.variable());
                if (condition.expected() instanceof String text) {
                    references.addAll(VariablePool.references(text));
                }
            }
        }
        return PreparedNode.of(references, Optional.of(Set.of("result", "selected_case_id")), context -> {
            List<Object> results = new ArrayList<>();
            String selected = null;
            try {
                for (Case c : cases) {
                    Conditions.Outcome outcome = Conditions.evaluate(c.conditions(), c.operator(),
                            context.pool());
                    Map<String, Object> group = new LinkedHashMap<>();
                    group.put("group", c.id());
                    group.put("results", outcome.results());
                    group.put("final_result", outcome.result());
                    results.add(group);
                    if (outcome.result()) {
                        selected = c.id();
                        break;
                    }
                }
            } catch (ConditionException e) {
                throw new NodeFailure("ConditionError", e.getMessage(), e);
            }
            Map<String, Object> outputs = new LinkedHashMap<>();
            outputs.put("result", selected != null);
            outputs.put("selected_case_id", selected == null ? "false" : selected);
            return new NodeResult(Map.of(), Map.of("condition_results", results), outputs,
                    selected == null ? "false" : selected, 0, null);
        });
    }
}
