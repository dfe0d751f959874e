package dev.hexaflow.application.app.service;

import dev.hexaflow.application.app.port.in.StopTaskUseCase;

/** Stops the app's own task; another app's task or an unknown one is left alone, answered the same way. */
public final class StopTaskService implements StopTaskUseCase {

    private final TaskRegistry tasks;

    StopTaskService(TaskRegistry tasks) {
        this.tasks = tasks;
    }

    @Override
    public void stop(String appId, String taskId, String user) {
        RunWorkflowService.requireUser(user);
        tasks.find(appId, taskId).ifPresent(handle -> handle.stop());
    }
}
