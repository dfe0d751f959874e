package dev.hexaflow.domain.workflow;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The rules every graph must keep, whatever its nodes do: one start at the top level, edges between nodes that
 * exist and sit in the same container, each container with its start node, and no cycle (a loop is a container,
 * never a cycle of edges).
 */
public final class GraphRules {

    private GraphRules() {
    }

    public static List<WorkflowProblem> check(Graph graph) {
        List<WorkflowProblem> problems = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (Node node : graph.nodes()) {
            if (!seen.add(node.id())) {
                problems.add(WorkflowProblem.of(node, "another node has the same id"));
            }
            node.parentId().ifPresent(parent -> {
                Optional<Node> container = graph.node(parent);
                if (container.isEmpty() || !container.get().type().isContainer()) {
                    problems.add(WorkflowProblem.of(node, "its parent " + parent + " is not an iteration or loop"));
                }
            });
        }
        List<Node> starts = graph.starts();
        if (starts.isEmpty()) {
            problems.add(WorkflowProblem.ofFile("the workflow has no start node"));
        } else if (starts.size() > 1) {
            for (Node extra : starts.subList(1, starts.size())) {
                problems.add(WorkflowProblem.of(extra, "a workflow has exactly one start node; "
                        + starts.get(0).id() + " is one already"));
            }
        }
        for (Edge edge : graph.edges()) {
            Optional<Node> source = graph.node(edge.source());
            Optional<Node> target = graph.node(edge.target());
            if (source.isEmpty()) {
                problems.add(new WorkflowProblem(edge.target(), target.map(Node::title).orElse(null),
                        "edge " + edge.id() + " comes from node " + edge.source() + ", which does not exist"));
            }
            if (target.isEmpty()) {
                problems.add(new WorkflowProblem(edge.source(), source.map(Node::title).orElse(null),
                        "edge " + edge.id() + " goes to node " + edge.target() + ", which does not exist"));
            }
            if (source.isPresent() && target.isPresent()
                    && !source.get().parentId().equals(target.get().parentId())) {
                problems.add(WorkflowProblem.of(source.get(), "edge " + edge.id() + " crosses into or out of a "
                        + "container; connect the container itself"));
            }
        }
        for (Node node : graph.nodes()) {
            if (node.type().isContainer()) {
                String startId = node.data().string("start_node_id", "");
                Optional<Node> start = graph.node(startId);
                if (startId.isEmpty() || start.isEmpty() || !start.get().parentId().equals(Optional.of(node.id()))) {
                    problems.add(WorkflowProblem.of(node, "start_node_id '" + startId
                            + "' is not a node inside this " + node.type().wireName()));
                }
            }
        }
        problems.addAll(cycles(graph));
        return problems;
    }

    private static List<WorkflowProblem> cycles(Graph graph) {
        Map<String, Integer> state = new HashMap<>();
        List<WorkflowProblem> problems = new ArrayList<>();
        for (Node node : graph.nodes()) {
            if (!state.containsKey(node.id())) {
                visit(graph, node.id(), state, problems);
            }
        }
        return problems;
    }

    /** Depth-first search: 1 on the current path, 2 done; reaching a node on the path closes a cycle. */
    private static void visit(Graph graph, String id, Map<String, Integer> state, List<WorkflowProblem> problems) {
        state.put(id, 1);
        for (Edge edge : graph.outgoing(id)) {
            Integer next = state.get(edge.target());
            if (next == null) {
                if (graph.node(edge.target()).isPresent()) {
                    visit(graph, edge.target(), state, problems);
                }
            } else if (next == 1) {
                Node target = graph.node(edge.target()).orElseThrow();
                problems.add(WorkflowProblem.of(target, "edge " + edge.id()
                        + " closes a cycle; repeat work with a loop or iteration node instead"));
            }
        }
        state.put(id, 2);
    }
}
