package dev.hexaflow.adapters.persistence.memory;

import dev.hexaflow.application.chat.port.out.ConversationVariableRepository;
import dev.hexaflow.domain.chat.KeptVariable;
import dev.hexaflow.domain.chat.VariableNameFilter;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Conversation variables by (conversation, variable id), under one lock; made order is time, then DSL place. */
public final class InMemoryConversationVariableRepository implements ConversationVariableRepository {

    static final Comparator<KeptVariable> MADE = Comparator.comparingLong(KeptVariable::createdAt)
            .thenComparingInt(KeptVariable::position);

    private final Map<List<String>, KeptVariable> variables = new LinkedHashMap<>();

    @Override
    public synchronized void addAll(List<KeptVariable> added) {
        for (KeptVariable variable : added) {
            if (variables.containsKey(key(variable))) {
                throw new IllegalStateException("conversation " + variable.conversationId() + " has a variable "
                        + variable.id() + " already");
            }
        }
        added.forEach(variable -> variables.put(key(variable), variable));
    }

    @Override
    public synchronized List<KeptVariable> all(String conversationId) {
        return of(conversationId);
    }

    @Override
    public synchronized Optional<KeptVariable> find(String conversationId, String variableId) {
        return Optional.ofNullable(variables.get(List.of(conversationId, variableId)));
    }

    @Override
    public synchronized void update(KeptVariable variable) {
        updateAll(List.of(variable));
    }

    @Override
    public synchronized void updateAll(List<KeptVariable> changed) {
        for (KeptVariable variable : changed) {
            if (!variables.containsKey(key(variable))) {
                throw new IllegalStateException("conversation " + variable.conversationId() + " has no variable "
                        + variable.id());
            }
        }
        changed.forEach(variable -> variables.put(key(variable), variable));
    }

    @Override
    public synchronized VariablePage page(String conversationId, KeptVariable after, VariableNameFilter filter,
            int limit) {
        List<KeptVariable> rest = of(conversationId).stream()
                .filter(variable -> filter == null || filter.matches(variable.variable().name()))
                .filter(variable -> after == null || MADE.compare(variable, after) > 0)
                .toList();
        return new VariablePage(rest.subList(0, Math.min(limit, rest.size())), rest.size() > limit);
    }

    /** Forgets a deleted conversation's variables. */
    synchronized void forget(String conversationId) {
        variables.keySet().removeIf(key -> key.get(0).equals(conversationId));
    }

    private List<KeptVariable> of(String conversationId) {
        return variables.values().stream()
                .filter(variable -> variable.conversationId().equals(conversationId))
                .sorted(MADE)
                .toList();
    }

    private static List<String> key(KeptVariable variable) {
        return List.of(variable.conversationId(), variable.id());
    }
}
