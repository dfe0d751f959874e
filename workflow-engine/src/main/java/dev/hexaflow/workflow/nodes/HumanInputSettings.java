package dev.hexaflow.workflow.nodes;

import dev.hexaflow.domain.workflow.DataTree;
import dev.hexaflow.domain.workflow.InvalidNodeDataException;
import dev.hexaflow.domain.workflow.VariablePool;
import dev.hexaflow.domain.workflow.VariableSelector;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/** A human-input node's data, read and checked once: its content, inputs, actions, deliveries and timeout. */
record HumanInputSettings(String content, List<DataTree> inputs, List<Map<String, Object>> actions,
        List<Map<String, Object>> deliveryMethods, long timeoutSeconds) {

    private static final Pattern ACTION_ID = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,19}");
    private static final Set<String> INPUT_TYPES = Set.of("text_input", "paragraph", "select", "file", "file-list");
    private static final long HOUR = 3600;


    static HumanInputSettings read(DataTree data) {
        List<DataTree> inputs = data.trees("inputs");
        Set<String> names = new LinkedHashSet<>();
        for (DataTree input : inputs) {
            String type = input.string("type", "");
            if (!INPUT_TYPES.contains(type)) {
                throw new InvalidNodeDataException("inputs", "unknown form input type '" + type + "'");
            }
            String name = input.string("output_variable_name", "");
            if (!name.matches("[a-zA-Z_][a-zA-Z0-9_]{0,29}")) {
                throw new InvalidNodeDataException("inputs", "'" + name + "' is not a valid output variable name");
            }
            if (!names.add(name)) {
                throw new InvalidNodeDataException("inputs", "duplicated output_variable_name '" + name + "'");
            }
        }
        return new HumanInputSettings(data.string("form_content", ""), inputs, actions(data),
                data.trees("delivery_methods").stream().map(DataTree::asMap).toList(), timeout(data));
    }

    private static List<Map<String, Object>> actions(DataTree data) {
        List<Map<String, Object>> actions = new ArrayList<>();
        Set<String> ids = new LinkedHashSet<>();
        for (DataTree action : data.trees("user_actions")) {
            String id = action.string("id", "");
            if (!ACTION_ID.matcher(id).matches()) {
                throw new InvalidNodeDataException("user_actions", "'" + id + "' is not a valid identifier. It "
                        + "must start with a letter or underscore, and contain only letters, numbers, or "
                        + "underscores.");
            }
            if (!ids.add(id)) {
                throw new InvalidNodeDataException("user_actions", "duplicated user action id '" + id + "'");
            }
            Map<String, Object> shown = new LinkedHashMap<>();
            shown.put("id", id);
            shown.put("title", action.string("title", id));
            shown.put("button_style", action.string("button_style", "default"));
            actions.add(shown);
        }
        return actions;
    }

    /** Dify's default is 36 hours; the unit is hour or day. */
    private static long timeout(DataTree data) {
        long amount = data.longValue("timeout", 36);
        String unit = data.string("timeout_unit", "hour");
        if (amount <= 0 || !(unit.equals("hour") || unit.equals("day"))) {
            throw new InvalidNodeDataException("timeout", "a form's timeout is a positive number of hours or days");
        }
        return amount * (unit.equals("day") ? 24 * HOUR : HOUR);
    }

    Set<String> inputNames() {
        Set<String> names = new LinkedHashSet<>();
        inputs.forEach(input -> names.add(input.string("output_variable_name")));
        return names;
    }

    /** The run's variables the content shows and the defaults and options that come from variables. */
    List<VariableSelector> references() {
        List<VariableSelector> references = new ArrayList<>(VariablePool.references(content));
        for (DataTree input : inputs) {
            for (String key : List.of("default", "option_source")) {
                if (input.has(key) && input.get(key) != null
                        && "variable".equals(input.tree(key).string("type", "constant"))) {
                    references.add(input.tree(key).selector("selector"));
                }
            }
        }
        return references;
    }
}
