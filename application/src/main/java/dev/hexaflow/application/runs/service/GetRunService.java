package dev.hexaflow.application.runs.service;

import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.runs.port.in.GetRunUseCase;
import dev.hexaflow.application.runs.port.out.RunRepository;
import dev.hexaflow.domain.workflow.WorkflowRun;

/** A run of the asking app only; any other id is not found. */
public final class GetRunService implements GetRunUseCase {

    private final RunRepository runs;

    public GetRunService(RunRepository runs) {
        this.runs = runs;
    }

    @Override
    public WorkflowRun get(String appId, String runId) {
        return runs.find(appId, runId).orElseThrow(() -> new ApiException(ApiError.NOT_FOUND,
                "Workflow run not found."));
    }
}
