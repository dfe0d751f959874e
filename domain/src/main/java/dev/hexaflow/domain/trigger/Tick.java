package dev.hexaflow.domain.trigger;

/**
 * A tick a schedule fired, once across every instance: when it was due, when an instance took it (Unix seconds),
 * what became of it, and the run it started, if any.
 */
public record Tick(String triggerId, long dueAt, long firedAt, Outcome outcome, String runId) {

    /** A run started, missed ticks skipped by the schedule's policy, or the run refused (too many runs, ...). */
    public enum Outcome { FIRED, SKIPPED, REFUSED }
}
