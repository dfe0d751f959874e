package dev.hexaflow.domain.workflow;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What a run tells its listeners as it goes, in Dify's order: started, node events, text, finished. */
public sealed interface RunEvent {

    record WorkflowStarted(WorkflowRun run) implements RunEvent {
    }

    record NodeStarted(NodeExecution execution) implements RunEvent {
    }

    record NodeFinished(NodeExecution execution) implements RunEvent {
    }

    /** A failed attempt of a node with retries left; the next attempt follows. */
    record NodeRetried(NodeExecution attempt, int retryIndex) implements RunEvent {
    }

    /** Text of an end output, or a model's tokens as they arrive. */
    record TextChunk(String text, List<String> fromVariableSelector) implements RunEvent {
        public TextChunk {
            fromVariableSelector = List.copyOf(fromVariableSelector);
        }
    }

    /**
     * A piece of an LLM node's reasoning, kept apart from its text ({@code reasoning_format: separated}), when a
     * response that shows the node's text or reasoning is reached (Dify's {@code reasoning_chunk}); the last of a
     * node's run is {@code isFinal}, and may be empty.
     */
    record ReasoningChunk(String nodeId, String reasoning, boolean isFinal) implements RunEvent {
    }

    /** An iteration or loop container began; Dify sends these instead of node_started for containers. */
    record ContainerStarted(String executionId, Node node, int index, String predecessorNodeId,
            Map<String, Object> inputs, long createdAt) implements RunEvent {
    }

    /** The container begins round {@code round} (0-based). */
    record ContainerNext(String executionId, Node node, int round, long createdAt) implements RunEvent {
    }

    record ContainerCompleted(String executionId, Node node, int index, String predecessorNodeId,
            Map<String, Object> inputs, Map<String, Object> outputs, NodeStatus status, String error,
            double elapsedTime, long totalTokens, int steps, long createdAt, long finishedAt) implements RunEvent {
    }

    /**
     * A chat run's conversation variables as the run leaves them (name to value, every variable the chatflow
     * declares), sent once just before {@link WorkflowFinished}, for the conversation to keep for its next turn.
     */
    record ConversationVariables(Map<String, Object> values) implements RunEvent {
        public ConversationVariables {
            if (values == null) {
                throw new IllegalArgumentException("conversation variables need their values");
            }
            values = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(values));
        }
    }

    record WorkflowFinished(WorkflowRun run) implements RunEvent {
    }

    /**
     * A human-input node sent its form out and waits (Dify's {@code human_input_required}); the run pauses once
     * nothing else can go on.
     */
    record HumanInputRequired(HumanInputForm form) implements RunEvent {
    }

    /**
     * The run paused, in place of {@link WorkflowFinished}: the run as it stands (status {@code paused}), all it needs
     * to go on (with every form it waits on, {@link PausedRun#forms()}), and the forms this stretch of the run sent
     * out (each told before by {@link HumanInputRequired}). The run holds no thread from here; an answer resumes it,
     * on any instance.
     */
    record WorkflowPaused(WorkflowRun run, PausedRun paused, List<HumanInputForm> newForms) implements RunEvent {
        public WorkflowPaused {
            newForms = List.copyOf(newForms);
        }
    }

    /** A paused run goes on (Dify's {@code workflow_started} with reason {@code resumption}). */
    record WorkflowResumed(WorkflowRun run) implements RunEvent {
    }

    /** A paused node's form was answered: what the person chose and gave, and the content with their answers. */
    record HumanInputFormFilled(String nodeId, String nodeTitle, String renderedContent, String actionId,
            String actionText, Map<String, Object> submittedData) implements RunEvent {
    }

    /** A paused node's form expired unanswered: the node takes its timeout branch. */
    record HumanInputFormTimeout(String nodeId, String nodeTitle, long expirationTime) implements RunEvent {
    }

    /** A piece of the run's text as speech (base64 audio), when the app's text_to_speech feature is on. */
    record TtsMessage(String messageId, String audio, long createdAt) implements RunEvent {
    }

    /** The speech is complete. */
    record TtsMessageEnd(String messageId, long createdAt) implements RunEvent {
    }

    /**
     * An entry of an agent node's log as it is written (Dify's {@code agent_log}): a round, a model call or a tool
     * call, sent once with status {@code start} and again, by the same id, when it ends ({@code success} or
     * {@code error}). The execution's {@code agent_log} metadata keeps the ended entries.
     */
    record AgentLogged(String nodeExecutionId, String nodeId, String id, String label, String parentId,
            String status, String error, Map<String, Object> data, Map<String, Object> metadata) implements RunEvent {
        public AgentLogged {
            if (nodeExecutionId == null || nodeId == null || id == null || label == null || status == null) {
                throw new IllegalArgumentException("an agent log entry needs its node execution, node, id, label and "
                        + "status");
            }
            data = data == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(data));
            metadata = metadata == null ? Map.of()
                    : Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
        }
    }
}
