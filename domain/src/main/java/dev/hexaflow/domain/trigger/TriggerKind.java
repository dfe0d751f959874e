package dev.hexaflow.domain.trigger;

import dev.hexaflow.domain.workflow.NodeType;
import java.util.Optional;

/** What starts a run by itself, with the name Dify keeps in a run's {@code triggered_from}. */
public enum TriggerKind {
    SCHEDULE(NodeType.TRIGGER_SCHEDULE, "schedule"),
    WEBHOOK(NodeType.TRIGGER_WEBHOOK, "webhook"),
    PLUGIN(NodeType.TRIGGER_PLUGIN, "plugin");

    /** How a run a caller asked for started, in Dify's words. */
    public static final String APP_RUN = "app-run";

    private final NodeType nodeType;
    private final String triggeredFrom;

    TriggerKind(NodeType nodeType, String triggeredFrom) {
        this.nodeType = nodeType;
        this.triggeredFrom = triggeredFrom;
    }

    public NodeType nodeType() {
        return nodeType;
    }

    public String triggeredFrom() {
        return triggeredFrom;
    }

    /** A webhook and a bound plugin trigger are called at a URL of their own. */
    public boolean hasUrl() {
        return this != SCHEDULE;
    }

    public static Optional<TriggerKind> of(NodeType type) {
        for (TriggerKind kind : values()) {
            if (kind.nodeType == type) {
                return Optional.of(kind);
            }
        }
        return Optional.empty();
    }

    public static TriggerKind fromTriggeredFrom(String name) {
        for (TriggerKind kind : values()) {
            if (kind.triggeredFrom.equals(name)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("no trigger is called '" + name + "'");
    }
}
