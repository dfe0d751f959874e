package dev.hexaflow.domain.webhook;

import java.util.Locale;

/**
 * Where a delivery of a run's end stands: kept with its run's start and waiting for the run to end, due (sent
 * when its next attempt's time comes), or over, delivered or given up.
 */
public enum DeliveryState {
    AWAITING_RUN, PENDING, DELIVERED, FAILED;

    /** The name on the wire and in the database: {@code awaiting_run}, {@code pending}, ... */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static DeliveryState ofWireName(String name) {
        return valueOf(name.toUpperCase(Locale.ROOT));
    }

    /** Whether a delivery in this state may move to {@code next}: an ended delivery never moves again. */
    public boolean canBecome(DeliveryState next) {
        return switch (this) {
            case AWAITING_RUN -> next == PENDING || next == FAILED;
            case PENDING -> next == PENDING || next == DELIVERED || next == FAILED;
            case DELIVERED, FAILED -> false;
        };
    }

    public boolean ended() {
        return this == DELIVERED || this == FAILED;
    }
}
