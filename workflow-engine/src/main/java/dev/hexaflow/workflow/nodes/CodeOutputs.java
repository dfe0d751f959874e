package dev.hexaflow.workflow.nodes;

import dev.hexaflow.workflow.engine.NodeFailure;
import dev.hexaflow.domain.workflow.DataTree;
import dev.hexaflow.domain.workflow.Values;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks what a code node's main returned against its declared outputs, with Dify's limits and messages:
 * every declared output present and of its type, nothing undeclared, strings up to 400 000 characters, numbers
 * within 64 bits and 20 decimals, objects at most 5 deep, arrays of strings and objects up to 30 items and of
 * numbers up to 1 000.
 */
final class CodeOutputs {

    static final int MAX_STRING_LENGTH = 400_000;
    static final int MAX_DEPTH = 5;
    static final int MAX_PRECISION = 20;
    static final int MAX_STRING_ARRAY = 30;
    static final int MAX_OBJECT_ARRAY = 30;
    static final int MAX_NUMBER_ARRAY = 1000;

    private CodeOutputs() {
    }

    static Map<String, Object> check(Map<String, Object> result, DataTree schema) {
        return check(result, schema, "", 1);
    }

    private static Map<String, Object> check(Map<String, Object> result, DataTree schema, String prefix, int depth) {
        if (depth > MAX_DEPTH) {
            throw failure("DepthLimitError", "Depth limit " + MAX_DEPTH + " reached, object too deep.");
        }
        Map<String, Object> checked = new LinkedHashMap<>();
        String dot = prefix.isEmpty() ? "" : ".";
        for (Map.Entry<String, Object> entry : schema.asMap().entrySet()) {
            String name = entry.getKey();
            DataTree config = schema.tree(name);
            String type = config.string("type", "string");
            String path = prefix + dot + name;
            if (!result.containsKey(name)) {
                throw failure("OutputValidationError", "Output " + path + " is missing.");
            }
            Object value = result.get(name);
            switch (type) {
                case "string" -> checked.put(name, string(value, path));
                case "number" -> checked.put(name, number(value, path));
                case "boolean" -> checked.put(name, bool(value, path));
                case "object" -> checked.put(name, objectOutput(value, config, path, prefix + "." + name, depth));
                case "array[number]", "array[string]", "array[object]", "array[boolean]" ->
                        checked.put(name, arrayOutput(value, type, config, path, depth));
                default -> throw failure("OutputValidationError", "Output type " + type + " is not supported.");
            }
        }
        if (checked.size() != result.size()) {
            throw failure("CodeNodeError", "Not all output parameters are validated.");
        }
        return checked;
    }

    /** An object output: checked against its children when it declares some, else by each value's own kind. */
    private static Map<String, Object> objectOutput(Object value, DataTree config, String path, String childPrefix,
            int depth) {
        if (value == null) {
            return null;
        }
        if (!(value instanceof Map<?, ?> map)) {
            throw failure("OutputValidationError", "Output " + path + " is not an object, got "
                    + pythonType(value) + " instead.");
        }
        DataTree children = config.tree("children");
        return children.asMap().isEmpty() ? free(asMap(map), path, depth + 1)
                : check(asMap(map), children, childPrefix, depth + 1);
    }

