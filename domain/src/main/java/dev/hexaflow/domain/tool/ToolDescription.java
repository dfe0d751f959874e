package dev.hexaflow.domain.tool;

import java.util.Map;

/**
 * What a tool takes and says of itself: the arguments it is called with are checked against
 * {@code inputSchema} (a JSON schema, as maps and lists), and an agent offers the tool to a model with it.
 */
public record ToolDescription(ToolRef ref, String description, Map<String, Object> inputSchema) {

    public ToolDescription {
        if (ref == null) {
            throw new IllegalArgumentException("ref must not be null");
        }
        description = description == null ? "" : description;
        inputSchema = inputSchema == null ? Map.of("type", "object") : Map.copyOf(inputSchema);
    }
}
