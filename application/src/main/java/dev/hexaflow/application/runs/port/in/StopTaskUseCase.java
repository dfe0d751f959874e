package dev.hexaflow.application.runs.port.in;

import dev.hexaflow.application.common.ApiException;

/**
 * Stops a running task of an app that the same user started; answers quietly for a task that is unknown, over or
 * another user's, as Dify does.
 */
public interface StopTaskUseCase {

    /** @throws ApiException INVALID_PARAM when no user is given */
    void stop(String appId, String taskId, String user);
}
