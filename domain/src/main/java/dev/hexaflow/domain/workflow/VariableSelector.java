package dev.hexaflow.domain.workflow;

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
