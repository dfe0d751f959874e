package dev.hexaflow.application.chat.port.in;

import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.chat.Message;
import dev.hexaflow.domain.chat.MessageFeedback;
import java.util.List;

/** A conversation's history, a page at a time going back from first_id, each page oldest first. */
public interface ListMessagesUseCase {

    /**
     * @throws ApiException NOT_CHAT_APP, INVALID_PARAM for a limit out of 1..100, NOT_FOUND "Conversation Not
     *                      Exists." or "First Message Not Exists."
     */
    MessageList list(ListMessagesQuery query);

    /** @param firstId the oldest message of the page shown before (the page returned is older), or null */
    record ListMessagesQuery(String appId, String user, String conversationId, String firstId, int limit) {
    }

    record MessageList(int limit, boolean hasMore, List<MessageWithFeedback> data) {
        public MessageList {
            data = List.copyOf(data);
        }
    }

    /** A message of the history, with the end user's feedback on it, or null for none. */
    record MessageWithFeedback(Message message, MessageFeedback feedback) {
    }
}
