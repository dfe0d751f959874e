package dev.hexaflow.application.chat.port.in;

import dev.hexaflow.application.common.ApiException;

/** Deletes one of an end user's conversations, with its messages, their feedback and its variables. */
public interface DeleteConversationUseCase {

    /** @throws ApiException NOT_CHAT_APP, or NOT_FOUND "Conversation Not Exists." */
    void delete(DeleteConversationCommand command);

    record DeleteConversationCommand(String appId, String user, String conversationId) {
    }
}
