package dev.hexaflow.domain.workflow;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The form a human-input node sends out when its run pauses, as Dify's {@code human_input_required} event shows
 * it: the node's content with the run's variables filled in (its {@code {{#$output.name#}}} fields left for the
 * person), its inputs and actions as the DSL declares them, each input's default as text, and when it expires.
 * The token opens the form to whoever holds it; it is unguessable and good for one answer.
 *
 * @param expirationTime Unix seconds
 * @param deliveryMethods the node's delivery methods as the DSL declares them (web app, e-mail)
 * @param forwardsTo      the form of a called run this form stands for (a tool node whose app, run as a tool,
 *                        waits for a person): its answer goes to that form; null for a human-input node's own form
 */
public record HumanInputForm(String formId, String formToken, String runId, String nodeId, String nodeTitle,
        String formContent, List<Map<String, Object>> inputs, List<Map<String, Object>> actions,
        Map<String, String> resolvedDefaultValues, long expirationTime, List<Map<String, Object>> deliveryMethods,
        FormRef forwardsTo) {

    /** A form of a run, by the run's id and the form's. */
    public record FormRef(String runId, String formId) {
        public FormRef {
            if (runId == null || formId == null) {
                throw new IllegalArgumentException("a form reference names its run and its form");
            }
        }
    }

    /** A human-input node's own form. */
    public HumanInputForm(String formId, String formToken, String runId, String nodeId, String nodeTitle,
            String formContent, List<Map<String, Object>> inputs, List<Map<String, Object>> actions,
            Map<String, String> resolvedDefaultValues, long expirationTime, List<Map<String, Object>> deliveryMethods) {
        this(formId, formToken, runId, nodeId, nodeTitle, formContent, inputs, actions, resolvedDefaultValues,
                expirationTime, deliveryMethods, null);
    }

    public HumanInputForm {
        if (formId == null || formToken == null || runId == null || nodeId == null) {
            throw new IllegalArgumentException("a form needs its id, token, run and node");
        }
        inputs = inputs == null ? List.of() : List.copyOf(inputs);
        actions = actions == null ? List.of() : List.copyOf(actions);
        resolvedDefaultValues = resolvedDefaultValues == null ? Map.of()
                : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(resolvedDefaultValues));
        deliveryMethods = deliveryMethods == null ? List.of() : List.copyOf(deliveryMethods);
        formContent = formContent == null ? "" : formContent;
        nodeTitle = nodeTitle == null ? "" : nodeTitle;
    }

    /** Whether the node delivers the form through the web app (Dify's {@code webapp} method, enabled). */
    public boolean deliveredToWebApp() {
        return enabled("webapp");
    }

    /** Whether the node sends the form's link by e-mail. */
    public boolean deliveredByEmail() {
        return enabled("email");
    }

    private boolean enabled(String type) {
        return deliveryMethods.stream().anyMatch(method -> type.equals(method.get("type"))
                && !Boolean.FALSE.equals(method.get("enabled")));
    }

    /** The title of the action with this id, or the id where it has none (Dify's {@code find_action_text}). */
    public String actionTitle(String actionId) {
        return actions.stream().filter(action -> actionId.equals(action.get("id")))
                .map(action -> String.valueOf(action.getOrDefault("title", actionId))).findFirst().orElse(actionId);
    }

    /** Whether the node offers an action with this id. */
    public boolean offers(String actionId) {
        return actions.stream().anyMatch(action -> actionId.equals(action.get("id")));
    }
}
