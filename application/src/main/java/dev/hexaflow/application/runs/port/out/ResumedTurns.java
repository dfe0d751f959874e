package dev.hexaflow.application.runs.port.out;

import dev.hexaflow.domain.workflow.PausedRun;
import dev.hexaflow.workflow.engine.RunListener;

/**
 * A chat turn whose chatflow run paused, as the runs need it when the run goes on: the chat context keeps the
 * turn's message and conversation from the rest of the run, plugged in by the composition root so that runs and
 * chat do not import each other's services.
 */
public interface ResumedTurns {

    /** Keeps no turn: for a server without chat. */
    ResumedTurns NONE = (appId, paused) -> RunListener.NONE;

    /**
     * Hears the rest of the app's paused chatflow run, one event at a time, in order, each once it is kept; the run
     * ends for whoever waits only once its end is heard. {@link RunListener#NONE} for a run with no turn kept.
     */
    RunListener resuming(String appId, PausedRun paused);
}
