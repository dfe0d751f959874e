package dev.hexaflow.domain.workflow;

/**
 * A node execution's status: running, then one terminal status. {@code exception} is a failure that the node's
 * error strategy handled, so the run went on.
 */
public enum NodeStatus {
    RUNNING("running"),
    SUCCEEDED("succeeded"),
    FAILED("failed"),
    EXCEPTION("exception"),
    STOPPED("stopped"),
    /** A human-input node waiting for its form's answer; it runs again, under the same id, when answered. */
    PAUSED("paused");

    private final String wireName;

    NodeStatus(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public boolean isTerminal() {
        return this != RUNNING && this != PAUSED;
    }

    public boolean canBecome(NodeStatus next) {
        return this == RUNNING && (next.isTerminal() || next == PAUSED);
    }

    public static NodeStatus fromWireName(String name) {
        for (NodeStatus status : values()) {
            if (status.wireName.equals(name)) {
                return status;
            }
        }
        throw new IllegalArgumentException("no node status " + name);
    }
}
