package dev.hexaflow.application.apps.port.out;

import dev.hexaflow.domain.workflow.Workflow;

/**
 * Told of each workflow an app publishes (its import included), by the contexts that keep something of a published
 * workflow between runs (the triggers').
 */
@FunctionalInterface
public interface PublicationHook {

    PublicationHook NONE = (appId, workflow) -> { };

    /**
     * Checks what the engine does not before anything is kept.
     *
     * @throws dev.hexaflow.domain.workflow.InvalidWorkflowException listing each problem
     */
    default void check(Workflow workflow) {
    }

    /** The workflow is the app's newest version now. */
    void published(String appId, Workflow workflow);
}
