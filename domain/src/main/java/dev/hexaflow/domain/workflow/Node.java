package dev.hexaflow.domain.workflow;

import java.util.Map;
import java.util.Optional;

/**
 * A node of the graph: its id, type, the container it sits in (for iteration and loop children), its DSL data
 * kept whole, and its place in the editor (position, size), so that a workflow written back to DSL loses nothing.
 */
public record Node(String id, NodeType type, Optional<String> parentId, DataTree data, DataTree view) {

    public Node {
        if (id == null || id.isEmpty()) {
            throw new IllegalArgumentException("a node needs an id");
        }
        if (type == null) {
            throw new IllegalArgumentException("node " + id + " needs a type");
        }
        parentId = parentId == null ? Optional.empty() : parentId;
        data = data == null ? DataTree.of(Map.of()) : data;
        view = view == null ? DataTree.of(Map.of()) : view;
    }

    /** A node with no container and no editor layout, for workflows built in code. */
    public static Node of(String id, NodeType type, Map<String, ?> data) {
        return new Node(id, type, Optional.empty(), DataTree.of(data), null);
    }

    public String title() {
        return data.string("title", "");
    }

    /** How the node is named in messages: its title and id, or its id where it has no title. */
    public String label() {
        return title().isEmpty() ? id : title() + " (" + id + ")";
    }
}
