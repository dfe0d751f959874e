package dev.hexaflow.domain.workflow;

/**
 * A chatflow's conversation variable, read as {@code conversation.NAME}: as the DSL declares it (its default in
 * {@code value}) and, with {@link #withValue}, as one conversation holds it. value_type is one of Dify's: string,
 * number, object, boolean, array[string], array[number], array[object], array[boolean]. The id is the author's,
 * kept as written even where it is not a UUID (Dify keeps such ids too).
 */
public record ConversationVariable(String id, String name, String valueType, Object value, String description) {

    public ConversationVariable {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("a conversation variable needs a name");
        }
        id = id == null || id.isEmpty() ? name : id;
        valueType = valueType == null || valueType.isEmpty() ? "string" : valueType;
        description = description == null ? "" : description;
    }

    public ConversationVariable withValue(Object newValue) {
        return new ConversationVariable(id, name, valueType, newValue, description);
    }
}
