package dev.hexaflow.application.chat.port.in;

import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.chat.KeptVariable;

/** Sets one of a conversation's variables to a value of its type; the next turn reads it. */
public interface UpdateConversationVariableUseCase {

    /**
     * @throws ApiException NOT_CHAT_APP, NOT_FOUND "Conversation Not Exists." or "Conversation Variable Not
     *                      Exists.", BAD_REQUEST "Type mismatch: variable 'NAME' expects TYPE, but got TYPE type"
     */
    KeptVariable update(UpdateConversationVariableCommand command);

    /** @param value a JSON value as workflow values hold it (String, Long, Double, Boolean, Map, List, null) */
    record UpdateConversationVariableCommand(String appId, String user, String conversationId, String variableId,
            Object value) {
    }
}
