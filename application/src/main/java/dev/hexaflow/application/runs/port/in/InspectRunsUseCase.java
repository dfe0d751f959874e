package dev.hexaflow.application.runs.port.in;

import dev.hexaflow.domain.app.EndUser;
import dev.hexaflow.domain.workflow.NodeExecution;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.util.List;

/**
 * The operator's view of runs: every app's, searched together newest first and read page by page, and one run
 * whole, with what each of its nodes read, did and answered, and the events its stream showed.
 */
public interface InspectRunsUseCase {

    /** @throws dev.hexaflow.application.common.ApiException INVALID_PARAM for a bad filter, limit or cursor */
    RunList search(RunsQuery query);

    /** @throws dev.hexaflow.application.common.ApiException NOT_FOUND for an unknown run */
    RunDetail detail(String runId);

    /**
     * A search; null fields do not filter. {@code mode} is an app mode ({@code workflow}, {@code advanced-chat});
     * {@code endUser} the end user's id as the caller gave it; times are Unix seconds; {@code cursor} is the
     * {@link RunList#nextCursor()} of the page before (null for the first); {@code limit} is 1 to 100.
     */
    record RunsQuery(String appId, String mode, String status, String endUser, Long createdAfter,
            Long createdBefore, String keyword, String cursor, int limit) {
    }

    /** A page of runs, and the cursor of the next page (null when none follows). */
    record RunList(List<RunItem> data, int limit, boolean hasMore, String nextCursor) {
        public RunList {
            data = List.copyOf(data);
        }
    }

    /** A run with its app, its task and version, its end user, and its trace's id (null when not traced). */
    record RunItem(String appId, String appName, String appMode, String taskId, String version, EndUser endUser,
            WorkflowRun run, String traceId) {

        /** A run that was not traced. */
        public RunItem(String appId, String appName, String appMode, String taskId, String version,
                EndUser endUser, WorkflowRun run) {
            this(appId, appName, appMode, taskId, version, endUser, run, null);
        }
    }

    /**
     * A run whole: its node executions in their order (inputs kept on failure too) and the events of its stream as
     * kept (a chat turn keeps none: its messages hold what it answered).
     */
    record RunDetail(RunItem run, List<NodeExecution> nodeExecutions, List<StreamedEvent> events) {
        public RunDetail {
            nodeExecutions = List.copyOf(nodeExecutions);
            events = List.copyOf(events);
        }
    }

    /** An event of the run's stream: its number in the run (from 1) and its frame's data, as the stream sent it. */
    record StreamedEvent(long seq, String data) {
    }
}
