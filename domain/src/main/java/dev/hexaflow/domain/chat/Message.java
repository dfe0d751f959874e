package dev.hexaflow.domain.chat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One turn of a conversation: the user's query and the app's answer, kept from the start of the turn (answer
 * empty, status normal) and completed at its end with what the run gave. Times are Unix seconds.
 *
 * @param parentMessageId    the message this one answers after in its thread, or null
 * @param workflowRunId      the run that answered it (null until the run has an id); a pruned run leaves it
 *                           naming nothing, which the message's history does not need
 * @param latency            seconds from the query to the whole answer
 * @param files              the user's files and the answer's, in Dify's message_files shape
 * @param retrieverResources the knowledge the answer cited, kept as the run gave it
 * @param agentThoughts      an agent's rounds, by position (none for other apps)
 */
public record Message(String id, String conversationId, String appId, String endUserId, String parentMessageId,
        Map<String, Object> inputs, String query, String answer, MessageStatus status, String error,
        String workflowRunId, String taskId, long messageTokens, long answerTokens, double latency,
        List<MessageFile> files, List<Map<String, Object>> retrieverResources, long createdAt,
        List<AgentThought> agentThoughts) {

    public Message {
        Conversation.requireText(id, "message id");
        Conversation.requireText(conversationId, "conversation id");
        Conversation.requireText(appId, "app id");
        Conversation.requireText(endUserId, "end user id");
        inputs = inputs == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(inputs));
        query = query == null ? "" : query;
        answer = answer == null ? "" : answer;
        if (status == null) {
            throw new IllegalArgumentException("a message needs a status");
        }
        if (messageTokens < 0 || answerTokens < 0) {
            throw new IllegalArgumentException("a message's token counts are 0 or more, were " + messageTokens
                    + " and " + answerTokens);
        }
        if (latency < 0) {
            throw new IllegalArgumentException("a message's latency is 0 or more, was " + latency);
        }
        files = files == null ? List.of() : List.copyOf(files);
        retrieverResources = retrieverResources == null ? List.of()
                : Collections.unmodifiableList(new ArrayList<>(retrieverResources));
        agentThoughts = agentThoughts == null ? List.of() : List.copyOf(agentThoughts);
    }

    /** The message as the turn starts: the query and its files, no answer yet. */
    public static Message started(String id, String conversationId, String appId, String endUserId,
            String parentMessageId, Map<String, Object> inputs, String query, List<MessageFile> files,
            String workflowRunId, String taskId, long createdAt) {
        return new Message(id, conversationId, appId, endUserId, parentMessageId, inputs, query, "",
                MessageStatus.NORMAL, null, workflowRunId, taskId, 0, 0, 0, files, List.of(), createdAt, List.of());
    }

    /** The message as its turn ended: the answer and what it cost; the answer's files join the user's. */
    public Message finish(TurnOutcome outcome) {
        List<MessageFile> all = new ArrayList<>(files);
        all.addAll(outcome.answerFiles());
        String runId = outcome.workflowRunId() == null ? workflowRunId : outcome.workflowRunId();
        return new Message(id, conversationId, appId, endUserId, parentMessageId, inputs, query, outcome.answer(),
                outcome.status(), outcome.error(), runId, taskId, outcome.messageTokens(),
                outcome.answerTokens(), outcome.latency(), all, outcome.retrieverResources(), createdAt,
                agentThoughts);
    }

    /** The same message with its files as given (shown at other URLs). */
    public Message withFiles(List<MessageFile> shown) {
        return new Message(id, conversationId, appId, endUserId, parentMessageId, inputs, query, answer, status,
                error, workflowRunId, taskId, messageTokens, answerTokens, latency, shown, retrieverResources,
                createdAt, agentThoughts);
    }

    /** The same message with its agent's rounds as the turn left them. */
    public Message withAgentThoughts(List<AgentThought> thoughts) {
        return new Message(id, conversationId, appId, endUserId, parentMessageId, inputs, query, answer, status,
                error, workflowRunId, taskId, messageTokens, answerTokens, latency, files, retrieverResources,
                createdAt, thoughts);
    }

    /**
     * Whether the message still waits for its turn's end, as far as it shows: normal with no answer yet, or paused
     * (its run waits for a form). A turn under way looks so, and one a crash or a failed write cut off, or whose
     * paused run was ended without going on, until it is ended as {@link #interrupted}.
     */
    public boolean awaitsAnswer() {
        return status == MessageStatus.NORMAL && answer.isEmpty() || status == MessageStatus.PAUSED;
    }

    /**
     * The message of a turn that ended without its answer being kept: an error that says why; what was kept of it
     * before (a paused turn's answer so far) stays.
     */
    public Message interrupted(String error) {
        return finish(new TurnOutcome(answer, MessageStatus.ERROR, error, workflowRunId, messageTokens, answerTokens,
                latency, retrieverResources, List.of()));
    }

    /**
     * What a turn gave: the whole answer, how it ended (an error says why), the run, the tokens of the query
     * and of the answer, the seconds it took, the knowledge cited and the files the answer made.
     */
    public record TurnOutcome(String answer, MessageStatus status, String error, String workflowRunId,
            long messageTokens, long answerTokens, double latency, List<Map<String, Object>> retrieverResources,
            List<MessageFile> answerFiles) {

        public TurnOutcome {
            if (status == null) {
                throw new IllegalArgumentException("a turn's outcome needs a status");
            }
            if (status == MessageStatus.ERROR && (error == null || error.isBlank())) {
                throw new IllegalArgumentException("a turn that ended in error needs the error");
            }
            answerFiles = answerFiles == null ? List.of() : List.copyOf(answerFiles);
            for (MessageFile file : answerFiles) {
                if (!"assistant".equals(file.belongsTo())) {
                    throw new IllegalArgumentException("an answer's file belongs to assistant, " + file.id()
                            + " belongs to " + file.belongsTo());
                }
            }
        }
    }
}
