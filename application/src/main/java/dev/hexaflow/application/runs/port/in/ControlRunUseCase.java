package dev.hexaflow.application.runs.port.in;

import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunUnderWay;

/** What an operator does to a run from its page: stop it, or run it again with the same inputs. */
public interface ControlRunUseCase {

    /**
     * Stops the run wherever it runs (here or on another instance of the store); a run that has ended is left
     * as it is.
     *
     * @return whether the run was still running when told
     * @throws dev.hexaflow.application.common.ApiException NOT_FOUND for an unknown run
     */
    boolean stop(String runId);

    /**
     * Starts a new run of the same app for the same end user with the same inputs, on the run's own workflow
     * version or on the app's newest; it goes on by itself, its end kept as any run's.
     *
     * @throws dev.hexaflow.application.common.ApiException NOT_FOUND for an unknown run or a version deleted
     *     since, INVALID_PARAM for a chat turn (it belongs to its conversation: send the message again there)
     */
    RunUnderWay rerun(String runId, boolean sameVersion);
}
