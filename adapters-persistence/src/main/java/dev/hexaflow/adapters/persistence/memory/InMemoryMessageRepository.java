package dev.hexaflow.adapters.persistence.memory;

import dev.hexaflow.application.chat.port.out.MessageRepository;
import dev.hexaflow.domain.chat.FeedbackSource;
import dev.hexaflow.domain.chat.Message;
import dev.hexaflow.domain.chat.MessageFeedback;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Messages and their feedback in maps, under one lock. Messages are ordered by creation time, then by id (ids
 * made later sort later), as the Jdbi repository orders them.
 */
public final class InMemoryMessageRepository implements MessageRepository {

    static final Comparator<Message> SENT = Comparator.comparingLong(Message::createdAt).thenComparing(Message::id);

    private final Map<String, Message> messages = new LinkedHashMap<>();
    private final Map<List<Object>, MessageFeedback> feedbacks = new LinkedHashMap<>();

    @Override
    public synchronized void add(Message message) {
        if (messages.putIfAbsent(message.id(), message) != null) {
            throw new IllegalStateException("a message with id " + message.id() + " exists already");
        }
    }

    @Override
    public synchronized boolean finish(Message message) {
        if (!messages.containsKey(message.id())) {
            return false;
        }
        messages.put(message.id(), message);
        return true;
    }

    @Override
    public synchronized List<Message> awaitingAnswer() {
        return messages.values().stream().filter(Message::awaitsAnswer)
                .sorted(Comparator.comparingLong(Message::createdAt).thenComparing(Message::id)).toList();
    }

    @Override
    public synchronized Optional<Message> find(String appId, String endUserId, String messageId) {
        return Optional.ofNullable(messages.get(messageId))
                .filter(message -> message.appId().equals(appId) && message.endUserId().equals(endUserId));
    }

    @Override
    public synchronized Optional<Message> findInConversation(String conversationId, String messageId) {
        return Optional.ofNullable(messages.get(messageId))
                .filter(message -> message.conversationId().equals(conversationId));
    }

    @Override
    public synchronized MessagePage page(String conversationId, Message before, int limit) {
        List<Message> older = of(conversationId).stream()
                .filter(message -> before == null || SENT.compare(message, before) < 0)
                .toList();
        boolean hasMore = older.size() > limit;
        List<ListedMessage> items = new ArrayList<>();
        for (Message message : older.subList(Math.max(0, older.size() - limit), older.size())) {
            items.add(new ListedMessage(message, feedbacks.get(List.of(message.id(), FeedbackSource.USER))));
        }
        return new MessagePage(items, hasMore);
    }

    @Override
    public synchronized List<Message> last(String conversationId, int count) {
        List<Message> all = of(conversationId);
        return List.copyOf(all.subList(Math.max(0, all.size() - count), all.size()));
    }

    @Override
    public synchronized Optional<Message> first(String conversationId) {
        return of(conversationId).stream().findFirst();
    }

    @Override
    public synchronized long count(String conversationId) {
        return of(conversationId).size();
    }

    @Override
    public synchronized void setFeedback(MessageFeedback feedback) {
        if (!messages.containsKey(feedback.messageId())) {
            throw new IllegalStateException("no message " + feedback.messageId() + " to give feedback on");
        }
        feedbacks.put(List.of(feedback.messageId(), feedback.fromSource()), feedback);
    }

    @Override
    public synchronized Optional<MessageFeedback> findFeedback(String messageId, FeedbackSource source) {
        return Optional.ofNullable(feedbacks.get(List.of(messageId, source)));
    }

    @Override
    public synchronized boolean removeFeedback(String messageId, FeedbackSource source) {
        return feedbacks.remove(List.of(messageId, source)) != null;
    }

    @Override
    public synchronized List<MessageFeedback> feedbacks(String appId, int page, int limit) {
        return feedbacks.values().stream()
                .filter(feedback -> feedback.appId().equals(appId))
                .sorted(Comparator.comparingLong(MessageFeedback::createdAt).thenComparing(MessageFeedback::id)
                        .reversed())
                .skip((long) (page - 1) * limit)
                .limit(limit)
                .toList();
    }

    /** Forgets a deleted conversation's messages and their feedback. */
    synchronized void forget(String conversationId) {
        List<String> gone = messages.values().stream()
                .filter(message -> message.conversationId().equals(conversationId)).map(Message::id).toList();
        gone.forEach(messages::remove);
        feedbacks.values().removeIf(feedback -> feedback.conversationId().equals(conversationId));
    }

    private List<Message> of(String conversationId) {
        return messages.values().stream()
                .filter(message -> message.conversationId().equals(conversationId))
                .sorted(SENT)
                .toList();
    }
}
