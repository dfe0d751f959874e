package dev.hexaflow.adapters.persistence;

import java.util.Locale;

/**
 * What a kept run survives, as the operator chooses it (HEXAFLOW_DURABILITY). {@link #WRITTEN}: each commit is
 * written to the operating system before its answer, so a run answered survives a crash of the process (kill -9)
 * but not a power loss. {@link #SYNCED}: each group commit is also forced to the disk (one fsync), so it survives a
 * power loss, at the cost of the disk's flush in every commit.
 */
public enum Durability {
    WRITTEN,
    SYNCED;

    /** Reads {@code written} or {@code synced}, in any case. */
    public static Durability parse(String text) {
        String value = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
        return switch (value) {
            case "", "written" -> WRITTEN;
            case "synced" -> SYNCED;
            default -> throw new IllegalArgumentException(
                    "HEXAFLOW_DURABILITY must be written or synced, was '" + text.strip() + "'");
        };
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
