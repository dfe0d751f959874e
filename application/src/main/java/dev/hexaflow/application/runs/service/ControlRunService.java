package dev.hexaflow.application.runs.service;

import dev.hexaflow.application.apps.port.out.AppRepository;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.runs.port.in.ControlRunUseCase;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunObserver;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunUnderWay;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunWorkflowCommand;
import dev.hexaflow.application.runs.port.in.StopTaskUseCase;
import dev.hexaflow.application.runs.port.out.RunRepository;
import dev.hexaflow.application.runs.port.out.RunRepository.FoundRun;
import dev.hexaflow.domain.workflow.AppInfo;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Stops and re-runs a run for an operator, through the same stop and start an end user's requests take: a stop
 * reaches the instance that runs it, and a re-run is checked, limited and kept as any run.
 */
public final class ControlRunService implements ControlRunUseCase {

    private final RunRepository runs;
    private final AppRepository apps;
    private final StopTaskUseCase stop;
    private final RunWorkflowUseCase start;

    public ControlRunService(RunRepository runs, AppRepository apps, StopTaskUseCase stop, RunWorkflowUseCase start) {
        this.runs = runs;
        this.apps = apps;
        this.stop = stop;
        this.start = start;
    }

    @Override
    public boolean stop(String runId) {
        FoundRun found = InspectRunsService.locate(runs, runId);
        if (found.entry().run().status() == RunStatus.PAUSED) {
            // A paused run runs nowhere: it ends here, its forms closed, unless an answer took it just now.
            return runs.pauses().stop(runId, "Workflow stopped by the user.", java.time.Instant.now().getEpochSecond());
        }
        if (found.entry().run().status() != RunStatus.RUNNING || found.taskId() == null) {
            return false;
        }
        // The task's owner is the run's end user: the stop is the one that end user's own request makes.
        stop.stop(found.appId(), found.taskId(), found.entry().user().sessionId());
        return true;
    }

    @Override
    public RunUnderWay rerun(String runId, boolean sameVersion) {
        FoundRun found = InspectRunsService.locate(runs, runId);
        boolean chat = apps.find(found.appId()).map(app -> !app.mode().equals(AppInfo.WORKFLOW_MODE))
                .orElse(false);
        if (chat) {
            throw new ApiException(ApiError.INVALID_PARAM, "A chat turn belongs to its conversation: send the "
                    + "message again in it.");
        }
        WorkflowRun run = found.entry().run();
        return start.start(new RunWorkflowCommand(found.appId(), sameVersion ? run.workflowId() : null,
                found.entry().user().sessionId(), callerInputs(run.inputs()), List.of()), RunObserver.NONE);
    }

    /** The inputs its caller gave: the run keeps the system's own ({@code sys.*}) beside them. */
    private static Map<String, Object> callerInputs(Map<String, Object> kept) {
        Map<String, Object> given = new LinkedHashMap<>();
        kept.forEach((name, value) -> {
            if (!name.startsWith("sys.")) {
                given.put(name, value);
            }
        });
        return given;
    }
}
