package dev.hexaflow.domain.workflow;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The nodes and edges of a workflow, with the lookups a run needs. */
public final class Graph {

    private final List<Node> nodes;
    private final List<Edge> edges;
    private final Map<String, Node> byId = new LinkedHashMap<>();
    private final Map<String, List<Edge>> outgoing = new LinkedHashMap<>();
    private final Map<String, List<Edge>> incoming = new LinkedHashMap<>();

    public Graph(List<Node> nodes, List<Edge> edges) {
        this.nodes = List.copyOf(nodes);
        this.edges = List.copyOf(edges);
        for (Node node : this.nodes) {
            byId.putIfAbsent(node.id(), node);
        }
        for (Edge edge : this.edges) {
            outgoing.computeIfAbsent(edge.source(), id -> new ArrayList<>()).add(edge);
            incoming.computeIfAbsent(edge.target(), id -> new ArrayList<>()).add(edge);
        }
    }

    public List<Node> nodes() {
        return nodes;
    }

    public List<Edge> edges() {
        return edges;
    }

    public Optional<Node> node(String id) {
        return Optional.ofNullable(byId.get(id));
    }

    public List<Edge> outgoing(String nodeId) {
        return Collections.unmodifiableList(outgoing.getOrDefault(nodeId, List.of()));
    }

    public List<Edge> incoming(String nodeId) {
        return Collections.unmodifiableList(incoming.getOrDefault(nodeId, List.of()));
    }

    /** The nodes directly inside a container (or, with an empty id, at the top level). */
    public List<Node> children(Optional<String> containerId) {
        return nodes.stream().filter(node -> node.parentId().equals(containerId)).toList();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Graph graph && graph.nodes.equals(nodes) && graph.edges.equals(edges);
    }

    @Override
    public int hashCode() {
        return nodes.hashCode() * 31 + edges.hashCode();
    }

    /** The top level's roots: its start node, or its triggers (a run starts from one of them). */
    public List<Node> starts() {
        return nodes.stream().filter(n -> n.type().isRoot() && n.parentId().isEmpty()).toList();
    }

    /** The top level's start node (the form a caller's request fills), if the workflow has one. */
    public Optional<Node> start() {
        return nodes.stream().filter(n -> n.type() == NodeType.START && n.parentId().isEmpty()).findFirst();
    }

    /** The top level's triggers, in the file's order. */
    public List<Node> triggers() {
        return nodes.stream().filter(n -> n.type().isTrigger() && n.parentId().isEmpty()).toList();
    }
}
