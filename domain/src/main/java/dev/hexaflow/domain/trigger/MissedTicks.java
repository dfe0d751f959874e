package dev.hexaflow.domain.trigger;

/**
 * What a schedule does with the ticks that passed while no instance was up to fire them: skip them (the default: a
 * run hours late is rarely what a schedule is for), or run once, on the first poll after the start, for all of them
 * (what Dify's poller does: it dispatches an overdue plan once, then plans the next run from now).
 */
public enum MissedTicks {
    SKIP("skip"),
    RUN_ONCE("run_once");

    private final String wireName;

    MissedTicks(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static MissedTicks fromWireName(String name) {
        for (MissedTicks policy : values()) {
            if (policy.wireName.equals(name)) {
                return policy;
            }
        }
        throw new IllegalArgumentException("missed ticks is 'skip' or 'run_once', not '" + name + "'");
    }
}
