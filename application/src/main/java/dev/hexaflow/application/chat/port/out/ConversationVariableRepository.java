package dev.hexaflow.application.chat.port.out;

import dev.hexaflow.domain.chat.KeptVariable;
import dev.hexaflow.domain.chat.VariableNameFilter;
import java.util.List;
import java.util.Optional;

/**
 * Keeps each conversation's values of its chatflow's conversation variables, made from the DSL's defaults when
 * the conversation begins. A kept conversation's variables go with it when it is deleted.
 */
public interface ConversationVariableRepository {

    /** Keeps a new conversation's variables. */
    void addAll(List<KeptVariable> variables);

    /** Every variable of the conversation, in the order they were made: what a run starts from. */
    List<KeptVariable> all(String conversationId);

    /** One variable of the conversation, by its id. */
    Optional<KeptVariable> find(String conversationId, String variableId);

    /** Keeps a kept variable's new value and update time. */
    void update(KeptVariable variable);

    /** Keeps the values a turn left, all or none. */
    void updateAll(List<KeptVariable> variables);

    /**
     * A page of the conversation's variables in the order they were made, those whose name the filter matches
     * (all when it is null), after {@code after} when it is given.
     */
    VariablePage page(String conversationId, KeptVariable after, VariableNameFilter filter, int limit);

    /** A page of variables and whether more follow. */
    record VariablePage(List<KeptVariable> items, boolean hasMore) {
        public VariablePage {
            items = List.copyOf(items);
        }
    }
}
