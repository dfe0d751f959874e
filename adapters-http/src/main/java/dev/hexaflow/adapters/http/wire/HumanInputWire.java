package dev.hexaflow.adapters.http.wire;

import dev.hexaflow.domain.workflow.HumanInputForm;
import dev.hexaflow.domain.workflow.KeptForm;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A paused run on Dify's wire: {@code human_input_required}, {@code workflow_paused} (its reasons, one per form the
 * run waits on), {@code human_input_form_filled}, {@code human_input_form_timeout}, a resumed run's
 * {@code workflow_started} (reason {@code resumption}), a form as {@code GET /v1/form/human_input/{token}} shows it
 * and the blocking answer of a run that paused.
 */
public final class HumanInputWire {

    private HumanInputWire() {
    }

    /** Whether the event is one of a pause's, written here. */
    static boolean writes(RunEvent event) {
        return event instanceof RunEvent.HumanInputRequired || event instanceof RunEvent.WorkflowPaused
                || event instanceof RunEvent.WorkflowResumed || event instanceof RunEvent.HumanInputFormFilled
                || event instanceof RunEvent.HumanInputFormTimeout;
    }

    static Map<String, Object> event(RunEvent event, String runId, String taskId) {
        if (event instanceof RunEvent.HumanInputRequired required) {
            return envelope("human_input_required", runId, taskId, required(required.form()));
        }
        if (event instanceof RunEvent.WorkflowPaused paused) {
            return envelope("workflow_paused", runId, taskId, pausedData(paused.run(), paused.paused().forms()));
        }
        if (event instanceof RunEvent.WorkflowResumed resumed) {
            Map<String, Object> data = new LinkedHashMap<>();
            data.put("id", resumed.run().id());
            data.put("workflow_id", resumed.run().workflowId());
            data.put("inputs", DifyWire.wire(resumed.run().inputs()));
            data.put("created_at", resumed.run().createdAt());
            data.put("reason", "resumption");
            return envelope("workflow_started", runId, taskId, data);
        }
        if (event instanceof RunEvent.HumanInputFormFilled filled) {
            Map<String, Object> data = new LinkedHashMap<>();
            data.put("node_id", filled.nodeId());
            data.put("node_title", filled.nodeTitle());
            data.put("rendered_content", filled.renderedContent());
            data.put("action_id", filled.actionId());
            data.put("action_text", filled.actionText());
            data.put("submitted_data", DifyWire.wire(filled.submittedData()));
            return envelope("human_input_form_filled", runId, taskId, data);
        }
        RunEvent.HumanInputFormTimeout timeout = (RunEvent.HumanInputFormTimeout) event;
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("node_id", timeout.nodeId());
        data.put("node_title", timeout.nodeTitle());
        data.put("expiration_time", timeout.expirationTime());
        return envelope("human_input_form_timeout", runId, taskId, data);
    }

    /** The data of {@code human_input_required}, Dify's HumanInputFormData. */
    public static Map<String, Object> required(HumanInputForm form) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("form_id", form.formId());
        data.put("node_id", form.nodeId());
        data.put("node_title", form.nodeTitle());
        data.put("form_content", form.formContent());
        data.put("inputs", form.inputs());
        data.put("actions", form.actions());
        data.put("display_in_ui", form.deliveredToWebApp());
        data.put("form_token", form.deliveredToWebApp() ? form.formToken() : null);
        data.put("resolved_default_values", form.resolvedDefaultValues());
        data.put("expiration_time", form.expirationTime());
        return data;
    }

    /** The data of {@code workflow_paused}: the run as it stands and why it waits, a reason per form. */
    public static Map<String, Object> pausedData(WorkflowRun run, List<HumanInputForm> forms) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("workflow_run_id", run.id());
        data.put("paused_nodes", forms.stream().map(HumanInputForm::nodeId).toList());
        data.put("outputs", DifyWire.wire(run.outputs() == null ? Map.of() : run.outputs()));
        data.put("reasons", forms.stream().map(HumanInputWire::reason).toList());
        data.put("status", run.status().wireName());
        data.put("created_at", run.createdAt());
        data.put("elapsed_time", run.elapsedTime());
        data.put("total_tokens", run.totalTokens());
        data.put("total_steps", run.totalSteps());
        return data;
    }

    /** A reason the run waits, Dify's PauseReasonResponse of a form. */
    static Map<String, Object> reason(HumanInputForm form) {
        Map<String, Object> reason = new LinkedHashMap<>();
        reason.put("TYPE", "human_input_required");
        reason.putAll(required(form));
        return reason;
    }

    /** The blocking answer of a run that paused: its detail with the nodes it waits at and why. */
    public static Map<String, Object> pausedCompletion(WorkflowRun run, String taskId, List<KeptForm> waiting) {
        Map<String, Object> data = DifyWire.finishedData(run);
        List<HumanInputForm> forms = waiting.stream().map(KeptForm::form).toList();
        data.put("paused_nodes", forms.stream().map(HumanInputForm::nodeId).toList());
        data.put("reasons", forms.stream().map(HumanInputWire::reason).toList());
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("task_id", taskId);
        body.put("workflow_run_id", run.id());
        body.put("data", data);
        return body;
    }

    /** A form as {@code GET /v1/form/human_input/{token}} answers it. */
    public static Map<String, Object> form(KeptForm kept) {
        HumanInputForm form = kept.form();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("form_content", form.formContent());
        body.put("inputs", form.inputs());
        body.put("resolved_default_values", form.resolvedDefaultValues());
        body.put("user_actions", form.actions());
        body.put("expiration_time", form.expirationTime());
        return body;
    }

    /** Hexaflow's listing of a waiting form: where it waits, and the form as the stream showed it. */
    public static Map<String, Object> waiting(KeptForm kept) {
        Map<String, Object> item = new LinkedHashMap<>();
        item.put("workflow_run_id", kept.form().runId());
        item.put("created_at", kept.createdAt());
        item.putAll(required(kept.form()));
        return item;
    }

    private static Map<String, Object> envelope(String kind, String runId, String taskId, Map<String, Object> data) {
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("event", kind);
        event.put("workflow_run_id", runId);
        event.put("task_id", taskId);
        event.put("data", data);
        return event;
    }
}
