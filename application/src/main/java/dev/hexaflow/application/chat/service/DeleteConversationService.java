package dev.hexaflow.application.chat.service;

import dev.hexaflow.application.chat.port.in.DeleteConversationUseCase;
import dev.hexaflow.application.chat.port.out.ConversationRepository;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;

/** Deletes the conversation for good, with what belongs to it (Dify deletes the row, then its data). */
public final class DeleteConversationService implements DeleteConversationUseCase {

    private final ChatAccess access;
    private final ConversationRepository conversations;

    public DeleteConversationService(ChatAccess access, ConversationRepository conversations) {
        this.access = access;
        this.conversations = conversations;
    }

    @Override
    public void delete(DeleteConversationCommand command) {
        access.chatApp(command.appId());
        boolean deleted = access.endUserId(command.appId(), command.user())
                .map(endUser -> conversations.delete(command.appId(), endUser, command.conversationId()))
                .orElse(false);
        if (!deleted) {
            throw new ApiException(ApiError.NOT_FOUND, ChatAccess.CONVERSATION_NOT_EXISTS);
        }
    }
}
