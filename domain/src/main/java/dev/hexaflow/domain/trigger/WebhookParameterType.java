package dev.hexaflow.domain.trigger;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The value type of a webhook header, query parameter or body field: the Dify segment types a webhook allows. */
public enum WebhookParameterType {
    STRING("string", "string"),
    NUMBER("number", "number"),
    BOOLEAN("boolean", "boolean"),
    OBJECT("object", "object"),
    ARRAY_STRING("array[string]", "array of strings"),
    ARRAY_NUMBER("array[number]", "array of numbers"),
    ARRAY_BOOLEAN("array[boolean]", "array of booleans"),
    ARRAY_OBJECT("array[object]", "array of objects"),
    FILE("file", "file");

    private final String wireName;
    private final String label;

    WebhookParameterType(String wireName, String label) {
        this.wireName = wireName;
        this.label = label;
    }

    public String wireName() {
        return wireName;
    }

    /** How Dify names the type in "Expected {label}, got ...". */
    public String label() {
        return label;
    }

    public static Optional<WebhookParameterType> fromWireName(String name) {
        for (WebhookParameterType type : values()) {
            if (type.wireName.equals(name)) {
                return Optional.of(type);
            }
        }
        return Optional.empty();
    }

    /**
     * Whether a parsed JSON value has this type, as Dify's {@code SegmentType.is_valid} judges it. A boolean
     * passes as a number because Python's bool is an int; a JSON value is never a file.
     */
    public boolean accepts(Object value) {
        return switch (this) {
            case STRING -> value instanceof String;
            case NUMBER -> value instanceof Number || value instanceof Boolean;
            case BOOLEAN -> value instanceof Boolean;
            case OBJECT -> value instanceof Map<?, ?>;
            case ARRAY_STRING -> allAre(value, STRING);
            case ARRAY_NUMBER -> allAre(value, NUMBER);
            case ARRAY_BOOLEAN -> allAre(value, BOOLEAN);
            case ARRAY_OBJECT -> allAre(value, OBJECT);
            case FILE -> false;
        };
    }

    private static boolean allAre(Object value, WebhookParameterType element) {
        return value instanceof List<?> list && list.stream().allMatch(element::accepts);
    }
}
