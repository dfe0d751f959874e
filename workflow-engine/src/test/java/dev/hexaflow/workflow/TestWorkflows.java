package dev.hexaflow.workflow;

import dev.hexaflow.domain.workflow.AppInfo;
import dev.hexaflow.domain.workflow.DataTree;
import dev.hexaflow.domain.workflow.Edge;
import dev.hexaflow.domain.workflow.Graph;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.Workflow;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Builds small workflows in code for engine tests, with safe defaults. */
final class TestWorkflows {

    private final List<Node> nodes = new ArrayList<>();
    private final List<Edge> edges = new ArrayList<>();

    static TestWorkflows workflow() {
        return new TestWorkflows();
    }

    /** A start node {@code start} with text inputs of the given names (none required). */
    TestWorkflows start(String... inputs) {
        List<Object> variables = new ArrayList<>();
        for (String input : inputs) {
            variables.add(Map.of("variable", input, "label", input, "type", "text-input", "required", false));
        }
        return node("start", NodeType.START, Map.of("title", "Start", "variables", variables));
    }

    TestWorkflows startWith(List<Map<String, Object>> variables) {
        return node("start", NodeType.START, Map.of("title", "Start", "variables", variables));
    }

    TestWorkflows node(String id, NodeType type, Map<String, Object> data) {
        Map<String, Object> full = new LinkedHashMap<>(data);
        full.putIfAbsent("title", id);
        full.put("type", type.wireName());
        nodes.add(Node.of(id, type, full));
        return this;
    }

    TestWorkflows child(String parent, String id, NodeType type, Map<String, Object> data) {
        Map<String, Object> full = new LinkedHashMap<>(data);
        full.putIfAbsent("title", id);
        full.put("type", type.wireName());
        nodes.add(new Node(id, type, Optional.of(parent), DataTree.of(full), null));
        return this;
    }

    /** An end node {@code id} whose outputs are name → selector path. */
    TestWorkflows end(String id, Map<String, List<String>> outputs) {
        List<Object> list = new ArrayList<>();
        outputs.forEach((name, path) -> list.add(Map.of("variable", name, "value_selector", path)));
        return node(id, NodeType.END, Map.of("outputs", list));
    }

    TestWorkflows edge(String source, String target) {
        return edge(source, target, "source");
    }

    TestWorkflows edge(String source, String target, String handle) {
        edges.add(new Edge(null, source, target, handle));
        return this;
    }

    /** The graph as a chatflow ({@code advanced-chat}). */
    Workflow buildChat() {
        return new Workflow(new AppInfo("test", "advanced-chat", null, null, null, "", false), "0.5.0",
                new Graph(nodes, edges), null, List.of());
    }

    Workflow build() {
        return new Workflow(new AppInfo("test", "workflow", null, null, null, "", false), "0.5.0",
                new Graph(nodes, edges), null, List.of());
    }

    static Map<String, Object> condition(List<String> selector, String operator, Object value) {
        Map<String, Object> condition = new LinkedHashMap<>();
        condition.put("variable_selector", selector);
        condition.put("comparison_operator", operator);
        condition.put("value", value);
        return condition;
    }

    static Map<String, Object> ifElse(String caseId, Map<String, Object> condition) {
        return Map.of("cases", List.of(Map.of("case_id", caseId, "logical_operator", "and",
                "conditions", List.of(condition))));
    }
}
