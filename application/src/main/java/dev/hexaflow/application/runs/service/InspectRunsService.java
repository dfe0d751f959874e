package dev.hexaflow.application.runs.service;

import dev.hexaflow.application.apps.port.out.AppRepository;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.runs.port.in.InspectRunsUseCase;
import dev.hexaflow.application.runs.port.out.RunEventFormat;
import dev.hexaflow.application.runs.port.out.RunRepository.FoundRun;
import dev.hexaflow.application.runs.port.out.RunRepository.KeptEvent;
import dev.hexaflow.application.runs.port.out.RunRepository.RunPosition;
import dev.hexaflow.application.runs.port.out.RunRepository.RunSearch;
import dev.hexaflow.application.runs.port.out.RunRepository.RunSlice;
import dev.hexaflow.application.runs.port.out.RunRepository;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.workflow.NodeExecution;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Searches every app's runs (or those of one app, or of the apps of one mode) with the logs' filters, newest first,
 * a page after the cursor of the one before; a cursor is the last run's place in that order, so pages neither
 * repeat nor skip a run while new ones start.
 */
public final class InspectRunsService implements InspectRunsUseCase {

    /** The most events a run's page shows; a run that streamed more is read through its stream's replay. */
    static final int MAX_EVENTS = 5_000;

    private final AppRepository apps;
    private final RunRepository runs;
    private final RunEventFormat format;

    /** @param format makes the frames of events kept as references to the run's rows ({@link EventReferences}) */
    public InspectRunsService(AppRepository apps, RunRepository runs, RunEventFormat format) {
        this.apps = apps;
        this.runs = runs;
        this.format = format;
    }

    @Override
    public RunList search(RunsQuery query) {
        if (query.limit() < 1 || query.limit() > 100) {
            throw new ApiException(ApiError.INVALID_PARAM, "limit must be between 1 and 100");
        }
        if (query.status() != null && !ListRunLogsService.STATUSES.contains(query.status())) {
            throw new ApiException(ApiError.INVALID_PARAM, "status must be one of succeeded, failed, stopped, "
                    + "running, partial-succeeded, paused");
        }
        Map<String, App> byId = apps.list().stream().collect(Collectors.toMap(App::id, Function.identity()));
        List<String> appIds = byId.values().stream()
                .filter(app -> query.appId() == null || app.id().equals(query.appId()))
                .filter(app -> query.mode() == null || app.mode().equals(query.mode()))
                .map(App::id).toList();
        String keyword = query.keyword() == null || query.keyword().isBlank() ? null : query.keyword();
        RunSlice slice = appIds.isEmpty() ? new RunSlice(List.of(), false)
                : runs.search(new RunSearch(appIds, query.status(), query.endUser(), query.createdAfter(),
                        query.createdBefore(), keyword, RunCursor.read(query.cursor()), query.limit()));
        List<RunItem> items = slice.items().stream().map(found -> item(found, byId.get(found.appId()))).toList();
        String next = slice.hasMore() ? RunCursor.of(slice.items().get(slice.items().size() - 1).position())
                : null;
        return new RunList(items, query.limit(), slice.hasMore(), next);
    }

    @Override
    public RunDetail detail(String runId) {
        FoundRun found = locate(runs, runId);
        App app = apps.find(found.appId()).orElse(null);
        List<NodeExecution> nodes = runs.nodeExecutions(runId);
        Map<String, NodeExecution> byId = nodes.stream().collect(Collectors.toMap(NodeExecution::id,
                Function.identity(), (first, second) -> second));
        Optional<WorkflowRun> run = Optional.of(found.entry().run());
        List<StreamedEvent> events = runs.events(runId, 0).stream().limit(MAX_EVENTS)
                .map(event -> frameOf(event, found.taskId(), run, byId).map(data -> new StreamedEvent(event.seq(),
                        data)))
                .flatMap(Optional::stream).toList();
        return new RunDetail(item(found, app), nodes, events);
    }

    private Optional<String> frameOf(KeptEvent event, String taskId, Optional<WorkflowRun> run,
            Map<String, NodeExecution> nodes) {
        if (!EventReferences.isReference(event.data())) {
            return Optional.of(event.data());
        }
        return EventReferences.frame(event.data(), event.runId(), taskId, run, nodes, format);
    }

    static FoundRun locate(RunRepository runs, String runId) {
        if (runId == null || runId.length() > 64) {
            throw new ApiException(ApiError.NOT_FOUND, "Workflow run not found");
        }
        return runs.locate(runId).orElseThrow(() -> new ApiException(ApiError.NOT_FOUND, "Workflow run not found"));
    }

    /** A found run as listed; an app deleted since leaves its runs listed under its id alone. */
    private static RunItem item(FoundRun found, App app) {
        return new RunItem(found.appId(), app == null ? null : app.name(), app == null ? null : app.mode(),
                found.taskId(), found.entry().version(), found.entry().user(), found.entry().run(), found.traceId());
    }

    /** A page's cursor: the last run's place, written {@code createdAt.order}, opaque to callers. */
    static final class RunCursor {

        private RunCursor() {
        }

        static String of(RunPosition position) {
            return position.createdAt() + "." + position.order();
        }

        static RunPosition read(String cursor) {
            if (cursor == null || cursor.isEmpty()) {
                return null;
            }
            int dot = cursor.indexOf('.');
            try {
                if (dot > 0 && cursor.length() <= 40) {
                    return new RunPosition(Long.parseLong(cursor.substring(0, dot)),
                            Long.parseLong(cursor.substring(dot + 1)));
                }
            } catch (NumberFormatException e) {
                // Falls through to the refusal.
            }
            throw new ApiException(ApiError.INVALID_PARAM, "cursor is not one this server gave");
        }
    }
}
