package dev.hexaflow.application.runs;

import dev.hexaflow.domain.workflow.AppInfo;
import dev.hexaflow.domain.workflow.Edge;
import dev.hexaflow.domain.workflow.Graph;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.Workflow;
import java.util.List;
import java.util.Map;

/**
 * The bed's workflows besides echo and gated, built from domain types since application-tests has no DSL reader:
 * one whose start form has a field of each kind, and one whose code node reads the query and fails.
 */
final class RunForms {

    private RunForms() {
    }

    /**
     * A form of: {@code name} (text, required, at most 10 characters), {@code tone} (select of calm and loud,
     * calm by default), {@code count} (number), {@code bio} (paragraph), {@code agree} (checkbox) and {@code meta}
     * (JSON object); the end answers {@code name} as {@code greeting}.
     */
    static Workflow form() {
        Node start = Node.of("start", NodeType.START, Map.of("type", "start", "title", "Start", "variables",
                List.of(Map.of("variable", "name", "label", "Name", "type", "text-input", "required", true,
                                "max_length", 10),
                        Map.of("variable", "tone", "label", "Tone", "type", "select", "required", false,
                                "options", List.of("calm", "loud"), "default", "calm"),
                        Map.of("variable", "count", "label", "Count", "type", "number", "required", false),
                        Map.of("variable", "bio", "label", "Bio", "type", "paragraph", "required", false),
                        Map.of("variable", "agree", "label", "Agree", "type", "checkbox", "required", false),
                        Map.of("variable", "meta", "label", "Meta", "type", "json_object", "required", false))));
        Node end = Node.of("end", NodeType.END, Map.of("type", "end", "title", "End", "outputs",
                List.of(Map.of("variable", "greeting", "value_selector", List.of("start", "name")))));
        return workflow("Form", List.of(start, end), List.of(new Edge("e1", "start", "end", Edge.DEFAULT_HANDLE)));
    }

    /** Start asks for {@code query}; code node {@code burn} reads it (as {@code x}) and fails; end is never reached. */
    static Workflow failing() {
        Node start = Node.of("start", NodeType.START, Map.of("type", "start", "title", "Start", "variables",
                List.of(Map.of("variable", "query", "label", "query", "type", "text-input", "required", false))));
        Node burn = Node.of("burn", NodeType.CODE, Map.of("type", "code", "title", "Burn", "code_language",
                "python3", "code", "fail()", "variables", List.of(Map.of("variable", "x", "value_selector",
                        List.of("start", "query"))), "outputs", Map.of("result", Map.of("type", "string"))));
        Node end = Node.of("end", NodeType.END, Map.of("type", "end", "title", "End", "outputs",
                List.of(Map.of("variable", "answer", "value_selector", List.of("burn", "result")))));
        return workflow("Failing", List.of(start, burn, end), List.of(
                new Edge("e1", "start", "burn", Edge.DEFAULT_HANDLE), new Edge("e2", "burn", "end",
                        Edge.DEFAULT_HANDLE)));
    }

    /**
     * start → a human-input node (a paragraph {@code feedback} with a default, actions approve and reject, one
     * hour to answer) → an end per action, and one on its timeout branch.
     */
    static Workflow review() {
        Node start = Node.of("start", NodeType.START, Map.of("type", "start", "title", "Start", "variables",
                List.of(Map.of("variable", "draft", "label", "Draft", "type", "paragraph", "required", true))));
        Node review = Node.of("review", NodeType.HUMAN_INPUT, Map.of("type", "human-input", "title", "Review",
                "form_content", "Review {{#start.draft#}}: {{#$output.feedback#}}",
                "inputs", List.of(Map.of("type", "paragraph", "output_variable_name", "feedback",
                        "default", Map.of("type", "constant", "selector", List.of(), "value", "fine"))),
                "user_actions", List.of(Map.of("id", "approve", "title", "Approve"),
                        Map.of("id", "reject", "title", "Reject")),
                "delivery_methods", List.of(Map.of("type", "webapp", "enabled", true)),
                "timeout", 1, "timeout_unit", "hour"));
        return workflow("Review", List.of(start, review, end("ok", "feedback"), end("no", "__rendered_content"),
                end("late", "__action_id")), List.of(new Edge("e1", "start", "review", Edge.DEFAULT_HANDLE),
                new Edge("e2", "review", "ok", "approve"), new Edge("e3", "review", "no", "reject"),
                new Edge("e4", "review", "late", "__timeout")));
    }

    /**
     * start → the review node of {@link #review()} → on approve, a second human-input node {@code check} (one
     * action, done) → end {@code ok}: a run that pauses twice.
     */
    static Workflow twoReviews() {
        Workflow once = review();
        Node check = Node.of("check", NodeType.HUMAN_INPUT, Map.of("type", "human-input", "title", "Check",
                "form_content", "Check it", "inputs", List.of(), "user_actions",
                List.of(Map.of("id", "done", "title", "Done")),
                "delivery_methods", List.of(Map.of("type", "webapp", "enabled", true))));
        List<Node> nodes = new java.util.ArrayList<>(once.graph().nodes());
        nodes.add(check);
        return workflow("Two reviews", nodes, List.of(new Edge("e1", "start", "review", Edge.DEFAULT_HANDLE),
                new Edge("e2", "review", "check", "approve"), new Edge("e3", "review", "no", "reject"),
                new Edge("e4", "review", "late", "__timeout"), new Edge("e5", "check", "ok", "done")));
    }

    /** An end node naming its one output after the node it ends (ok, no, late), read from the review node. */
    private static Node end(String id, String variable) {
        return Node.of(id, NodeType.END, Map.of("type", "end", "title", id, "outputs", List.of(Map.of("variable",
                id, "value_selector", List.of("review", variable)))));
    }

    private static Workflow workflow(String name, List<Node> nodes, List<Edge> edges) {
        return new Workflow(new AppInfo(name, AppInfo.WORKFLOW_MODE, "🤖", "emoji", "#FFF", "", false), "0.3.0",
                new Graph(nodes, edges), null, List.of());
    }
}
