package dev.hexaflow.application.app.service;

import dev.hexaflow.application.app.port.in.StopTaskUseCase;

/**
 * Stops a task of the app that the same user started, as Dify's {@code set_stop_flag} checked the task's user
 * before 1.12; another user's task, another app's and an unknown one are left alone, answered the same way, so a
 * stop neither ends nor reveals a task of someone else.
 */
public final class StopTaskService implements StopTaskUseCase {

    private final TaskRegistry tasks;

    public StopTaskService(TaskRegistry tasks) {
        this.tasks = tasks;
    }

    @Override
    public void stop(String appId, String taskId, String user) {
        String caller = RunWorkflowService.requireUser(user);
        tasks.find(appId, taskId, caller).ifPresent(handle -> handle.stop());
    }
}
