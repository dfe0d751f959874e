package dev.hexaflow.application.app.port.in;

import dev.hexaflow.application.workflow.engine.ChatTurn;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.domain.workflow.WorkflowRun;
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
     * @param workflowId a published version of the app, or null for its newest
     * @param files      the request's top-level files (sys.files), as file mappings
     * @param chat       the turn of a conversation this run answers (a chatflow's), or null for a workflow run
     */
    record RunWorkflowCommand(String appId, String workflowId, String user, Map<String, Object> inputs,
            List<Object> files, ChatTurn chat, String callbackUrl) {
        public RunWorkflowCommand {
            inputs = inputs == null ? Map.of() : inputs;
            files = files == null ? List.of() : files;
        }

        /** A run without a callback of its own (its app's default callback, if any, still applies). */
        public RunWorkflowCommand(String appId, String workflowId, String user, Map<String, Object> inputs,
                List<Object> files, ChatTurn chat) {
            this(appId, workflowId, user, inputs, files, chat, null);
        }

        /** The same run, whose end is posted to {@code url} (Hexaflow's completion webhook). */
        public RunWorkflowCommand withCallbackUrl(String url) {
            return new RunWorkflowCommand(appId, workflowId, user, inputs, files, chat, url);
        }

        /** A workflow app's run. */
        public RunWorkflowCommand(String appId, String workflowId, String user, Map<String, Object> inputs,
                List<Object> files) {
            this(appId, workflowId, user, inputs, files, null);
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
     * event the observer hears.
     */
    record RunUnderWay(String runId, String taskId, CompletableFuture<WorkflowRun> done) {

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
