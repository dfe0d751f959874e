package dev.hexaflow.application.chat.service;

import dev.hexaflow.application.chat.port.in.SendChatMessageUseCase.ChatUnderWay;
import dev.hexaflow.application.chat.port.in.SendChatMessageUseCase.SendChatMessageCommand;
import dev.hexaflow.application.chat.port.in.SendCompletionMessageUseCase;
import dev.hexaflow.application.common.EndUsers;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunObserver;
import dev.hexaflow.application.runs.port.in.StopTaskUseCase;
import dev.hexaflow.domain.workflow.AppInfo;

/**
 * A text generator's message is a chat turn with no past: a new conversation each time, never renamed, run on
 * the graph its model_config implies (Dify's CompletionAppGenerator keeps one conversation per message too).
 */
public final class SendCompletionMessageService implements SendCompletionMessageUseCase {

    private final ChatAccess access;
    private final SendChatMessageService turns;
    private final StopTaskUseCase tasks;

    public SendCompletionMessageService(ChatAccess access, SendChatMessageService turns, StopTaskUseCase tasks) {
        this.access = access;
        this.turns = turns;
        this.tasks = tasks;
    }

    @Override
    public ChatUnderWay complete(CompletionCommand command, RunObserver observer) {
        EndUsers.requireId(command.user());
        access.completionApp(command.appId());
        return turns.turn(new SendChatMessageCommand(command.appId(), null, command.user(), command.query(),
                command.inputs(), command.files(), null, false).withKeyId(command.keyId()), observer,
                AppInfo.COMPLETION_MODE);
    }

    @Override
    public void stop(String appId, String taskId, String user) {
        EndUsers.requireId(user);
        access.completionApp(appId);
        tasks.stop(appId, taskId, user);
    }
}
