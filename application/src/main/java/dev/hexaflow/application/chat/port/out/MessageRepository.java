package dev.hexaflow.application.chat.port.out;

import dev.hexaflow.domain.chat.FeedbackSource;
import dev.hexaflow.domain.chat.Message;
import dev.hexaflow.domain.chat.MessageFeedback;
import java.util.List;
import java.util.Optional;

/**
 * Keeps the messages of conversations (kept when a turn starts, completed when it ends) and the feedback given
 * on them. A message belongs to a kept conversation; deleting the conversation deletes them.
 */
public interface MessageRepository {

    /** Keeps a message as its turn starts. */
    void add(Message message);

    /**
     * Keeps the end of a kept message's turn: its answer, status, error, tokens, latency, run and files. Answers
     * false when the message is no longer kept (its conversation was deleted while the turn ran).
     */
    boolean finish(Message message);

    /**
     * The messages that still wait for their turn's end ({@link Message#awaitsAnswer()}), of every conversation:
     * turns under way, turns a crash or a failed write cut off, and turns whose run paused for a form.
     */
    List<Message> awaitingAnswer();

    /** The message, when it is this app's and this end user's; empty otherwise. */
    Optional<Message> find(String appId, String endUserId, String messageId);

    /** The message of this conversation, or empty. */
    Optional<Message> findInConversation(String conversationId, String messageId);

    /**
     * A page of a conversation's messages going back in time: the {@code limit} newest before {@code before}
     * (the newest of all when it is null), in the order they were sent, each with its end user's feedback.
     */
    MessagePage page(String conversationId, Message before, int limit);

    /** A page of messages, oldest first, and whether older ones are left. */
    record MessagePage(List<ListedMessage> items, boolean hasMore) {
        public MessagePage {
            items = List.copyOf(items);
        }
    }

    /** A message with the end user's feedback on it, or null for none. */
    record ListedMessage(Message message, MessageFeedback feedback) {
    }

    /** The conversation's last {@code count} messages, oldest first: the history a model is given. */
    List<Message> last(String conversationId, int count);

    /** The conversation's first message. */
    Optional<Message> first(String conversationId);

    /** How many messages the conversation holds (Dify's dialogue count before a turn). */
    long count(String conversationId);

    /** Keeps the feedback; it replaces the one of the same message and source. */
    void setFeedback(MessageFeedback feedback);

    /** The feedback on a message from one source. */
    Optional<MessageFeedback> findFeedback(String messageId, FeedbackSource source);

    /** Removes the feedback on a message from one source; false when there was none. */
    boolean removeFeedback(String messageId, FeedbackSource source);

    /** A page of an app's feedback, newest first; pages are numbered from 1. */
    List<MessageFeedback> feedbacks(String appId, int page, int limit);
}
