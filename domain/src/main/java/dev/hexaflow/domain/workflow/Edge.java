package dev.hexaflow.domain.workflow;

/** A directed edge of the graph; {@code sourceHandle} says which outcome of the source takes it. */
public record Edge(String id, String source, String target, String sourceHandle) {

    public static final String DEFAULT_HANDLE = "source";

    public Edge {
        if (source == null || source.isEmpty() || target == null || target.isEmpty()) {
            throw new IllegalArgumentException("an edge needs a source and a target");
        }
        sourceHandle = sourceHandle == null || sourceHandle.isEmpty() ? DEFAULT_HANDLE : sourceHandle;
        id = id == null || id.isEmpty() ? source + "-" + sourceHandle + "-" + target : id;
    }
}