    /** An array output of {@code type}: within its length limit, each item checked as its type says. */
    private static List<Object> arrayOutput(Object value, String type, DataTree config, String path, int depth) {
        if (value == null) {
            return null;
        }
        if (!(value instanceof List<?> list)) {
            throw failure("OutputValidationError", "Output " + path + " is not an array, got "
                    + pythonType(value) + " instead.");
        }
        int limit = type.equals("array[number]") ? MAX_NUMBER_ARRAY
                : type.equals("array[object]") ? MAX_OBJECT_ARRAY : MAX_STRING_ARRAY;
        if (!type.equals("array[boolean]") && list.size() > limit) {
            throw failure("OutputValidationError", "The length of output variable `" + path
                    + "` must be less than " + limit + " elements.");
        }
        List<Object> items = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            Object item = list.get(i);
            String at = path + "[" + i + "]";
            items.add(switch (type) {
                case "array[number]" -> number(item, at);
                case "array[string]" -> string(item, at);
                case "array[boolean]" -> bool(item, at);
                default -> object(item, at, config.tree("children"), at, depth + 1, i);
            });
        }
        return items;
    }

    private static Object object(Object item, String at, DataTree children, String prefix, int depth, int index) {
        if (item == null) {
            return null;
        }
        if (!(item instanceof Map<?, ?> map)) {
            throw failure("OutputValidationError", "Output " + at + " is not an object, got " + pythonType(item)
                    + " instead at index " + index + ".");
        }
        return children.asMap().isEmpty() ? free(asMap(map), at, depth) : check(asMap(map), children, prefix, depth);
    }

    /** An object without a declared shape: each value is still checked by its own kind. */
    private static Map<String, Object> free(Map<String, Object> map, String prefix, int depth) {
        if (depth > MAX_DEPTH) {
            throw failure("DepthLimitError", "Depth limit " + MAX_DEPTH + " reached, object too deep.");
        }
        for (Map.Entry<String, Object> entry : map.entrySet()) {
            String path = prefix + "." + entry.getKey();
            Object value = entry.getValue();
            if (value instanceof Map<?, ?> inner) {
                free(asMap(inner), path, depth + 1);
            } else if (Values.isNumber(value)) {
                number(value, path);
            } else if (value instanceof String) {
                string(value, path);
            } else if (value instanceof List<?> list) {
                for (int i = 0; i < list.size(); i++) {
                    if (list.get(i) instanceof Map<?, ?> inner) {
                        free(asMap(inner), path + "[" + i + "]", depth + 1);
                    }
                }
            }
        }
        return map;
    }

    private static String string(Object value, String path) {
        if (value == null) {
            return null;
        }
        if (!(value instanceof String text)) {
            throw failure("OutputValidationError", "Output variable `" + path + "` must be a string");
        }
        if (text.length() > MAX_STRING_LENGTH) {
            throw failure("OutputValidationError", "The length of output variable `" + path
                    + "` must be less than " + MAX_STRING_LENGTH + " characters");
        }
        return text.replace("\u0000", "");
    }

    private static Object number(Object value, String path) {
        if (value == null) {
            return null;
        }
        if (!Values.isNumber(value)) {
            throw failure("OutputValidationError", "Output variable `" + path + "` must be a number");
        }
        if (value instanceof Double d) {
            if (d > Long.MAX_VALUE || d < Long.MIN_VALUE) {
                throw failure("OutputValidationError", "Output variable `" + path
                        + "` is out of range, it must be between " + Long.MIN_VALUE + " and " + Long.MAX_VALUE + ".");
            }
            BigDecimal decimal = new BigDecimal(Values.pythonFloat(d)).stripTrailingZeros();
            if (decimal.scale() > MAX_PRECISION) {
                throw failure("OutputValidationError", "Output variable `" + path
                        + "` has too high precision, it must be less than " + MAX_PRECISION + " digits.");
            }
        }
        return value;
    }

    private static Object bool(Object value, String path) {
        if (value == null || value instanceof Boolean) {
            return value;
        }
        throw failure("OutputValidationError", "Output variable `" + path + "` must be a boolean");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(Map<?, ?> map) {
        return (Map<String, Object>) map;
    }

    /** Python's {@code type(value)} text, which Dify's messages show. */
    static String pythonType(Object value) {
        String name = value == null ? "NoneType" : value instanceof String ? "str" : value instanceof Long ? "int"
                : value instanceof Double ? "float" : value instanceof Boolean ? "bool"
                : value instanceof Map<?, ?> ? "dict" : value instanceof List<?> ? "list" : "object";
        return "<class '" + name + "'>";
    }

    private static NodeFailure failure(String type, String message) {
        return new NodeFailure(type, message, null);
    }
}
