package dev.hexaflow.domain.chat;

import dev.hexaflow.domain.workflow.RunEvent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * One round of an agent-chat turn's agent, as Dify keeps a MessageAgentThought: the round's text, the tools it
 * called (joined by {@code ;}), their inputs and answers by tool name. Kept with its message, so that
 * {@code GET /v1/messages} shows the thoughts the stream showed, under the same ids.
 *
 * @param position    the round's number, from 1
 * @param toolInput   each called tool's input, by tool name
 * @param observation each called tool's answer, by tool name
 * @param createdAt   Unix seconds
 */
public record AgentThought(String id, int position, String thought, String tool, Map<String, Object> toolInput,
        Map<String, Object> observation, long createdAt) {

    public AgentThought {
        Conversation.requireText(id, "agent thought id");
        thought = thought == null ? "" : thought;
        tool = tool == null ? "" : tool;
        toolInput = toolInput == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(toolInput));
        observation = observation == null ? Map.of()
                : Collections.unmodifiableMap(new LinkedHashMap<>(observation));
    }

    /**
     * Reads a turn's thoughts from its agent's log as each entry ends: a tool call's entry (child of a round)
     * gives that round's input, a round's own end gives the thought. One per turn; safe across threads.
     */
    public static final class Collector {

        private static final String ROUND = "ROUND ";

        private final String messageId;
        private final Map<String, Map<String, Object>> inputs = new HashMap<>();
        private final List<AgentThought> thoughts = new ArrayList<>();

        public Collector(String messageId, List<AgentThought> earlier) {
            this.messageId = messageId;
            thoughts.addAll(earlier);
        }

        /** The thought the entry ends, when it ends a round; kept among the turn's. */
        public synchronized Optional<AgentThought> add(RunEvent.AgentLogged logged, long now) {
            if ("start".equals(logged.status())) {
                return Optional.empty();
            }
            Map<String, Object> output = logged.data().get("output") instanceof Map<?, ?> map ? copy(map) : Map.of();
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
            // The same id on the stream and in the store: named from the message, the node run and the entry.
            String id = UUID.nameUUIDFromBytes((messageId + "|" + logged.nodeExecutionId() + "|" + logged.id())
                    .getBytes(StandardCharsets.UTF_8)).toString();
            Object text = output.get("llm_response");
            AgentThought thought = new AgentThought(id, position(logged.label()), text == null ? "" : text.toString(),
                    String.join(";", called.isEmpty() ? observed.keySet() : called.keySet()), called, observed, now);
            thoughts.add(thought);
            return Optional.of(thought);
        }

        /** The turn's thoughts so far, by position. */
        public synchronized List<AgentThought> thoughts() {
            List<AgentThought> sorted = new ArrayList<>(thoughts);
            sorted.sort((a, b) -> Integer.compare(a.position(), b.position()));
            return List.copyOf(sorted);
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
    }
}
