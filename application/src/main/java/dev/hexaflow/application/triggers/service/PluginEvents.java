package dev.hexaflow.application.triggers.service;

import dev.hexaflow.domain.trigger.WebhookCall;
import dev.hexaflow.domain.trigger.WebhookRefusal;
import dev.hexaflow.domain.trigger.WebhookSpec;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A third party's event, sent to the webhook a plugin trigger is bound to: a JSON object whose members are the
 * event's variables, the outputs the plugin's own parser would have given the node.
 */
final class PluginEvents {

    /** What a plugin trigger's webhook answers an event it took: Dify's default answer of a webhook. */
    static final WebhookSpec.Response ACCEPTED = new WebhookSpec.Response(200, accepted(), null);

    private static Map<String, Object> accepted() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", "success");
        body.put("message", "Webhook processed successfully");
        return body;
    }

    private PluginEvents() {
    }

    static Map<String, Object> variables(WebhookCall call) {
        if (!(call.body() instanceof Map<?, ?> event)) {
            throw new WebhookRefusal(400, "A plugin trigger's event is a JSON object of its variables");
        }
        Map<String, Object> variables = new LinkedHashMap<>();
        event.forEach((name, value) -> variables.put(String.valueOf(name), value));
        return variables;
    }
}
