package dev.hexaflow.application.chat.port.in;

import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.chat.Conversation;

/**
 * Renames a conversation: with the name given, or with one the model makes from its first query (Dify's
 * conversation-title prompt); a model that fails leaves the name as it was.
 */
public interface RenameConversationUseCase {

    /**
     * @throws ApiException NOT_CHAT_APP, INVALID_PARAM "name is required when auto_generate is false",
     *                      NOT_FOUND "Conversation Not Exists." or (to auto-generate) "Message Not Exists."
     */
    Conversation rename(RenameConversationCommand command);

    /** @param name the new name; ignored when {@code autoGenerate} */
    record RenameConversationCommand(String appId, String user, String conversationId, String name,
            boolean autoGenerate) {
    }
}
