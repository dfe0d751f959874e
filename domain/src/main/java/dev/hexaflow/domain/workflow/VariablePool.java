package dev.hexaflow.domain.workflow;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The values of one run: each node's outputs by node id and name, the system variables under {@code sys}, the
 * environment variables under {@code env} and a chatflow's conversation variables under {@code conversation}. Safe for parallel branches. A fork (for one iteration of an
 * iteration node) reads through to its parent and keeps its own writes.
 */
public final class VariablePool {

    /** Dify's {@code {{#node.var.path#}}} reference. */
    public static final Pattern REFERENCE =
            Pattern.compile("\\{\\{#([a-zA-Z0-9_]{1,50}(?:\\.[a-zA-Z_][a-zA-Z0-9_]{0,29}){1,10})#\\}\\}");

    private static final Object NULL = new Object();

    private final VariablePool parent;
    private final Map<String, Map<String, Object>> values = new ConcurrentHashMap<>();

    private VariablePool(VariablePool parent) {
        this.parent = parent;
    }

    public static VariablePool of(Map<String, ?> system, Map<String, ?> environment) {
        VariablePool pool = new VariablePool(null);
        system.forEach((name, value) -> pool.set(VariableSelector.SYSTEM, name, value));
        environment.forEach((name, value) -> pool.set(VariableSelector.ENVIRONMENT, name, value));
        return pool;
    }

    /**
     * The pool's values node by node in plain values, a file as Dify's file object, for a paused run to keep; a
     * fork's own writes only (a run pauses at its top level, where there is no parent).
     */
    public Map<String, Map<String, Object>> export() {
        Map<String, Map<String, Object>> exported = new java.util.LinkedHashMap<>();
        values.forEach((nodeId, variables) -> {
            Map<String, Object> plain = new java.util.LinkedHashMap<>();
            variables.forEach((name, value) -> plain.put(name, value == NULL ? null : plain(value)));
            exported.put(nodeId, plain);
        });
        return exported;
    }

    /** A node's variables in this pool (not its parent's), by name, in no set order. */
    public Map<String, Object> all(String nodeId) {
        Map<String, Object> found = new java.util.LinkedHashMap<>();
        values.getOrDefault(nodeId, Map.of()).forEach((name, value) -> found.put(name, value == NULL ? null : value));
        return found;
    }

    /** A pool holding what {@link #export()} gave, files read back as files. */
    public static VariablePool restore(Map<String, ? extends Map<String, ?>> exported) {
        VariablePool pool = new VariablePool(null);
        exported.forEach((nodeId, variables) -> variables.forEach((name, value) ->
                pool.set(nodeId, name, revived(value))));
        return pool;
    }

    private static Object plain(Object value) {
        if (value instanceof FileValue file) {
            return file.asMap();
        }
        if (value instanceof List<?> list) {
            return list.stream().map(VariablePool::plain).toList();
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new java.util.LinkedHashMap<>();
            map.forEach((key, item) -> copy.put(String.valueOf(key), plain(item)));
            return copy;
        }
        return value;
    }

    private static Object revived(Object value) {
        if (FileValue.isFileMap(value)) {
            return FileValue.fromMap((Map<?, ?>) value);
        }
        if (value instanceof List<?> list) {
            List<Object> items = new java.util.ArrayList<>(list.size());
            list.forEach(item -> items.add(revived(item)));
            return items;
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new java.util.LinkedHashMap<>();
            map.forEach((key, item) -> copy.put(String.valueOf(key), revived(item)));
            return copy;
        }
        return value;
    }

    /** A pool whose writes stay its own while reads fall through to this one. */
    public VariablePool fork() {
        return new VariablePool(this);
    }

    /**
     * Sets a variable in this pool; a conversation variable is the run's, so a fork (an iteration's round) writes
     * it through to the pool the run began with.
     */
    public void set(String nodeId, String name, Object value) {
        if (parent != null && VariableSelector.CONVERSATION.equals(nodeId)) {
            parent.set(nodeId, name, value);
            return;
        }
        Object normalized = Values.normalize(value);
        values.computeIfAbsent(nodeId, id -> new ConcurrentHashMap<>()).put(name, normalized == null ? NULL : normalized);
    }

    public void setAll(String nodeId, Map<String, ?> outputs) {
        outputs.forEach((name, value) -> set(nodeId, name, value));
    }

    public void set(VariableSelector selector, Object value) {
        if (!selector.rest().isEmpty()) {
            throw new IllegalArgumentException("only a whole variable can be set, not " + selector);
        }
        set(selector.nodeId(), selector.variable(), value);
    }

    /** Whether the variable itself (not a path below it) exists, even holding null. */
    public boolean has(String nodeId, String name) {
        Map<String, Object> node = values.get(nodeId);
        if (node != null && node.containsKey(name)) {
            return true;
        }
        return parent != null && parent.has(nodeId, name);
    }

    /** The value at the selector, walking object keys and file attributes; empty when nothing is there. */
    public Optional<Object> get(VariableSelector selector) {
        Optional<Object> value = variable(selector.nodeId(), selector.variable());
        for (String step : selector.rest()) {
            if (value.isEmpty()) {
                return value;
            }
            Object current = value.get();
            if (current instanceof Map<?, ?> map) {
                value = Optional.ofNullable(map.get(step));
            } else if (current instanceof FileValue file) {
                value = file.attribute(step);
            } else {
                return Optional.empty();
            }
        }
        return value;
    }

    private Optional<Object> variable(String nodeId, String name) {
        Map<String, Object> node = values.get(nodeId);
        if (node != null) {
            Object value = node.get(name);
            if (value != null) {
                return value == NULL ? Optional.empty() : Optional.of(value);
            }
        }
        return parent == null ? Optional.empty() : parent.variable(nodeId, name);
    }

    /**
     * Replaces every {@code {{#node.var#}}} in the text with the text of its value, as Dify's convert_template
     * does; a reference to nothing leaves its inner text ({@code node.var}) in place.
     */
    public String render(String template) {
        if (template == null || template.indexOf("{{#") < 0) {
            return template;
        }
        Matcher matcher = REFERENCE.matcher(template);
        StringBuilder out = new StringBuilder(template.length());
        int last = 0;
        while (matcher.find()) {
            out.append(template, last, matcher.start());
            String dotted = matcher.group(1);
            Optional<Object> value = get(VariableSelector.ofDotted(dotted));
            out.append(value.isPresent() || has(dotted) ? Values.text(value.orElse(null)) : dotted);
            last = matcher.end();
        }
        return out.append(template, last, template.length()).toString();
    }

    private boolean has(String dotted) {
        VariableSelector selector = VariableSelector.ofDotted(dotted);
        return selector.rest().isEmpty() && has(selector.nodeId(), selector.variable());
    }

    /** The selectors of the references in a text, for validation. */
    public static List<VariableSelector> references(String template) {
        if (template == null) {
            return List.of();
        }
        Matcher matcher = REFERENCE.matcher(template);
        java.util.ArrayList<VariableSelector> found = new java.util.ArrayList<>();
        while (matcher.find()) {
            found.add(VariableSelector.ofDotted(matcher.group(1)));
        }
        return found;
    }
}
