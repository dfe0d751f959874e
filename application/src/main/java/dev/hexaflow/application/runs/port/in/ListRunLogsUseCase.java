package dev.hexaflow.application.runs.port.in;

import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.app.EndUser;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.util.List;

/** Searches an app's run logs, newest first. */
public interface ListRunLogsUseCase {

    /** @throws ApiException INVALID_PARAM for a page, limit or status out of range */
    RunLogPage list(RunLogsQuery query);

    /**
     * A search of an app's logs; null fields do not filter; times are Unix seconds.
     *
     * @param status   a run status by its wire name (succeeded, failed, stopped, running, partial-succeeded,
     *                 paused)
     * @param keyword  searched in the run's inputs and outputs; only its first 30 characters count
     */
    record RunLogsQuery(String appId, String keyword, String status, int page, int limit, Long createdBefore,
            Long createdAfter, String endUserSessionId) {
    }

    /** One page of the search, with the number of entries that match in all. */
    record RunLogPage(int page, int limit, long total, boolean hasMore, List<RunLogEntry> items) {
    }

    /**
     * A run as its log shows it: with the workflow version it ran, the end user who started it, and how it started
     * ({@code app-run}, or the kind of trigger that started it: {@code schedule}, {@code webhook}, {@code plugin}).
     */
    record RunLogEntry(String logId, WorkflowRun run, String version, EndUser user, long createdAt,
            String triggeredFrom) {
    }
}
