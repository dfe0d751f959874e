package dev.hexaflow.adapters.nodes.tool;

import dev.hexaflow.workflow.port.out.ToolRunner.ToolException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A built-in tool's arguments as Dify hands them to its tools: text parameters as text, numbers and booleans
 * converted from the text a {@code mixed} value renders to, and the defaults of each tool's YAML.
 */
final class BuiltinArguments {

    private final Map<String, Object> arguments;

    BuiltinArguments(Map<String, Object> arguments) {
        this.arguments = arguments;
    }

    /** The text of a parameter, {@code otherwise} when it is not given (given empty stays empty). */
    String text(String name, String otherwise) {
        Object value = arguments.get(name);
        if (value == null) {
            return arguments.containsKey(name) ? "" : otherwise;
        }
        return value instanceof String s ? s : dev.hexaflow.domain.workflow.Values.text(value);
    }

    /** A whole number parameter, or null when it is not given or empty. */
    Long wholeNumber(String name) {
        Object value = arguments.get(name);
        if (value instanceof Number n) {
            return n.longValue();
        }
        if (value instanceof String s && !s.isBlank()) {
            try {
                return (long) Double.parseDouble(s.strip());
            } catch (NumberFormatException e) {
                throw new ToolException("The parameter " + name + " must be a number, not '" + s + "'");
            }
        }
        return null;
    }

    /** A boolean parameter as Dify's boolean and select forms give it ("true", "True", 1 ...). */
    boolean bool(String name, boolean otherwise) {
        Object value = arguments.get(name);
        if (value instanceof Boolean b) {
            return b;
        }
        if (value instanceof Number n) {
            return n.doubleValue() != 0;
        }
        if (value instanceof String s && !s.isBlank()) {
            return switch (s.strip().toLowerCase(java.util.Locale.ROOT)) {
                case "true", "1", "yes", "y", "on" -> true;
                default -> false;
            };
        }
        return otherwise;
    }

    /** An input schema whose properties are all text but those named in {@code types}. */
    static Map<String, Object> schema(List<String> names, Map<String, String> types, List<String> required) {
        Map<String, Object> properties = new LinkedHashMap<>();
        for (String name : names) {
            properties.put(name, Map.of("type", types.getOrDefault(name, "string")));
        }
        return Map.of("type", "object", "properties", properties, "required", required);
    }
}
