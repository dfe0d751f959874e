package dev.hexaflow.application.runs.port.in;

import dev.hexaflow.application.common.ApiError;
import java.time.Duration;

/**
 * Ends the service's runs for a shutdown: no new run is taken, the runs in flight may finish within a grace
 * period, and what is left then is stopped as a stop does (status {@code stopped}, with the reason).
 */
public interface DrainRunsUseCase {

    /** From now on, a new run is refused with {@link ApiError#SERVICE_UNAVAILABLE}. */
    void refuseNewRuns();

    /**
     * Refuses new runs, waits until none is in flight or the grace period (or {@link #hurry()}) ends, then stops
     * those left and waits for them to end, a few seconds at most.
     */
    Drained drain(Duration grace);

    /** Ends the grace period of a drain now: what is in flight is stopped at once. */
    void hurry();

    /**
     * Stops the runs in flight now, with {@code reason}, and goes on taking new ones: for an instance whose runs
     * another instance has already failed. Answers how many it stopped.
     */
    int stopInFlight(String reason);

    /**
     * The ids of the runs going on here now: a store that recovers from failed writes fails the runs it was left
     * with, but not these, which keep their own end.
     */
    java.util.Set<String> inFlight();

    /** Runs that ended on their own during the drain, runs stopped, and runs that did not end even then. */
    record Drained(int finished, int stopped, int left) {
    }
}
