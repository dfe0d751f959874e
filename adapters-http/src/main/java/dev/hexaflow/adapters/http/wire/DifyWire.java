package dev.hexaflow.adapters.http.wire;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.adapters.http.support.ResponseBodies;
import dev.hexaflow.domain.workflow.ExecutionMetadata;
import dev.hexaflow.domain.workflow.FileValue;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeExecution;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Run events and results as Dify's Service API sends them: the streaming envelope
 * {@code {"event", "workflow_run_id", "task_id", "data"}}, each payload with Dify's field names, containers as
 * iteration_* and loop_* events, and the blocking WorkflowCompletionResponse.
 */
public final class DifyWire {

    private static final ObjectMapper JSON = ResponseBodies.jsonMapper();

    private DifyWire() {
    }

    /** One server-sent event frame: {@code data: <json>\n\n}. */
    public static String frame(Map<String, Object> event) {
        return "data: " + json(event) + "\n\n";
    }

    public static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not writable as JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** The blocking answer: {@code {"workflow_run_id", "task_id", "data": WorkflowFinishedData}}. */
    public static Map<String, Object> completion(WorkflowRun run, String taskId) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("task_id", taskId);
        body.put("workflow_run_id", run.id());
        body.put("data", finishedData(run));
        return body;
    }

    /** The stream event for a run event. */
    public static Map<String, Object> event(RunEvent event, String runId, String taskId) {
        if (HumanInputWire.writes(event)) {
            return HumanInputWire.event(event, runId, taskId);
        }
        if (event instanceof RunEvent.TtsMessage tts) {
            return speech("tts_message", runId, taskId, tts.messageId(), tts.audio(), tts.createdAt());
        }
        if (event instanceof RunEvent.TtsMessageEnd end) {
            return speech("tts_message_end", runId, taskId, end.messageId(), "", end.createdAt());
        }
        if (event instanceof RunEvent.TextChunk chunk) {
            Map<String, Object> data = new LinkedHashMap<>();
            data.put("text", chunk.text());
            data.put("from_variable_selector", chunk.fromVariableSelector());
            return envelope("text_chunk", runId, taskId, data);
        }
        if (event instanceof RunEvent.ReasoningChunk chunk) {
            return envelope("reasoning_chunk", runId, taskId, reasoningData(chunk, null));
        }
        if (event instanceof RunEvent.WorkflowStarted started) {
            return envelope("workflow_started", runId, taskId, startedData(started.run()));
        }
        if (event instanceof RunEvent.WorkflowFinished finished) {
            return envelope("workflow_finished", runId, taskId, finishedData(finished.run()));
        }
        if (event instanceof RunEvent.NodeStarted started) {
            return envelope("node_started", runId, taskId, nodeData(started.execution(), false));
        }
        if (event instanceof RunEvent.NodeFinished finished) {
            return envelope("node_finished", runId, taskId, nodeData(finished.execution(), true));
        }
        if (event instanceof RunEvent.NodeRetried retried) {
            Map<String, Object> data = nodeData(retried.attempt(), true);
            data.put("retry_index", retried.retryIndex());
            return envelope("node_retry", runId, taskId, data);
        }
        if (event instanceof RunEvent.AgentLogged logged) {
            return envelope("agent_log", runId, taskId, agentLog(logged));
        }
        return containerEvent(event, runId, taskId);
    }

    /**
     * A {@code reasoning_chunk}'s data as Dify sends it: the message it belongs to (none in a workflow app), the
     * piece of reasoning, the LLM node, and whether it is the node's last.
     */
    public static Map<String, Object> reasoningData(RunEvent.ReasoningChunk chunk, String messageId) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("message_id", messageId);
        data.put("reasoning", chunk.reasoning());
        data.put("node_id", chunk.nodeId());
        data.put("is_final", chunk.isFinal());
        return data;
    }

    /** An iteration's or a loop's event: started, on to its next round, or completed. */
    private static Map<String, Object> containerEvent(RunEvent event, String runId, String taskId) {
        if (event instanceof RunEvent.ContainerStarted started) {
            Map<String, Object> data = containerData(started.executionId(), started.node());
            data.put("created_at", started.createdAt());
            data.put("extras", Map.of());
            data.put("metadata", Map.of());
            data.put("inputs", wire(started.inputs()));
            return envelope(prefix(started.node()) + "_started", runId, taskId, data);
        }
        if (event instanceof RunEvent.ContainerNext next) {
            Map<String, Object> data = containerData(next.executionId(), next.node());
            data.put("index", next.round());
            data.put("created_at", next.createdAt());
            data.put("extras", Map.of());
            return envelope(prefix(next.node()) + "_next", runId, taskId, data);
        }
        RunEvent.ContainerCompleted done = (RunEvent.ContainerCompleted) event;
        Map<String, Object> data = containerData(done.executionId(), done.node());
        data.put("outputs", wire(done.outputs()));
        data.put("created_at", done.createdAt());
        data.put("extras", Map.of());
        data.put("inputs", wire(done.inputs()));
        data.put("status", done.status().wireName());
        data.put("error", done.error());
        data.put("elapsed_time", done.elapsedTime());
        data.put("total_tokens", done.totalTokens());
        data.put("execution_metadata", Map.of("total_tokens", done.totalTokens()));
        data.put("finished_at", done.finishedAt());
        data.put("steps", done.steps());
        return envelope(prefix(done.node()) + "_completed", runId, taskId, data);
    }

    /** The workflow_started payload. */
    private static Map<String, Object> startedData(WorkflowRun run) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("id", run.id());
        data.put("workflow_id", run.workflowId());
        data.put("sequence_number", 1);
        data.put("inputs", wire(run.inputs()));
        data.put("created_at", run.createdAt());
        return data;
    }

    private static Map<String, Object> speech(String kind, String runId, String taskId, String messageId,
            String audio, long createdAt) {
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("event", kind);
        event.put("workflow_run_id", runId);
        event.put("task_id", taskId);
        event.put("message_id", messageId);
        event.put("created_at", createdAt);
        event.put("audio", audio);
        return event;
    }

    /** Dify's AgentLogStreamResponse.Data, its fields in Dify's order. */
    private static Map<String, Object> agentLog(RunEvent.AgentLogged logged) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("node_execution_id", logged.nodeExecutionId());
        data.put("id", logged.id());
        data.put("label", logged.label());
        data.put("parent_id", logged.parentId());
        data.put("error", logged.error());
        data.put("status", logged.status());
        data.put("data", wire(logged.data()));
        data.put("metadata", wire(logged.metadata()));
        data.put("node_id", logged.nodeId());
        return data;
    }

    private static String prefix(Node node) {
        return node.type().wireName();
    }

    private static Map<String, Object> envelope(String kind, String runId, String taskId, Map<String, Object> data) {
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("event", kind);
        event.put("workflow_run_id", runId);
        event.put("task_id", taskId);
        event.put("data", data);
        return event;
    }

    /** WorkflowFinishedData. */
    public static Map<String, Object> finishedData(WorkflowRun run) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("id", run.id());
        data.put("workflow_id", run.workflowId());
        data.put("status", run.status().wireName());
        data.put("outputs", wire(run.outputs()));
        data.put("error", run.error());
        data.put("elapsed_time", run.elapsedTime());
        data.put("total_tokens", run.totalTokens());
        data.put("total_steps", run.totalSteps());
        data.put("created_by", Map.of());
        data.put("created_at", run.createdAt());
        data.put("finished_at", run.finishedAt());
        data.put("exceptions_count", run.exceptionsCount());
        data.put("files", List.of());
        return data;
    }

    /** A node execution as kept, as Dify's console lists it: the node_finished data, whatever its status. */
    public static Map<String, Object> nodeExecution(NodeExecution execution) {
        return nodeData(execution, true);
    }

    private static Map<String, Object> nodeData(NodeExecution execution, boolean finished) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("id", execution.id());
        data.put("node_id", execution.nodeId());
        data.put("node_type", execution.nodeType().wireName());
        data.put("title", execution.title());
        data.put("index", execution.index());
        data.put("predecessor_node_id", execution.predecessorNodeId());
        data.put("inputs", finished ? wire(execution.inputs()) : null);
        if (finished) {
            data.put("process_data", wire(execution.processData()));
            data.put("outputs", wire(execution.outputs()));
            data.put("status", execution.status().wireName());
            data.put("error", execution.error());
            data.put("elapsed_time", execution.elapsedTime());
            data.put("execution_metadata", metadata(execution.metadata()));
        }
        data.put("created_at", execution.createdAt());
        if (finished) {
            data.put("finished_at", execution.finishedAt());
            data.put("files", List.of());
        } else {
            data.put("extras", Map.of());
        }
        data.put("iteration_id", execution.metadata().iterationId());
        data.put("loop_id", execution.metadata().loopId());
        return data;
    }

    private static Map<String, Object> metadata(ExecutionMetadata metadata) {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("total_tokens", metadata.totalTokens());
        map.put("total_price", metadata.totalPrice());
        map.put("currency", metadata.currency());
        if (metadata.iterationId() != null) {
            map.put("iteration_id", metadata.iterationId());
            map.put("iteration_index", metadata.iterationIndex());
        }
        if (metadata.loopId() != null) {
            map.put("loop_id", metadata.loopId());
            map.put("loop_index", metadata.loopIndex());
        }
        if (!metadata.agentLog().isEmpty()) {
            map.put("agent_log", wire(metadata.agentLog()));
        }
        return map;
    }

    private static Map<String, Object> containerData(String executionId, Node node) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("id", executionId);
        data.put("node_id", node.id());
        data.put("node_type", node.type().wireName());
        data.put("title", node.title());
        return data;
    }

    /** Workflow values with files as Dify's file dicts. */
    @SuppressWarnings("unchecked")
    public static <T> T wire(T value) {
        if (value instanceof FileValue file) {
            return (T) file.asMap();
        }
        if (value instanceof Map<?, ?> map) {
            Map<Object, Object> copy = new LinkedHashMap<>();
            map.forEach((k, v) -> copy.put(k, wire(v)));
            return (T) copy;
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>(list.size());
            list.forEach(item -> copy.add(wire(item)));
            return (T) copy;
        }
        return value;
    }
}
