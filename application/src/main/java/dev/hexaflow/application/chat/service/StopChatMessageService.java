package dev.hexaflow.application.chat.service;

import dev.hexaflow.application.chat.port.in.StopChatMessageUseCase;
import dev.hexaflow.application.common.EndUsers;
import dev.hexaflow.application.runs.port.in.StopTaskUseCase;

/** Checks the app is a chatflow, then stops the task as a workflow's is stopped. */
public final class StopChatMessageService implements StopChatMessageUseCase {

    private final ChatAccess access;
    private final StopTaskUseCase tasks;

    public StopChatMessageService(ChatAccess access, StopTaskUseCase tasks) {
        this.access = access;
        this.tasks = tasks;
    }

    @Override
    public void stop(String appId, String taskId, String user) {
        EndUsers.requireId(user);
        access.chatApp(appId);
        tasks.stop(appId, taskId, user);
    }
}
