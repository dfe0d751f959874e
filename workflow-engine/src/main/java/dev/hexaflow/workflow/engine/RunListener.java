package dev.hexaflow.workflow.engine;

import dev.hexaflow.domain.workflow.RunEvent;

/** Receives a run's events one at a time, in order; it must return quickly, for the run waits on it. */
@FunctionalInterface
public interface RunListener {

    RunListener NONE = event -> { };

    void on(RunEvent event);
}
