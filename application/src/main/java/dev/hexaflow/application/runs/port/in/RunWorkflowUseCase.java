package dev.hexaflow.application.runs.port.in;

import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.domain.workflow.WorkflowRun;
import dev.hexaflow.workflow.engine.ChatTurn;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * Runs an app's published workflow for an end user: everything is checked before anything starts; the run is
 * kept as it goes and does not depend on whoever listens.
 */
public interface RunWorkflowUseCase {

    /**
     * Starts the run; {@code observer} hears its events after they are kept. With {@link RunObserver#NONE},
     * nobody hears them, and only the run's end waits to be kept: {@link RunUnderWay#await()} answers a kept run.
     *
     * @throws ApiException with Dify's code for a mistake in the request, before anything starts
     */
    RunUnderWay start(RunWorkflowCommand command, RunObserver observer);

    /**
     * As {@link #start} with {@link RunObserver#NONE}, for a caller that waits for the run's end at once (a blocking
     * request): a run that needs no thread of its own may play on the caller's thread, and then this answers once
     * it has ended and is kept.
     */
    default RunUnderWay startBlocking(RunWorkflowCommand command) {
        return start(command, RunObserver.NONE);
    }

    /**
     * @param workflowId a published version of the app, or null for its newest
     * @param files      the request's top-level files (sys.files), as file mappings
     * @param chat       the turn of a conversation this run answers (a chatflow's), or null for a workflow run
     * @param retry      the request's idempotency key, or null for a request that is never repeated
     * @param callbackUrl where the run's final detail is posted when it ends (Hexaflow's completion webhook), or
     *                    null for the app's default, if any
     * @param triggerNodeId the trigger the run starts from (its inputs are what the trigger hands its node), or
     *                      null for a run from the start node's form
     * @param keyId      the id of the app key the request came with, for the budgets per key; null for none
     */
    record RunWorkflowCommand(String appId, String workflowId, String user, Map<String, Object> inputs,
            List<Object> files, ChatTurn chat, Retry retry, String callbackUrl, String triggerNodeId,
            String keyId) {
        public RunWorkflowCommand {
            inputs = inputs == null ? Map.of() : inputs;
            files = files == null ? List.of() : files;
        }

        public RunWorkflowCommand(String appId, String workflowId, String user, Map<String, Object> inputs,
                List<Object> files, ChatTurn chat, Retry retry, String callbackUrl, String triggerNodeId) {
            this(appId, workflowId, user, inputs, files, chat, retry, callbackUrl, triggerNodeId, null);
        }

        /** The same run, asked with the app key whose id is {@code id}. */
        public RunWorkflowCommand withKeyId(String id) {
            return new RunWorkflowCommand(appId, workflowId, user, inputs, files, chat, retry, callbackUrl,
                    triggerNodeId, id);
        }

        public RunWorkflowCommand(String appId, String workflowId, String user, Map<String, Object> inputs,
                List<Object> files, ChatTurn chat, Retry retry, String callbackUrl) {
            this(appId, workflowId, user, inputs, files, chat, retry, callbackUrl, null);
        }

        /** A run of the app's newest version, started by its trigger {@code nodeId} with what it hands the node. */
        public static RunWorkflowCommand triggered(String appId, String nodeId, String user,
                Map<String, Object> inputs) {
            return new RunWorkflowCommand(appId, null, user, inputs, List.of(), null, null, null, nodeId);
        }

        /**
         * A run, a chat turn's or a workflow app's, that is never repeated and has no callback of its own (its
         * app's default callback, if any, still applies).
         */
        public RunWorkflowCommand(String appId, String workflowId, String user, Map<String, Object> inputs,
                List<Object> files, ChatTurn chat) {
            this(appId, workflowId, user, inputs, files, chat, null, null);
        }

        /** The same run, whose end is posted to {@code url} (Hexaflow's completion webhook). */
        public RunWorkflowCommand withCallbackUrl(String url) {
            return new RunWorkflowCommand(appId, workflowId, user, inputs, files, chat, retry, url, triggerNodeId,
                    keyId);
        }

        /** The same run, asked again with the key: the request answers the run its key started. */
        public RunWorkflowCommand retriedWith(Retry retry) {
            return new RunWorkflowCommand(appId, workflowId, user, inputs, files, chat, retry, callbackUrl,
                    triggerNodeId, keyId);
        }

        /** A workflow app's run. */
        public RunWorkflowCommand(String appId, String workflowId, String user, Map<String, Object> inputs,
                List<Object> files) {
            this(appId, workflowId, user, inputs, files, null);
        }
    }

    /**
     * A request's idempotency key and what identifies the request's body: the same key with the same body, from
     * the same app and end user within a day, answers the run the first one started; with another body, a
     * refusal.
     *
     * @param fingerprint a digest of the request (its path and body)
     */
    record Retry(String key, String fingerprint) {

        /** An idempotency key, as Stripe's and the IETF draft's are: at most 255 characters. */
        public static final int MAX_KEY_LENGTH = 255;

        /** @throws ApiException INVALID_PARAM for a blank key or one longer than {@link #MAX_KEY_LENGTH} */
        public Retry {
            if (key == null || key.isBlank()) {
                throw new ApiException(ApiError.INVALID_PARAM, "Idempotency-Key must not be empty.");
            }
            if (key.length() > MAX_KEY_LENGTH) {
                throw new ApiException(ApiError.INVALID_PARAM, "Idempotency-Key must be at most " + MAX_KEY_LENGTH
                        + " characters.");
            }
            if (fingerprint == null) {
                throw new IllegalArgumentException("a retry has the fingerprint of its request");
            }
        }
    }

    /** Hears a run's events one at a time, in order; it must return quickly, for the run's recording waits on it. */
    @FunctionalInterface
    interface RunObserver {

        RunObserver NONE = event -> { };

        void on(RunEvent event);
    }

    /**
     * A run that has started: its ids, and its end. {@code done} completes with the run as kept, or, when the
     * store could not keep it, with an {@link ApiException} (INSUFFICIENT_STORAGE); it completes after the last
     * event the observer hears. A {@code repeated} run is one an earlier request with the same idempotency key
     * started: its observer hears nothing (its events are replayed from the store), and {@code done} completes
     * with its end.
     */
    record RunUnderWay(String runId, String taskId, CompletableFuture<WorkflowRun> done, boolean repeated) {

        /** A run this request started. */
        public RunUnderWay(String runId, String taskId, CompletableFuture<WorkflowRun> done) {
            this(runId, taskId, done, false);
        }

        /**
         * Waits for the run's end.
         *
         * @throws ApiException when the store could not keep the run
         */
        public WorkflowRun await() {
            try {
                return done.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for run " + runId, e);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof ApiException refused) {
                    throw refused;
                }
                throw new IllegalStateException("run " + runId + " broke: " + e.getCause(), e.getCause());
            }
        }
    }
}
