package dev.hexaflow.domain.chat;

import dev.hexaflow.domain.workflow.ConversationVariable;
import java.util.ArrayList;
import java.util.List;

/**
 * A conversation variable as one conversation holds it: its value now, when the conversation made it (from the
 * DSL's default) and when its value last changed. Times are Unix seconds; {@code position} is its place in the
 * DSL, which orders variables made in the same second.
 */
public record KeptVariable(String conversationId, ConversationVariable variable, int position, long createdAt,
        long updatedAt) {

    public KeptVariable {
        Conversation.requireText(conversationId, "conversation id");
        if (variable == null) {
            throw new IllegalArgumentException("a kept variable needs its variable");
        }
        if (updatedAt < createdAt) {
            throw new IllegalArgumentException("a kept variable's updatedAt comes before its createdAt");
        }
    }

    /** A new conversation's variables: the DSL's, each holding its default, in the DSL's order. */
    public static List<KeptVariable> defaultsOf(String conversationId, List<ConversationVariable> declared,
            long now) {
        List<KeptVariable> kept = new ArrayList<>();
        for (int i = 0; i < declared.size(); i++) {
            kept.add(new KeptVariable(conversationId, declared.get(i), i, now, now));
        }
        return List.copyOf(kept);
    }

    public String id() {
        return variable.id();
    }

    /**
     * The variable with a value a client sent.
     *
     * @throws VariableTypeMismatchException when the value does not fit the variable's type
     */
    public KeptVariable withValue(Object value, long now) {
        VariableTypes.check(variable.name(), variable.valueType(), value);
        return withRunValue(value, now);
    }

    /** The variable with the value a run left in it, which the run's assigners have checked already. */
    public KeptVariable withRunValue(Object value, long now) {
        return new KeptVariable(conversationId, variable.withValue(value), position, createdAt,
                Math.max(now, createdAt));
    }
}
