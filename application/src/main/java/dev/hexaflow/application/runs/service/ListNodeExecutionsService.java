package dev.hexaflow.application.runs.service;

import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.runs.port.in.ListNodeExecutionsUseCase;
import dev.hexaflow.application.runs.port.out.RunRepository;

/** A run's node executions, paged; a run of another app is answered as one that does not exist. */
public final class ListNodeExecutionsService implements ListNodeExecutionsUseCase {

    static final int MAX_LIMIT = 100;

    private final RunRepository runs;

    public ListNodeExecutionsService(RunRepository runs) {
        this.runs = runs;
    }

    @Override
    public NodeExecutionPage list(NodeExecutionsQuery query) {
        if (query.page() < 1 || query.page() > 99999) {
            throw new ApiException(ApiError.INVALID_PARAM, "page must be between 1 and 99999");
        }
        if (query.limit() < 1 || query.limit() > MAX_LIMIT) {
            throw new ApiException(ApiError.INVALID_PARAM, "limit must be between 1 and " + MAX_LIMIT);
        }
        runs.find(query.appId(), query.runId()).orElseThrow(() -> new ApiException(ApiError.NOT_FOUND,
                "Workflow run not found."));
        int offset = (query.page() - 1) * query.limit();
        RunRepository.NodeExecutionSlice slice = runs.nodeExecutions(query.runId(), offset, query.limit());
        return new NodeExecutionPage(query.page(), query.limit(), slice.total(),
                offset + slice.items().size() < slice.total(), slice.items());
    }
}
