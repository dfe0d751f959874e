package dev.hexaflow.domain.workflow;

/** A run's status: running, then one terminal status that never changes. */
public enum RunStatus {
    RUNNING("running"),
    SUCCEEDED("succeeded"),
    PARTIAL_SUCCEEDED("partial-succeeded"),
    FAILED("failed"),
    STOPPED("stopped");

    private final String wireName;

    RunStatus(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public boolean isTerminal() {
        return this != RUNNING;
    }

    public boolean canBecome(RunStatus next) {
        return this == RUNNING && next.isTerminal();
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
