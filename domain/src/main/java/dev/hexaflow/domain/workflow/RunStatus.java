package dev.hexaflow.domain.workflow;

/**
 * A run's status: running, perhaps paused (waiting for a person) and running again, then one terminal status that
 * never changes.
 */
public enum RunStatus {
    RUNNING("running"),
    SUCCEEDED("succeeded"),
    PARTIAL_SUCCEEDED("partial-succeeded"),
    FAILED("failed"),
    STOPPED("stopped"),
    /** Waiting at a human-input node for a person's answer; holds no thread. */
    PAUSED("paused");

    private final String wireName;

    RunStatus(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public boolean isTerminal() {
        return this != RUNNING && this != PAUSED;
    }

    /** Running may pause or end; a paused run may run again, or end without running (stopped, timed out). */
    public boolean canBecome(RunStatus next) {
        return switch (this) {
            case RUNNING -> next == PAUSED || next.isTerminal();
            case PAUSED -> next == RUNNING || next.isTerminal();
            default -> false;
        };
    }

    public static RunStatus fromWireName(String name) {
        for (RunStatus status : values()) {
            if (status.wireName.equals(name)) {
                return status;
            }
        }
        throw new IllegalArgumentException("no run status " + name);
    }
}
