package dev.hexaflow.application.webhooks.port.out;

import dev.hexaflow.domain.workflow.WorkflowRun;

/** Renders a run as the Service API's run detail answers it, the body of its completion webhook. */
public interface RunDetailRenderer {

    /** The JSON of {@code GET /v1/workflows/run/{id}} for this run, as UTF-8. */
    byte[] render(WorkflowRun run);
}
