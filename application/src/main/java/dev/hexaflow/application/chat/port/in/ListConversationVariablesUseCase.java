package dev.hexaflow.application.chat.port.in;

import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.chat.KeptVariable;
import java.util.List;

/** A conversation's variables with their values now, in the order they were made, a page at a time. */
public interface ListConversationVariablesUseCase {

    /**
     * @throws ApiException NOT_CHAT_APP, INVALID_PARAM for a limit out of 1..100 or a variable_name Dify refuses,
     *                      NOT_FOUND "Conversation Not Exists." or "Conversation Variable Not Exists." (last_id)
     */
    VariableList list(ListConversationVariablesQuery query);

    /**
     * @param lastId       the last variable of the previous page, or null
     * @param variableName matched as part of the names, any case; null for all
     */
    record ListConversationVariablesQuery(String appId, String user, String conversationId, String lastId,
            int limit, String variableName) {
    }

    record VariableList(int limit, boolean hasMore, List<KeptVariable> data) {
        public VariableList {
            data = List.copyOf(data);
        }
    }
}
