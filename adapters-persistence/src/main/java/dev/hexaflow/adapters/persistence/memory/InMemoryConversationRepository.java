package dev.hexaflow.adapters.persistence.memory;

import dev.hexaflow.application.chat.port.out.ConversationRepository;
import dev.hexaflow.domain.chat.Conversation;
import dev.hexaflow.domain.chat.ConversationSort;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Conversations in a map, under one lock. It is given the message and variable stores of the same process, so
 * that deleting a conversation deletes what belongs to it, as the database's cascade does.
 */
public final class InMemoryConversationRepository implements ConversationRepository {

    private final Map<String, Conversation> conversations = new LinkedHashMap<>();
    private final InMemoryMessageRepository messages;
    private final InMemoryConversationVariableRepository variables;

    public InMemoryConversationRepository(InMemoryMessageRepository messages,
            InMemoryConversationVariableRepository variables) {
        this.messages = messages;
        this.variables = variables;
    }

    @Override
    public synchronized void add(Conversation conversation) {
        if (conversations.putIfAbsent(conversation.id(), conversation) != null) {
            throw new IllegalStateException("a conversation with id " + conversation.id() + " exists already");
        }
    }

    @Override
    public synchronized Optional<Conversation> find(String appId, String endUserId, String conversationId) {
        return Optional.ofNullable(conversations.get(conversationId)).filter(conversation -> owns(conversation,
                appId, endUserId));
    }

    @Override
    public synchronized Optional<Conversation> findInApp(String appId, String conversationId) {
        return Optional.ofNullable(conversations.get(conversationId))
                .filter(conversation -> conversation.appId().equals(appId));
    }

    @Override
    public synchronized void update(Conversation conversation) {
        if (!conversations.containsKey(conversation.id())) {
            throw new IllegalStateException("no conversation " + conversation.id() + " to update");
        }
        conversations.put(conversation.id(), conversation);
    }

    @Override
    public synchronized boolean delete(String appId, String endUserId, String conversationId) {
        if (find(appId, endUserId, conversationId).isEmpty()) {
            return false;
        }
        conversations.remove(conversationId);
        messages.forget(conversationId);
        variables.forget(conversationId);
        return true;
    }

    @Override
    public synchronized ConversationPage list(ConversationQuery query) {
        Comparator<Conversation> order = order(query.sort());
        List<Conversation> rest = conversations.values().stream()
                .filter(conversation -> conversation.appId().equals(query.appId()) && (query.endUserId() == null
                        || conversation.endUserId().equals(query.endUserId())))
                .filter(conversation -> query.after() == null || order.compare(conversation, query.after()) > 0)
                .sorted(order)
                .toList();
        return new ConversationPage(rest.subList(0, Math.min(query.limit(), rest.size())),
                rest.size() > query.limit());
    }

    private static Comparator<Conversation> order(ConversationSort sort) {
        Comparator<Conversation> ascending = Comparator.comparingLong(sort::key).thenComparing(Conversation::id);
        return sort.ascending() ? ascending : ascending.reversed();
    }

    private static boolean owns(Conversation conversation, String appId, String endUserId) {
        return conversation.appId().equals(appId) && conversation.endUserId().equals(endUserId);
    }
}
