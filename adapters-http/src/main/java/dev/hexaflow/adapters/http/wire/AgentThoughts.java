package dev.hexaflow.adapters.http.wire;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.adapters.http.support.ResponseBodies;
import dev.hexaflow.domain.chat.AgentThought;
import dev.hexaflow.domain.workflow.RunEvent;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An agent-chat turn's {@code agent_thought}s in Dify's shape, one per round of its agent: streamed as each round
 * ends (read from the agent's log by the domain's collector, so the ids are those the message keeps), and listed
 * with the message by {@code GET /v1/messages}. Tools are joined by {@code ;}; their inputs and answers are JSON
 * objects by tool name, as text.
 */
final class AgentThoughts {

    private static final ObjectMapper JSON = ResponseBodies.jsonMapper();

    private final AgentThought.Collector collector;

    AgentThoughts(String messageId) {
        this.collector = new AgentThought.Collector(messageId, List.of());
    }

    /** The thought's fields (after the frame's head), when the entry ends a round. */
    Optional<Map<String, Object>> of(RunEvent.AgentLogged logged) {
        return collector.add(logged, Instant.now().getEpochSecond()).map(thought -> {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("id", thought.id());
            body.put("position", thought.position());
            body.put("thought", thought.thought());
            body.put("observation", text(thought.observation()));
            body.put("tool", thought.tool());
            body.put("tool_labels", Map.of());
            body.put("tool_input", text(thought.toolInput()));
            body.put("message_files", List.of());
            return body;
        });
    }

    /** A kept thought as Dify's message list answers it (its agent_thought_fields). */
    static Map<String, Object> listed(AgentThought thought, String messageId) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", thought.id());
        body.put("chain_id", null);
        body.put("message_id", messageId);
        body.put("position", thought.position());
        body.put("thought", thought.thought());
        body.put("tool", thought.tool());
        body.put("tool_labels", Map.of());
        body.put("tool_input", text(thought.toolInput()));
        body.put("created_at", thought.createdAt());
        body.put("observation", text(thought.observation()));
        body.put("files", List.of());
        return body;
    }

    private static String text(Map<String, Object> byTool) {
        if (byTool.isEmpty()) {
            return "";
        }
        try {
            return JSON.writeValueAsString(byTool);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a log's plain values always write as JSON", e);
        }
    }
}
