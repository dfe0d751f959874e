package dev.hexaflow.domain.chat;

import dev.hexaflow.domain.workflow.FileValue;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Dify's check of a value against a variable's value_type ({@code SegmentType.is_valid}) and its name for a
 * value's type ({@code SegmentType.infer_segment_type}), as Python sees JSON values: a whole number is an
 * integer, any other a float, and a boolean is a number too (Python's bool is an int), though inferred as boolean.
 */
public final class VariableTypes {

    private VariableTypes() {
    }

    /** Whether {@code value} fits {@code valueType}; an empty array fits every array type. */
    public static boolean accepts(String valueType, Object value) {
        String type = exposed(valueType);
        if (type.startsWith("array[")) {
            if (!(value instanceof List<?> list)) {
                return false;
            }
            if (list.isEmpty() || type.equals("array[any]")) {
                return true;
            }
            String element = type.substring("array[".length(), type.length() - 1);
            return list.stream().allMatch(item -> accepts(element, item));
        }
        return switch (type) {
            case "boolean" -> value instanceof Boolean;
            case "number", "float" -> isWhole(value) || value instanceof Float || value instanceof Double
                    || value instanceof Boolean;
            case "string", "secret" -> value instanceof String;
            case "object" -> value instanceof Map<?, ?>;
            case "file" -> value instanceof FileValue;
            case "none" -> value == null;
            default -> false;
        };
    }

    /** Dify's name for the type of {@code value}, or "unknown" where Dify infers none. */
    public static String inferred(Object value) {
        if (value instanceof List<?> list) {
            Set<String> types = new HashSet<>();
            for (Object item : list) {
                String type = inferred(item);
                if (type.equals("unknown")) {
                    return type;
                }
                types.add(type);
            }
            if (types.size() != 1) {
                return !types.isEmpty() && Set.of("integer", "float", "number").containsAll(types) ? "array[number]"
                        : "array[any]";
            }
            String only = types.iterator().next();
            return switch (only) {
                case "string" -> "array[string]";
                case "integer", "float" -> "array[number]";
                case "object" -> "array[object]";
                case "file" -> "array[file]";
                case "boolean" -> "array[boolean]";
                default -> "array[any]";
            };
        }
        if (value == null) {
            return "none";
        }
        if (value instanceof Boolean) {
            return "boolean";
        }
        if (isWhole(value)) {
            return "integer";
        }
        if (value instanceof Float || value instanceof Double) {
            return "float";
        }
        if (value instanceof String) {
            return "string";
        }
        if (value instanceof Map<?, ?>) {
            return "object";
        }
        if (value instanceof FileValue) {
            return "file";
        }
        return "unknown";
    }

    /**
     * Refuses a value that does not fit the variable, with Dify's message: "Type mismatch: variable 'NAME'
     * expects TYPE, but got TYPE type".
     */
    public static void check(String variableName, String valueType, Object value) {
        if (!accepts(valueType, value)) {
            throw new VariableTypeMismatchException("Type mismatch: variable '" + variableName + "' expects "
                    + exposed(valueType) + ", but got " + inferred(value) + " type");
        }
    }

    /** Dify keeps some numbers as integer but shows and checks them as number. */
    private static String exposed(String valueType) {
        return "integer".equals(valueType) ? "number" : valueType;
    }

    private static boolean isWhole(Object value) {
        return value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte
                || value instanceof java.math.BigInteger;
    }
}
