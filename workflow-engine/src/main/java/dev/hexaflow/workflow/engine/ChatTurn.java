package dev.hexaflow.workflow.engine;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One message of a conversation with a chatflow, as the engine needs it: the user's query ({@code sys.query}),
 * the conversation's id and how many turns it holds with this one ({@code sys.dialogue_count}, 1 on the first),
 * its conversation variables as it holds them (name to value; a variable it does not hold starts from the DSL's
 * default, so an empty map is a new conversation) and its earlier turns, oldest first, for LLM memory.
 *
 * @param messageId the message this turn answers, kept with a pause so that whoever keeps the chat finds the
 *                  message again when the run goes on; null when no message is kept
 */
public record ChatTurn(String query, String conversationId, int dialogueCount,
        Map<String, Object> conversationVariables, List<PastMessage> history, String messageId) {

    public ChatTurn(String query, String conversationId, int dialogueCount,
            Map<String, Object> conversationVariables, List<PastMessage> history) {
        this(query, conversationId, dialogueCount, conversationVariables, history, null);
    }

    public ChatTurn {
        query = query == null ? "" : query;
        conversationId = conversationId == null ? "" : conversationId;
        if (dialogueCount < 1) {
            throw new IllegalArgumentException("dialogueCount counts this turn too, so it is at least 1, not "
                    + dialogueCount);
        }
        conversationVariables = conversationVariables == null ? Map.of()
                : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(conversationVariables));
        history = history == null ? List.of() : List.copyOf(history);
    }

    /** The same turn, answering the message of that id. */
    public ChatTurn withMessageId(String id) {
        return new ChatTurn(query, conversationId, dialogueCount, conversationVariables, history, id);
    }

    /** The first turn of a new conversation: no variables held yet, no history. */
    public static ChatTurn first(String query, String conversationId) {
        return new ChatTurn(query, conversationId, 1, Map.of(), List.of());
    }

    /** A turn a chatflow gets when a workflow client calls it: no query, the DSL's defaults. */
    static ChatTurn none() {
        return new ChatTurn("", "", 1, Map.of(), List.of());
    }

    /** An earlier turn of the conversation: what the user asked and what the chatflow answered. */
    public record PastMessage(String query, String answer) {
        public PastMessage {
            query = query == null ? "" : query;
            answer = answer == null ? "" : answer;
        }
    }
}
