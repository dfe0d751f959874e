package dev.hexaflow.domain.workflow;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The rules every graph must keep, whatever its nodes do: at most {@link #MAX_NODES} nodes and {@link #MAX_EDGES}
 * edges, one start at the top level, edges between nodes that exist and sit in the same container, each container
 * with its start node, and no cycle (a loop is a container, never a cycle of edges). Its walks keep their path in a
 * list of their own, not on the thread's stack, so that a long chain is checked like a short one.
 */
public final class GraphRules {

    /**
     * The most nodes a workflow may have, its containers' children included: a hundred times the 50 nodes Dify's
     * editor lets one branch hold, and ten times the 500 steps a run takes by default. Each node is read, checked
     * and prepared at every import and start, and kept in the file of every published version.
     */
    public static final int MAX_NODES = 5_000;

    /** The most webhook triggers (and, apart, plugin triggers) a workflow may have, as in Dify. */
    public static final int MAX_WEBHOOK_TRIGGERS = 5;

    /** The most edges a workflow may have: four per node at the node limit, more than any branching needs. */
    public static final int MAX_EDGES = 4 * MAX_NODES;

    private GraphRules() {
    }

    public static List<WorkflowProblem> check(Graph graph) {
        Optional<WorkflowProblem> tooLarge = tooLarge(graph);
        if (tooLarge.isPresent()) {
            // The other rules would be read over a graph no run may take; the limit is the one thing to fix first.
            return List.of(tooLarge.get());
        }
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
        problems.addAll(roots(graph));
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

    /**
     * A run starts from one root: the start node (exactly one), or one of the triggers (Dify's rules: never beside a
     * start node, at most one schedule, at most {@link #MAX_WEBHOOK_TRIGGERS} webhooks and plugin triggers each).
     * A trigger has no incoming edge.
     */
    private static List<WorkflowProblem> roots(Graph graph) {
        List<WorkflowProblem> problems = new ArrayList<>();
        List<Node> starts = graph.starts().stream().filter(n -> n.type() == NodeType.START).toList();
        List<Node> triggers = graph.triggers();
        if (starts.isEmpty() && triggers.isEmpty()) {
            problems.add(WorkflowProblem.ofFile("the workflow has no start node"));
        } else if (starts.size() > 1) {
            for (Node extra : starts.subList(1, starts.size())) {
                problems.add(WorkflowProblem.of(extra, "a workflow has exactly one start node; "
                        + starts.get(0).id() + " is one already"));
            }
        }
        if (!starts.isEmpty() && !triggers.isEmpty()) {
            problems.add(WorkflowProblem.of(triggers.get(0),
                    "Start node and trigger nodes cannot coexist in the same workflow"));
        }
        countAtMost(problems, graph, NodeType.TRIGGER_SCHEDULE, 1, "a workflow has at most one schedule trigger");
        countAtMost(problems, graph, NodeType.TRIGGER_WEBHOOK, MAX_WEBHOOK_TRIGGERS,
                "Workflow exceeds maximum webhook node limit");
        countAtMost(problems, graph, NodeType.TRIGGER_PLUGIN, MAX_WEBHOOK_TRIGGERS,
                "Workflow exceeds maximum plugin trigger node limit");
        for (Node node : graph.nodes()) {
            if (node.type().isTrigger() && node.parentId().isPresent()) {
                problems.add(WorkflowProblem.of(node, "a trigger starts the workflow; it cannot sit inside an "
                        + "iteration or loop"));
            } else if (node.type().isTrigger() && !graph.incoming(node.id()).isEmpty()) {
                problems.add(WorkflowProblem.of(node, "a trigger starts the workflow, so no edge may lead to it"));
            }
        }
        return problems;
    }

    private static void countAtMost(List<WorkflowProblem> problems, Graph graph, NodeType type, int most,
            String message) {
        List<Node> found = graph.triggers().stream().filter(n -> n.type() == type).toList();
        if (found.size() > most) {
            problems.add(WorkflowProblem.of(found.get(most), message + ". Found " + found.size() + " "
                    + type.wireName() + " nodes, maximum allowed is " + most));
        }
    }

    /** Whether the graph has more nodes or edges than a workflow may have. */
    public static Optional<WorkflowProblem> tooLarge(Graph graph) {
        if (graph.nodes().size() > MAX_NODES) {
            return Optional.of(WorkflowProblem.ofFile("the workflow has " + graph.nodes().size() + " nodes; a "
                    + "workflow may have at most " + MAX_NODES + " (iteration and loop children included)"));
        }
        if (graph.edges().size() > MAX_EDGES) {
            return Optional.of(WorkflowProblem.ofFile("the workflow has " + graph.edges().size() + " edges; a "
                    + "workflow may have at most " + MAX_EDGES));
        }
        return Optional.empty();
    }

    /**
     * Depth-first search from every node not yet reached: a node is on the current path until its last edge is
     * followed, then done; an edge to a node on the path closes a cycle. The path is a list of frames (a node and
     * the index of its next edge), so its length is not the thread's stack depth.
     */
    private static List<WorkflowProblem> cycles(Graph graph) {
        Set<String> onPath = new HashSet<>();
        Set<String> done = new HashSet<>();
        List<WorkflowProblem> problems = new ArrayList<>();
        ArrayDeque<Frame> path = new ArrayDeque<>();
        for (Node node : graph.nodes()) {
            if (done.contains(node.id()) || onPath.contains(node.id())) {
                continue;
            }
            path.push(new Frame(node.id(), graph.outgoing(node.id())));
            onPath.add(node.id());
            while (!path.isEmpty()) {
                Frame frame = path.peek();
                if (frame.next == frame.edges.size()) {
                    path.pop();
                    onPath.remove(frame.id);
                    done.add(frame.id);
                    continue;
                }
                Edge edge = frame.edges.get(frame.next++);
                String target = edge.target();
                if (onPath.contains(target)) {
                    Node closed = graph.node(target).orElseThrow();
                    problems.add(WorkflowProblem.of(closed, "edge " + edge.id()
                            + " closes a cycle; repeat work with a loop or iteration node instead"));
                } else if (!done.contains(target) && graph.node(target).isPresent()) {
                    path.push(new Frame(target, graph.outgoing(target)));
                    onPath.add(target);
                }
            }
        }
        return problems;
    }

    /** A node on the search's path and the index of the next of its outgoing edges to follow. */
    private static final class Frame {
        final String id;
        final List<Edge> edges;
        int next;

        Frame(String id, List<Edge> edges) {
            this.id = id;
            this.edges = edges;
        }
    }
}
