package dev.hexaflow.application.triggers.port.in;

/** Fires the schedules that are due, on whichever instance calls it first; every instance calls it often. */
public interface FireSchedulesUseCase {

    /** Answers how many ticks this call took (started a run, or skipped as missed). */
    int fireDue();
}
