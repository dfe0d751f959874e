package dev.hexaflow.application.runs.port.in;

import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.workflow.WorkflowRun;

/** One of an app's runs, as kept. */
public interface GetRunUseCase {

    /** @throws ApiException NOT_FOUND for an unknown id or another app's run */
    WorkflowRun get(String appId, String runId);
}
