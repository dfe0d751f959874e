package dev.hexaflow.application.chat.port.in;

import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunObserver;
import dev.hexaflow.domain.chat.Message;
import dev.hexaflow.domain.chat.MessageFile;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * Sends an end user's message to a chatflow: everything is checked before anything starts, as Dify checks it;
 * the turn's conversation and message are kept from the run's start and completed at its end, whoever listens.
 */
public interface SendChatMessageUseCase {

    /**
     * Starts the turn; {@code observer} hears the run's events after the turn has kept what they change.
     *
     * @throws ApiException with Dify's code for a mistake in the request, before anything starts
     */
    ChatUnderWay send(SendChatMessageCommand command, RunObserver observer);

    /**
     * @param conversationId   a conversation of this end user with this app, or blank for a new one
     * @param workflowId       a published version of the app, or null for its newest
     * @param autoGenerateName whether a new conversation is renamed by the model after its first turn
     */
    record SendChatMessageCommand(String appId, String workflowId, String user, String query,
            Map<String, Object> inputs, List<Object> files, String conversationId, boolean autoGenerateName,
            String keyId) {
        public SendChatMessageCommand {
            inputs = inputs == null ? Map.of() : inputs;
            files = files == null ? List.of() : files;
        }

        /** A turn that came with no app key (a web page's, another app's). */
        public SendChatMessageCommand(String appId, String workflowId, String user, String query,
                Map<String, Object> inputs, List<Object> files, String conversationId, boolean autoGenerateName) {
            this(appId, workflowId, user, query, inputs, files, conversationId, autoGenerateName, null);
        }

        /** The same turn, come with the app key of id {@code id} (for the budgets per key). */
        public SendChatMessageCommand withKeyId(String id) {
            return new SendChatMessageCommand(appId, workflowId, user, query, inputs, files, conversationId,
                    autoGenerateName, id);
        }
    }

    /** The files an answer node showed, as the message keeps them; known by the time the observer hears its end. */
    interface AnswerFiles {

        /** @return the files of the answer node's execution of that id, none for another node */
        List<MessageFile> of(String nodeExecutionId);
    }

    /**
     * A turn under way, of an app of {@code mode} (advanced-chat, chat, agent-chat or completion): the ids its
     * frames carry (known before the first event), the files of its answers, and its end, which completes after
     * the last event the observer hears, with the run and the message as kept.
     */
    record ChatUnderWay(String messageId, String conversationId, String taskId, String runId, long createdAt,
            AnswerFiles answerFiles, CompletableFuture<ChatReply> done, String mode) {

        /** A chatflow's turn. */
        public ChatUnderWay(String messageId, String conversationId, String taskId, String runId, long createdAt,
                AnswerFiles answerFiles, CompletableFuture<ChatReply> done) {
            this(messageId, conversationId, taskId, runId, createdAt, answerFiles, done, "advanced-chat");
        }

        /**
         * Waits for the turn's end.
         *
         * @throws ApiException when the store could not keep the run
         */
        public ChatReply await() {
            try {
                return done.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for message " + messageId, e);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof ApiException refused) {
                    throw refused;
                }
                throw new IllegalStateException("message " + messageId + " broke: " + e.getCause(), e.getCause());
            }
        }
    }

    /**
     * A turn's end: its run (null when an annotation answered it), its message as kept, and what the models it
     * asked used.
     *
     * @param failedAtModel whether the run failed in a node that calls a model (an llm, agent, classifier or
     *                      extractor node): a model call's failure, which Dify answers with its own code, not a
     *                      mistake in the client's request
     */
    record ChatReply(WorkflowRun run, Message message, TurnUsage usage, boolean failedAtModel,
            AnnotationReply annotationReply) {

        /** A turn a run answered. */
        public ChatReply(WorkflowRun run, Message message, TurnUsage usage, boolean failedAtModel) {
            this(run, message, usage, failedAtModel, null);
        }

        /** A turn an annotation answered: no run started, no model asked. */
        public static ChatReply annotated(Message message, AnnotationReply annotation) {
            return new ChatReply(null, message, TurnUsage.NONE, false, annotation);
        }
    }

    /** The annotation that answered a turn (Dify's metadata.annotation_reply), with no run behind it. */
    record AnnotationReply(String annotationId) {
    }

    /**
     * The tokens of every model call of a turn, summed as Dify sums them into the message's usage, and the
     * seconds those calls took. Hexaflow keeps no price list, so it has no prices.
     */
    record TurnUsage(long promptTokens, long completionTokens, long totalTokens, double latency) {

        public static final TurnUsage NONE = new TurnUsage(0, 0, 0, 0);

        public TurnUsage plus(TurnUsage other) {
            return new TurnUsage(promptTokens + other.promptTokens, completionTokens + other.completionTokens,
                    totalTokens + other.totalTokens, latency + other.latency);
        }
    }
}
