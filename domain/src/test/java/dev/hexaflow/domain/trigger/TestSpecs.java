package dev.hexaflow.domain.trigger;

import dev.hexaflow.domain.workflow.DataTree;
import java.util.LinkedHashMap;
import java.util.Map;

/** Node data for a webhook trigger, written as the DSL has it. */
final class TestSpecs {

    private TestSpecs() {
    }

    static WebhookSpec spec(Object... keysAndValues) {
        return WebhookSpec.of(data(keysAndValues));
    }

    static DataTree data(Object... keysAndValues) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("type", "trigger-webhook");
        for (int i = 0; i < keysAndValues.length; i += 2) {
            data.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return DataTree.of(data);
    }

    static Map<String, Object> param(String name, String type, boolean required) {
        return Map.of("name", name, "type", type, "required", required);
    }
}
