package dev.hexaflow.application.app.port.in;

import dev.hexaflow.application.workflow.engine.RunHandle;
import dev.hexaflow.application.workflow.engine.RunListener;
import java.util.List;
import java.util.Map;

/**
 * Runs an app's published workflow for an end user: everything is checked before anything starts; the run is
 * kept as it goes and does not depend on whoever listens.
 */
public interface RunWorkflowUseCase {

    /**
     * Starts the run; {@code listener} hears its events after they are kept. With {@link RunListener#NONE},
     * nobody hears them, and only the run's end waits to be kept: {@link RunHandle#await()} answers a kept run.
     *
     * @throws ApiException with Dify's code for a mistake in the request, before anything starts
     */
    RunHandle start(RunWorkflowCommand command, RunListener listener);

    /**
     * @param workflowId a published version of the app, or null for its newest
     * @param files      the request's top-level files (sys.files), as file mappings
     */
    record RunWorkflowCommand(String appId, String workflowId, String user, Map<String, Object> inputs,
            List<Object> files) {
        public RunWorkflowCommand {
            inputs = inputs == null ? Map.of() : inputs;
            files = files == null ? List.of() : files;
        }
    }
}
