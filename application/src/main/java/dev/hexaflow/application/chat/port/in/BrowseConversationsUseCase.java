package dev.hexaflow.application.chat.port.in;

import dev.hexaflow.application.chat.port.in.ListConversationsUseCase.ConversationList;
import dev.hexaflow.application.chat.port.in.ListMessagesUseCase.MessageList;

/**
 * The operator's view of a chat app's conversations: every end user's, newest first, and each one's messages, read
 * with the admin token where an end user reads only their own.
 */
public interface BrowseConversationsUseCase {

    /**
     * @param user   an end user's id as the client gave it, to list only theirs; null for everyone's
     * @param lastId the last conversation of the page before, or null
     * @throws dev.hexaflow.application.common.ApiException NOT_FOUND for an unknown app, NOT_CHAT_APP for one that
     *     is not a chatflow, INVALID_PARAM for a limit out of 1..100, NOT_FOUND for a last_id not of this app
     */
    ConversationList conversations(String appId, String user, String lastId, int limit);

    /**
     * @param firstId the oldest message of the page shown before (the page answered is older), or null
     * @throws dev.hexaflow.application.common.ApiException NOT_FOUND for a conversation not of this app
     */
    MessageList messages(String appId, String conversationId, String firstId, int limit);
}
