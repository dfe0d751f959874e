package dev.hexaflow.application.runs.port.in;

import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.workflow.NodeExecution;
import java.util.List;

/** One of an app's runs, node by node: each node's execution as kept, in the order the nodes started. */
public interface ListNodeExecutionsUseCase {

    /**
     * @throws ApiException NOT_FOUND for an unknown run or another app's, INVALID_PARAM for a page or limit out
     *         of range
     */
    NodeExecutionPage list(NodeExecutionsQuery query);

    /** A page of a run's node executions; {@code limit} at most 100. */
    record NodeExecutionsQuery(String appId, String runId, int page, int limit) {
    }

    /** One page, with how many node executions the run has in all. */
    record NodeExecutionPage(int page, int limit, long total, boolean hasMore, List<NodeExecution> items) {
    }
}
