package dev.hexaflow.domain.workflow;

import java.util.ArrayList;
import java.util.List;

/**
 * Where a value lives in the variable pool: {@code [node_id, variable, ...path]}, where the path indexes into
 * objects and file attributes. The first element may also be {@code sys}, {@code env} or
 * {@code conversation}.
 */
public record VariableSelector(List<String> path) {

    public static final String SYSTEM = "sys";
    public static final String ENVIRONMENT = "env";
    /** A chatflow's conversation variables: {@code conversation.NAME}. */
    public static final String CONVERSATION = "conversation";

    public VariableSelector {
        if (path == null || path.size() < 2) {
            throw new IllegalArgumentException("a variable selector needs a node id and a variable name, was " + path);
        }
        for (String part : path) {
            if (part == null || part.isEmpty()) {
                throw new IllegalArgumentException("a variable selector has an empty part: " + path);
            }
        }
        path = List.copyOf(path);
    }

    public static VariableSelector of(String... path) {
        return new VariableSelector(List.of(path));
    }

    /**
     * The selector of a template's {@code node.var.path}. {@code node.sys.X} is the system variable {@code sys.X}
     * as its root node shows it (Dify's start node outputs each as {@code sys.X}), so it reads
     * {@code [node, "sys.X"]}, as the selector form does.
     */
    public static VariableSelector ofDotted(String dotted) {
        List<String> parts = List.of(dotted.split("\\."));
        if (parts.size() >= 3 && parts.get(1).equals(SYSTEM) && !parts.get(0).equals(SYSTEM)) {
            List<String> joined = new ArrayList<>(List.of(parts.get(0), SYSTEM + "." + parts.get(2)));
            joined.addAll(parts.subList(3, parts.size()));
            return new VariableSelector(joined);
        }
        return new VariableSelector(parts);
    }

    /** Whether this reads a system variable through a node's {@code sys.X} output: {@code [node, "sys.X"]}. */
    public boolean isSystemOfNode() {
        return !isSystem() && variable().startsWith(SYSTEM + ".");
    }

    public String nodeId() {
        return path.get(0);
    }

    public String variable() {
        return path.get(1);
    }

    /** The path below the variable: object keys or file attributes. */
    public List<String> rest() {
        return path.subList(2, path.size());
    }

    public boolean isSystem() {
        return nodeId().equals(SYSTEM);
    }

    public boolean isEnvironment() {
        return nodeId().equals(ENVIRONMENT);
    }

    public boolean isConversation() {
        return nodeId().equals(CONVERSATION);
    }

    /** The dotted form of a {@code {{#node.var#}}} reference. */
    public String dotted() {
        return String.join(".", path);
    }

    @Override
    public String toString() {
        return "[" + String.join(", ", path) + "]";
    }
}
