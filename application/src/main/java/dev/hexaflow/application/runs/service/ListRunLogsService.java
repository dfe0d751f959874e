package dev.hexaflow.application.runs.service;

import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.runs.port.in.ListRunLogsUseCase.RunLogEntry;
import dev.hexaflow.application.runs.port.in.ListRunLogsUseCase.RunLogPage;
import dev.hexaflow.application.runs.port.in.ListRunLogsUseCase.RunLogsQuery;
import dev.hexaflow.application.runs.port.in.ListRunLogsUseCase;
import dev.hexaflow.application.runs.port.out.RunRepository.LogPage;
import dev.hexaflow.application.runs.port.out.RunRepository.LogQuery;
import dev.hexaflow.application.runs.port.out.RunRepository;
import java.util.Set;

/** Checks the search as Dify does (page 1 to 99999, limit 1 to 100, a known status), then searches. */
public final class ListRunLogsService implements ListRunLogsUseCase {

    static final Set<String> STATUSES = Set.of("succeeded", "failed", "stopped", "running", "partial-succeeded",
            "paused");

    private final RunRepository runs;

    public ListRunLogsService(RunRepository runs) {
        this.runs = runs;
    }

    @Override
    public RunLogPage list(RunLogsQuery query) {
        if (query.page() < 1 || query.page() > 99999) {
            throw new ApiException(ApiError.INVALID_PARAM, "page must be between 1 and 99999");
        }
        if (query.limit() < 1 || query.limit() > 100) {
            throw new ApiException(ApiError.INVALID_PARAM, "limit must be between 1 and 100");
        }
        if (query.status() != null && !STATUSES.contains(query.status())) {
            throw new ApiException(ApiError.INVALID_PARAM, "status must be one of succeeded, failed, stopped, "
                    + "running, partial-succeeded, paused");
        }
        String keyword = query.keyword() == null || query.keyword().isBlank() ? null
                : query.keyword().length() > 30 ? query.keyword().substring(0, 30) : query.keyword();
        LogPage page = runs.logs(new LogQuery(query.appId(), keyword, query.status(), query.page(), query.limit(),
                query.createdBefore(), query.createdAfter(), query.endUserSessionId()));
        return new RunLogPage(page.page(), page.limit(), page.total(), page.hasMore(), page.items().stream()
                .map(entry -> new RunLogEntry(entry.logId(), entry.run(), entry.version(), entry.user(),
                        entry.createdAt(), entry.triggeredFrom()))
                .toList());
    }
}
