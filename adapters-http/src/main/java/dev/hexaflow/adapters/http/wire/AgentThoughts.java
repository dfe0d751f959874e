package dev.hexaflow.adapters.http.wire;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.adapters.http.support.ResponseBodies;
import dev.hexaflow.domain.workflow.RunEvent;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * An agent-chat turn's {@code agent_thought} payloads, one per round of its agent, read from the agent's log as it
 * ends each entry: the round's text is the thought, its tools are {@code tool} (joined by {@code ;}), their inputs
 * and answers {@code tool_input} and {@code observation} (JSON objects by tool name), as Dify's agent runners keep
 * a MessageAgentThought.
 */
final class AgentThoughts {

    private static final ObjectMapper JSON = ResponseBodies.jsonMapper();
    private static final String ROUND = "ROUND ";

    private final String messageId;
    /** The inputs of each round's tool calls, by the round's log id, as its calls end. */
    private final Map<String, Map<String, Object>> inputs = new HashMap<>();

    AgentThoughts(String messageId) {
        this.messageId = messageId;
    }

    /** The thought's fields (after the frame's head), when the entry ends a round. */
    synchronized Optional<Map<String, Object>> of(RunEvent.AgentLogged logged) {
        if ("start".equals(logged.status())) {
            return Optional.empty();
        }
        Map<String, Object> output = logged.data().get("output") instanceof Map<?, ?> map
                ? copy(map) : Map.of();
        if (logged.label().startsWith("CALL ") && logged.parentId() != null) {
            inputs.computeIfAbsent(logged.parentId(), round -> new LinkedHashMap<>())
                    .put(String.valueOf(output.get("tool_call_name")), output.get("tool_call_input"));
            return Optional.empty();
        }
        if (logged.parentId() != null || !logged.label().startsWith(ROUND)) {
            return Optional.empty();
        }
        Map<String, Object> called = inputs.getOrDefault(logged.id(), Map.of());
        Map<String, Object> observed = new LinkedHashMap<>();
        if (output.get("tool_responses") instanceof List<?> responses) {
            for (Object response : responses) {
                if (response instanceof Map<?, ?> answer) {
                    observed.put(String.valueOf(answer.get("tool_call_name")), answer.get("tool_response"));
                }
            }
        }
        Map<String, Object> thought = new LinkedHashMap<>();
        thought.put("id", UUID.nameUUIDFromBytes((messageId + "|" + logged.nodeExecutionId() + "|" + logged.id())
                .getBytes(StandardCharsets.UTF_8)).toString());
        thought.put("position", position(logged.label()));
        thought.put("thought", output.get("llm_response") == null ? "" : String.valueOf(output.get("llm_response")));
        thought.put("observation", observed.isEmpty() ? "" : json(observed));
        thought.put("tool", String.join(";", called.isEmpty() ? observed.keySet() : called.keySet()));
        thought.put("tool_labels", Map.of());
        thought.put("tool_input", called.isEmpty() ? "" : json(called));
        thought.put("message_files", List.of());
        return Optional.of(thought);
    }

    private static int position(String label) {
        try {
            return Integer.parseInt(label.substring(ROUND.length()).strip());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static Map<String, Object> copy(Map<?, ?> map) {
        Map<String, Object> copy = new LinkedHashMap<>();
        map.forEach((key, value) -> copy.put(String.valueOf(key), value));
        return copy;
    }

    private static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a log's plain values always write as JSON", e);
        }
    }
}
