package dev.hexaflow.adapters.http.serviceapi.workflow;

import static dev.hexaflow.adapters.http.serviceapi.ServiceApiAuthentication.appId;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.http.serviceapi.ServiceApiAuthentication.Access;
import dev.hexaflow.adapters.http.serviceapi.ServiceApiBodies;
import dev.hexaflow.adapters.http.support.QueryNumbers;
import dev.hexaflow.adapters.http.support.QueryTimes;
import dev.hexaflow.application.runs.port.in.ListRunLogsUseCase.RunLogEntry;
import dev.hexaflow.application.runs.port.in.ListRunLogsUseCase.RunLogPage;
import dev.hexaflow.application.runs.port.in.ListRunLogsUseCase.RunLogsQuery;
import dev.hexaflow.application.runs.port.in.ListRunLogsUseCase;
import dev.hexaflow.domain.workflow.WorkflowRun;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.List;

/** The run logs under {@code /v1/workflows/logs}: Dify's search by keyword, status, time and end user's session. */
public final class LogRoutes implements RouteGroup {

    private final ListRunLogsUseCase logs;

    public LogRoutes(ListRunLogsUseCase logs) {
        this.logs = logs;
    }

    @Override
    public void addTo(RoutesConfig routes) {
        routes.get("/v1/workflows/logs", this::logs, Access.READ_RUNS);
    }

    private void logs(Context ctx) {
        RunLogsQuery query = new RunLogsQuery(appId(ctx), ctx.queryParam("keyword"),
                blankToNull(ctx.queryParam("status")), QueryNumbers.number(ctx, "page", 1), QueryNumbers.number(ctx, "limit", 20),
                QueryTimes.time(ctx, "created_at__before"), QueryTimes.time(ctx, "created_at__after"),
                blankToNull(ctx.queryParam("created_by_end_user_session_id")));
        ServiceApiBodies.json(ctx, 200, LogPageBody.of(logs.list(query)));
    }

    private static String blankToNull(String text) {
        return text == null || text.isBlank() ? null : text.strip();
    }

    /** Dify's WorkflowAppLogPagination. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record LogPageBody(int page, int limit, long total, boolean hasMore, List<LogItem> data) {

        static LogPageBody of(RunLogPage page) {
            return new LogPageBody(page.page(), page.limit(), page.total(), page.hasMore(),
                    page.items().stream().map(LogItem::of).toList());
        }
    }

    /** One log: the run, and who started it, always an end user of the Service API here. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record LogItem(String id, RunSummary workflowRun, Object details, String createdFrom, String createdByRole,
            Object createdByAccount, EndUserBody createdByEndUser, long createdAt) {

        static LogItem of(RunLogEntry entry) {
            return new LogItem(entry.logId(), RunSummary.of(entry), null, "service-api", "end_user", null,
                    new EndUserBody(entry.user().id(), "service-api", false, entry.user().sessionId()),
                    entry.createdAt());
        }
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record RunSummary(String id, String version, String status, String triggeredFrom, String error,
            double elapsedTime, long totalTokens, int totalSteps, long createdAt, Long finishedAt,
            int exceptionsCount) {

        static RunSummary of(RunLogEntry entry) {
            WorkflowRun run = entry.run();
            return new RunSummary(run.id(), entry.version(), run.status().wireName(), entry.triggeredFrom(), run.error(),
                    run.elapsedTime(), run.totalTokens(), run.totalSteps(), run.createdAt(), run.finishedAt(),
                    run.exceptionsCount());
        }
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record EndUserBody(String id, String type, @JsonProperty("is_anonymous") boolean anonymous, String sessionId) {
    }
}
