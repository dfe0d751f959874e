package dev.hexaflow.application.app.port.in;

/** Stops an app's running task; answers quietly for a task that is unknown or over, as Dify does. */
public interface StopTaskUseCase {

    /** @throws ApiException INVALID_PARAM when no user is given */
    void stop(String appId, String taskId, String user);
}
