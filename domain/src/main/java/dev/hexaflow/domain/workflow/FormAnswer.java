package dev.hexaflow.domain.workflow;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What came of a paused node's form: the action a person chose with the inputs they gave, or the form's time
 * running out (then no action: the node takes its {@code __timeout} branch). It carries the form as it was sent,
 * whose content and expiry the node reports.
 */
public record FormAnswer(HumanInputForm form, String actionId, Map<String, Object> inputs, boolean timedOut) {

    /** The source handle Dify's human-input node takes when its form expires. */
    public static final String TIMEOUT_HANDLE = "__timeout";

    public FormAnswer {
        if (form == null) {
            throw new IllegalArgumentException("an answer belongs to a form");
        }
        if (!timedOut && (actionId == null || actionId.isEmpty())) {
            throw new IllegalArgumentException("an answer names its action");
        }
        inputs = inputs == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(inputs));
    }

    public static FormAnswer submitted(HumanInputForm form, String actionId, Map<String, Object> inputs) {
        return new FormAnswer(form, actionId, inputs, false);
    }

    public static FormAnswer timedOut(HumanInputForm form) {
        return new FormAnswer(form, null, Map.of(), true);
    }

    public String nodeId() {
        return form.nodeId();
    }

    /** The edge handle the node goes on by. */
    public String handle() {
        return timedOut ? TIMEOUT_HANDLE : actionId;
    }
}
