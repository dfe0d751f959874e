package dev.hexaflow.application.chat.port.out;

import dev.hexaflow.domain.chat.Conversation;
import dev.hexaflow.domain.chat.ConversationSort;
import java.util.List;
import java.util.Optional;

/**
 * Keeps conversations, each seen only by the app and end user it belongs to: a conversation of another app or
 * user is not found, so that nothing tells it exists.
 */
public interface ConversationRepository {

    /** Keeps a new conversation. */
    void add(Conversation conversation);

    /** The conversation, when it is this app's and this end user's; empty otherwise. */
    Optional<Conversation> find(String appId, String endUserId, String conversationId);

    /** The app's conversation whoever's it is: the operator's view, never an end user's. */
    Optional<Conversation> findInApp(String appId, String conversationId);

    /** Keeps a kept conversation's new name and update time (a rename, a new turn). */
    void update(Conversation conversation);

    /**
     * Deletes the conversation with its messages, their feedback and its variables; false when it is not this
     * app's and end user's.
     */
    boolean delete(String appId, String endUserId, String conversationId);

    /**
     * One page of an end user's conversations with an app in the query's order, those after {@code after}
     * (a conversation of the same list) when it is given. Conversations with the same time are ordered by id,
     * so that no page skips or repeats one.
     */
    ConversationPage list(ConversationQuery query);

    /**
     * @param endUserId the end user whose conversations are listed; null for every end user's (the operator's view)
     * @param after the last conversation of the previous page, or null for the first page
     */
    record ConversationQuery(String appId, String endUserId, Conversation after, int limit, ConversationSort sort) {
        public ConversationQuery {
            if (limit < 1) {
                throw new IllegalArgumentException("a page holds 1 conversation or more, was " + limit);
            }
            sort = sort == null ? ConversationSort.DEFAULT : sort;
        }
    }

    /** A page, and whether more conversations follow it. */
    record ConversationPage(List<Conversation> items, boolean hasMore) {
        public ConversationPage {
            items = List.copyOf(items);
        }
    }
}
