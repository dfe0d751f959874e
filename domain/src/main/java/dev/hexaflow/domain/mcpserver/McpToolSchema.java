package dev.hexaflow.domain.mcpserver;

import dev.hexaflow.domain.workflow.InputField;
import dev.hexaflow.domain.workflow.InputFieldKind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The input schema of an app's tool, from its start form as Dify builds it ({@code build_parameter_schema}): one
 * property per field, text and paragraph as strings, a select as a string with its options as {@code enum}, a number
 * as a number, each with the operator's description of it; file fields left out (MCP passes no upload). A chat app
 * takes its {@code query} first, required. Beyond Dify, which gives them no type, a checkbox is a boolean and a JSON
 * field an object, so a client can tell what to send.
 */
public final class McpToolSchema {

    /** The chat app's question, as Dify describes it. */
    public static final String QUERY = "query";

    private McpToolSchema() {
    }

    public static Map<String, Object> of(boolean chat, List<InputField> form, Map<String, String> descriptions) {
        Map<String, Object> properties = new LinkedHashMap<>();
        List<String> required = new ArrayList<>();
        if (chat) {
            properties.put(QUERY, Map.of("type", "string", "description", "User Input/Question content"));
            required.add(QUERY);
        }
        for (InputField field : form) {
            if (!takes(field.kind())) {
                continue;
            }
            Map<String, Object> property = new LinkedHashMap<>();
            property.put("description", descriptions.getOrDefault(field.variable(), ""));
            switch (field.kind()) {
                case TEXT_INPUT, PARAGRAPH -> property.put("type", "string");
                case SELECT -> {
                    property.put("type", "string");
                    property.put("enum", field.options());
                }
                case NUMBER -> property.put("type", "number");
                case CHECKBOX -> property.put("type", "boolean");
                case JSON_OBJECT -> property.put("type", "object");
                default -> { }
            }
            properties.put(field.variable(), property);
            if (field.required()) {
                required.add(field.variable());
            }
        }
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        schema.put("properties", properties);
        schema.put("required", required);
        return schema;
    }

    /** Whether a field of this kind is one of the tool's arguments: not a file, not an external data tool. */
    public static boolean takes(InputFieldKind kind) {
        return kind != InputFieldKind.FILE && kind != InputFieldKind.FILE_LIST
                && kind != InputFieldKind.EXTERNAL_DATA_TOOL;
    }
}
