package dev.hexaflow.domain.workflow;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A node's DSL data as read: maps, lists, strings, numbers, booleans and nulls, unmodifiable, with typed
 * accessors that refuse a value of the wrong shape with a message naming the field.
 */
public final class DataTree {

    private final Map<String, Object> values;

    private DataTree(Map<String, Object> values) {
        this.values = values;
    }

    /** Copies a map of plain values deeply into an unmodifiable tree. */
    public static DataTree of(Map<String, ?> values) {
        return new DataTree(freezeMap(values));
    }

    @SuppressWarnings("unchecked")
    private static Object freeze(Object value) {
        if (value instanceof Map<?, ?> map) {
            return freezeMap((Map<String, ?>) map);
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>(list.size());
            for (Object item : list) {
                copy.add(freeze(item));
            }
            return Collections.unmodifiableList(copy);
        }
        return value;
    }

    private static Map<String, Object> freezeMap(Map<String, ?> map) {
        Map<String, Object> copy = new LinkedHashMap<>();
        map.forEach((key, value) -> copy.put(String.valueOf(key), freeze(value)));
        return Collections.unmodifiableMap(copy);
    }

    /** The whole tree as an unmodifiable map, in the order it was read. */
    public Map<String, Object> asMap() {
        return values;
    }

    public boolean has(String key) {
        return values.get(key) != null;
    }

    public Object get(String key) {
        return values.get(key);
    }

    public Optional<String> optionalString(String key) {
        Object value = values.get(key);
        if (value == null) {
            return Optional.empty();
        }
        if (value instanceof String || value instanceof Number || value instanceof Boolean) {
            return Optional.of(String.valueOf(value));
        }
        throw new InvalidNodeDataException(key, "must be text");
    }

    public String string(String key) {
        return optionalString(key).orElseThrow(() -> new InvalidNodeDataException(key, "is missing"));
    }

    public String string(String key, String otherwise) {
        return optionalString(key).orElse(otherwise);
    }

    public boolean bool(String key, boolean otherwise) {
        Object value = values.get(key);
        if (value == null) {
            return otherwise;
        }
        if (value instanceof Boolean b) {
            return b;
        }
        if (value instanceof String s && (s.equalsIgnoreCase("true") || s.equalsIgnoreCase("false"))) {
            return Boolean.parseBoolean(s);
        }
        throw new InvalidNodeDataException(key, "must be true or false");
    }

    public Optional<Long> optionalLong(String key) {
        Object value = values.get(key);
        if (value == null || (value instanceof String s && s.isBlank())) {
            return Optional.empty();
        }
        if (value instanceof Number n) {
            return Optional.of(n.longValue());
        }
        if (value instanceof String s) {
            try {
                return Optional.of((long) Double.parseDouble(s.trim()));
            } catch (NumberFormatException e) {
                throw new InvalidNodeDataException(key, "must be a number, was '" + s + "'");
            }
        }
        throw new InvalidNodeDataException(key, "must be a number");
    }

    public long longValue(String key, long otherwise) {
        return optionalLong(key).orElse(otherwise);
    }

    /** A list of plain values; empty when the key is absent. */
    public List<Object> list(String key) {
        Object value = values.get(key);
        if (value == null) {
            return List.of();
        }
        if (value instanceof List<?> list) {
            return Collections.unmodifiableList(list);
        }
        throw new InvalidNodeDataException(key, "must be a list");
    }

    /** A nested object; empty when the key is absent. */
    @SuppressWarnings("unchecked")
    public DataTree tree(String key) {
        Object value = values.get(key);
        if (value == null) {
            return new DataTree(Map.of());
        }
        if (value instanceof Map<?, ?> map) {
            return new DataTree((Map<String, Object>) map);
        }
        throw new InvalidNodeDataException(key, "must be an object");
    }

    /** A list of nested objects; empty when the key is absent. */
    @SuppressWarnings("unchecked")
    public List<DataTree> trees(String key) {
        List<DataTree> trees = new ArrayList<>();
        int index = 0;
        for (Object item : list(key)) {
            if (!(item instanceof Map<?, ?> map)) {
                throw new InvalidNodeDataException(key + "[" + index + "]", "must be an object");
            }
            trees.add(new DataTree((Map<String, Object>) map));
            index++;
        }
        return trees;
    }

    public Optional<VariableSelector> optionalSelector(String key) {
        List<Object> path = list(key);
        if (path.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(selector(key, path));
    }

    public VariableSelector selector(String key) {
        return optionalSelector(key).orElseThrow(() -> new InvalidNodeDataException(key, "is missing"));
    }

    /** Reads one list of path strings as a selector, naming {@code key} in errors. */
    public static VariableSelector selector(String key, List<?> path) {
        List<String> parts = new ArrayList<>(path.size());
        for (Object part : path) {
            if (part == null) {
                throw new InvalidNodeDataException(key, "has an empty part");
            }
            parts.add(String.valueOf(part));
        }
        try {
            return new VariableSelector(parts);
        } catch (IllegalArgumentException e) {
            throw new InvalidNodeDataException(key, e.getMessage());
        }
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof DataTree tree && tree.values.equals(values);
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
