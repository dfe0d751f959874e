package dev.hexaflow.application.chat.port.in;

import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.chat.Conversation;
import java.util.List;

/** Lists an end user's conversations with a chatflow, a page at a time, as Dify pages them by last_id. */
public interface ListConversationsUseCase {

    /**
     * @throws ApiException NOT_CHAT_APP for an app that is not a chatflow, INVALID_PARAM for a limit out of 1..100
     *                      or an unknown sort_by, NOT_FOUND "Last Conversation Not Exists." for a last_id that is
     *                      not one of this user's conversations
     */
    ConversationList list(ListConversationsQuery query);

    /**
     * @param user    the end user's session id, as clients send it in {@code user}
     * @param lastId  the last conversation of the previous page, or null
     * @param sortBy  created_at, -created_at, updated_at or -updated_at; null for -updated_at
     */
    record ListConversationsQuery(String appId, String user, String lastId, int limit, String sortBy) {
    }

    record ConversationList(int limit, boolean hasMore, List<Conversation> data) {
        public ConversationList {
            data = List.copyOf(data);
        }
    }
}
