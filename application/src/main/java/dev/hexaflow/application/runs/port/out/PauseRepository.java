package dev.hexaflow.application.runs.port.out;

import dev.hexaflow.domain.workflow.FormStatus;
import dev.hexaflow.domain.workflow.KeptForm;
import dev.hexaflow.domain.workflow.PausedRun;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Paused runs and their forms, as the store keeps them for every instance on it: each claim here is one atomic
 * change, so that of two answers at once, or two instances, exactly one wins. Writes of a pause itself go through
 * {@link RunRepository#paused}, in the order of the run's other writes.
 */
public interface PauseRepository {

    /** The form this token opens, in any state; empty for a token never given. */
    Optional<KeptForm> formByToken(String token);

    /** Every form of the run, oldest first. */
    List<KeptForm> forms(String runId);

    /**
     * Records the form's answer (status {@code submitted} with the action and inputs, or {@code timeout}) if the
     * form is still waiting: true for the one caller that changed it, false when it was no longer waiting.
     */
    boolean answer(String formId, FormStatus status, String actionId, Map<String, Object> inputs, long answeredAt);

    /**
     * Takes a paused run to go on with it: its row goes from {@code paused} to {@code running} for exactly one
     * caller, who gets the paused run kept; empty for everyone else and for a run not paused.
     */
    Optional<PausedRun> takeForResume(String runId);

    /**
     * Gives back a run taken by {@link #takeForResume} with nothing to go on with (its answers were applied by a
     * resumption before): {@code running} to {@code paused} again.
     */
    void putBack(String runId);

    /** Marks these forms' answers as taken by a resumption of their run (they are not applied a second time). */
    void applied(List<String> formIds);

    /**
     * Ends a paused run without going on (stopped by someone): its row from {@code paused} to {@code stopped} with
     * the error and end time, its waiting forms {@code expired}, its paused run dropped; false when it was not
     * paused.
     */
    boolean stop(String runId, String error, long finishedAt);

    /**
     * Waiting forms of paused runs whose time ran out at {@code now} (expiration at or before it), oldest first. A
     * form that forwards to a called run's form is never among them: it ends when that form does.
     */
    List<KeptForm> expired(long now, int limit);

    /**
     * Waiting forms of paused runs that forward to a form of a called run which has moved on from it: the called run
     * ended, or it is paused again and a resumption took that form's answer (so it waits on another form now). Of
     * the called run {@code calledRunId}, or of any where it is null; oldest first.
     */
    List<KeptForm> waitingOnMovedRuns(String calledRunId, int limit);

    /** An app's waiting forms of paused runs, newest first; of every app where {@code appId} is null. */
    List<KeptForm> waiting(String appId, int limit);
}
