package dev.hexaflow.domain.webhook;

import java.util.Locale;

/**
 * What a delivery tells its receiver: a run's end (its final detail, rendered when it is sent), or one pause of
 * the run (its {@code workflow_paused} body, made when the run paused and kept with the delivery, since the pause
 * cannot be rendered again once the run has gone on).
 */
public enum DeliveryKind {
    COMPLETION, PAUSED;

    /** The name on the wire and in the database: {@code completion}, {@code paused}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static DeliveryKind ofWireName(String name) {
        return valueOf(name.toUpperCase(Locale.ROOT));
    }
}
