package dev.hexaflow.workflow.nodes;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Checks a value against the JSON schema of an LLM node's structured output, as Dify's Draft 7 validator does for
 * the keywords a structured output's schema uses: {@code type} (one or a list), {@code properties},
 * {@code required}, {@code additionalProperties} (false or a schema), {@code items}, {@code enum} and {@code const}.
 * Other keywords (lengths, patterns, bounds, {@code $ref}) are not checked. The first problem found is answered with
 * its JSON path and python-jsonschema's sentence for it.
 */
final class JsonSchemaCheck {

    /** A value that does not fit: where ({@code $.a.b[0]}) and why. */
    record Problem(String path, String message) {
    }

    private JsonSchemaCheck() {
    }

    static Optional<Problem> check(Map<?, ?> schema, Object value) {
        return check(schema, value, "$");
    }

    private static Optional<Problem> check(Map<?, ?> schema, Object value, String path) {
        if (schema.containsKey("type") && !typeFits(schema.get("type"), value)) {
            return problem(path, repr(value) + " is not of type " + typeNames(schema.get("type")));
        }
        if (schema.get("enum") instanceof List<?> allowed && allowed.stream().noneMatch(a -> same(a, value))) {
            return problem(path, repr(value) + " is not one of " + repr(allowed));
        }
        if (schema.containsKey("const") && !same(schema.get("const"), value)) {
            return problem(path, repr(schema.get("const")) + " was expected");
        }
        if (value instanceof Map<?, ?> object) {
            return checkObject(schema, object, path);
        }
        if (value instanceof List<?> list && schema.get("items") instanceof Map<?, ?> items) {
            for (int i = 0; i < list.size(); i++) {
                Optional<Problem> found = check(items, list.get(i), path + "[" + i + "]");
                if (found.isPresent()) {
                    return found;
                }
            }
        }
        return Optional.empty();
    }

    private static Optional<Problem> checkObject(Map<?, ?> schema, Map<?, ?> object, String path) {
        if (schema.get("required") instanceof List<?> required) {
            for (Object name : required) {
                if (!object.containsKey(String.valueOf(name))) {
                    return problem(path, repr(String.valueOf(name)) + " is a required property");
                }
            }
        }
        Map<?, ?> properties = schema.get("properties") instanceof Map<?, ?> p ? p : Map.of();
        List<String> unexpected = new ArrayList<>();
        for (Map.Entry<?, ?> entry : object.entrySet()) {
            String name = String.valueOf(entry.getKey());
            Object additional = schema.get("additionalProperties");
            if (properties.get(name) instanceof Map<?, ?> property) {
                Optional<Problem> found = check(property, entry.getValue(), path + "." + name);
                if (found.isPresent()) {
                    return found;
                }
            } else if (additional instanceof Map<?, ?> extra) {
                Optional<Problem> found = check(extra, entry.getValue(), path + "." + name);
                if (found.isPresent()) {
                    return found;
                }
            } else if (Boolean.FALSE.equals(additional)) {
                unexpected.add(repr(name));
            }
        }
        if (!unexpected.isEmpty()) {
            return problem(path, "Additional properties are not allowed (" + String.join(", ", unexpected)
                    + (unexpected.size() == 1 ? " was" : " were") + " unexpected)");
        }
        return Optional.empty();
    }

    private static boolean typeFits(Object type, Object value) {
        if (type instanceof List<?> types) {
            return types.stream().anyMatch(t -> typeFits(t, value));
        }
        return switch (String.valueOf(type)) {
            case "string" -> value instanceof String;
            case "number" -> value instanceof Number;
            case "integer" -> value instanceof Number n && (isWhole(n));
            case "boolean" -> value instanceof Boolean;
            case "object" -> value instanceof Map<?, ?>;
            case "array" -> value instanceof List<?>;
            case "null" -> value == null;
            default -> true;
        };
    }

    private static boolean isWhole(Number n) {
        if (n instanceof Double || n instanceof Float) {
            double d = n.doubleValue();
            return !Double.isInfinite(d) && d == Math.rint(d);
        }
        return true;
    }

    private static String typeNames(Object type) {
        if (type instanceof List<?> types) {
            return String.join(", ", types.stream().map(t -> repr(String.valueOf(t))).toList());
        }
        return repr(String.valueOf(type));
    }

    /** Equal as JSON values: 1 and 1.0 are the same number. */
    private static boolean same(Object a, Object b) {
        if (a instanceof Number x && b instanceof Number y) {
            return x.doubleValue() == y.doubleValue();
        }
        return Objects.equals(a, b);
    }

    private static Optional<Problem> problem(String path, String message) {
        return Optional.of(new Problem(path, message));
    }

    /** A value as Python's repr writes it (the sentences are python-jsonschema's), cut at 100 characters. */
    static String repr(Object value) {
        String text = reprOf(value);
        return text.length() > 100 ? text.substring(0, 100) + "…" : text;
    }

    private static String reprOf(Object value) {
        if (value == null) {
            return "None";
        }
        if (value instanceof Boolean b) {
            return b ? "True" : "False";
        }
        if (value instanceof String s) {
            return "'" + s.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n") + "'";
        }
        if (value instanceof Map<?, ?> map) {
            List<String> parts = new ArrayList<>();
            map.forEach((k, v) -> parts.add(reprOf(String.valueOf(k)) + ": " + reprOf(v)));
            return "{" + String.join(", ", parts) + "}";
        }
        if (value instanceof List<?> list) {
            return "[" + String.join(", ", list.stream().map(JsonSchemaCheck::reprOf).toList()) + "]";
        }
        return String.valueOf(value);
    }
}
