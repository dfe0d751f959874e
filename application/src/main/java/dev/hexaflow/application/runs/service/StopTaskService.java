package dev.hexaflow.application.runs.service;

import dev.hexaflow.application.common.EndUsers;
import dev.hexaflow.application.common.port.out.InstanceSignals;
import dev.hexaflow.application.runs.port.in.StopTaskUseCase;

/**
 * Stops a task of the app that the same user started, as Dify's {@code set_stop_flag} checked the task's user
 * before 1.12; another user's task, another app's and an unknown one are left alone, answered the same way, so a
 * stop neither ends nor reveals a task of someone else. A task that does not run here may run on another instance
 * of the same store: each is told, and the one that runs it stops it, by the same rule.
 */
public final class StopTaskService implements StopTaskUseCase {

    private static final String TOPIC = "stop";
    private static final int MAX_TASK_ID = 64;

    private final TaskRegistry tasks;
    private final InstanceSignals instances;

    public StopTaskService(TaskRegistry tasks, InstanceSignals instances) {
        this.tasks = tasks;
        this.instances = instances;
        instances.hear(TOPIC, this::stopTold);
    }

    @Override
    public void stop(String appId, String taskId, String user) {
        String caller = EndUsers.requireId(user);
        // A task id is a 36-character id: a longer one names no task anywhere, and is not told.
        if (!stopHere(appId, taskId, caller) && taskId.length() <= MAX_TASK_ID && appId.length() <= MAX_TASK_ID) {
            // The user goes last: ids hold no newline, a user may.
            instances.tell(TOPIC, appId + "\n" + taskId + "\n" + caller);
        }
    }

    private boolean stopHere(String appId, String taskId, String user) {
        return tasks.find(appId, taskId, user).map(handle -> {
            handle.stop();
            return true;
        }).orElse(false);
    }

    private void stopTold(String message) {
        String[] parts = message.split("\n", 3);
        if (parts.length == 3) {
            stopHere(parts[0], parts[1], parts[2]);
        }
    }
}
