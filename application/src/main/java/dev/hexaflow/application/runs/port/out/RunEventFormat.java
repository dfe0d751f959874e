package dev.hexaflow.application.runs.port.out;

import dev.hexaflow.domain.workflow.RunEvent;

/**
 * Writes a workflow run's event as the text of its stream frame's data, exactly as a streaming run answers it, so
 * that the event can be kept and replayed byte for byte.
 */
@FunctionalInterface
public interface RunEventFormat {

    /** Keeps no event: a run that nobody replays (a chat turn, whose stream has frames of its own). */
    RunEventFormat NONE = (event, runId, taskId) -> null;

    /** The frame's data text; null for an event the stream does not show. */
    String data(RunEvent event, String runId, String taskId);
}
