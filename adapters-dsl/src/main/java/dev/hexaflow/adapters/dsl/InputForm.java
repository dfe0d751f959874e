package dev.hexaflow.adapters.dsl;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@code model_config.user_input_form} as a start node's variables: Dify writes each field as a one-key
 * mapping, its type the key ({@code {text-input: {variable, label, required, max_length, default}}}); the start
 * node holds the same field with its type inside.
 */
final class InputForm {

    private InputForm() {
    }

    static List<Map<String, Object>> variables(Map<String, Object> config) {
        List<Map<String, Object>> variables = new ArrayList<>();
        if (!(config.get("user_input_form") instanceof List<?> form)) {
            return variables;
        }
        for (Object entry : form) {
            if (!(entry instanceof Map<?, ?> field) || field.size() != 1) {
                continue;
            }
            Map.Entry<?, ?> only = field.entrySet().iterator().next();
            if (!(only.getValue() instanceof Map<?, ?> settings)) {
                continue;
            }
            Map<String, Object> variable = new LinkedHashMap<>();
            settings.forEach((key, value) -> variable.put(String.valueOf(key), value));
            variable.put("type", String.valueOf(only.getKey()));
            variables.add(variable);
        }
        return variables;
    }
}
