package dev.hexaflow.application.runs.service;

import dev.hexaflow.application.common.StorageRefusals;
import dev.hexaflow.application.common.StorageUnavailableException;
import dev.hexaflow.application.runs.port.out.RunRepository;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.WorkflowRun;
import dev.hexaflow.workflow.engine.RunRequest;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** What the caller of a run the store could not keep hears, and the row such a run leaves. */
final class UnkeptEnds {

    private final RunRepository runs;
    private final Clock clock;

    UnkeptEnds(RunRepository runs, Clock clock) {
        this.runs = runs;
        this.clock = clock;
    }

    /**
     * The run as kept; a run the store could not keep ends as the API's refusal, with the store's reason, and is
     * kept as failed with that reason where the store takes it.
     */
    CompletableFuture<WorkflowRun> keptOrRefused(RunRequest request, WorkflowRun run, Throwable failure) {
        if (failure == null) {
            return CompletableFuture.completedFuture(run);
        }
        keepUnkeptEnd(request, failure);
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof StorageUnavailableException storage) {
                return CompletableFuture.failedFuture(StorageRefusals.refused(storage));
            }
        }
        return CompletableFuture.failedFuture(failure);
    }

    /**
     * A run whose end could not be kept (a write of it was refused) would stay running in the store while its
     * caller hears it failed: its row is ended failed with the reason. It is written once the run is no longer in
     * flight here, so that a store recovering meanwhile either fails it itself or takes this write; nothing waits
     * for it, and one the store still refuses leaves the run to the store's recovery or the next start.
     */
    private void keepUnkeptEnd(RunRequest request, Throwable failure) {
        Throwable cause = failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        String reason = cause instanceof StorageUnavailableException storage
                ? "The server could not keep the run: " + storage.getMessage()
                : "The server could not keep the run's end.";
        long now = clock.instant().getEpochSecond();
        try {
            runs.finished(WorkflowRun.started(request.runId(), request.workflowId(), Map.of(), now)
                    .finish(RunStatus.FAILED, Map.of(), reason, 0, 0, 0, 0, now));
        } catch (RuntimeException refused) {
            // The store is closed or refusing: its recovery or the next start ends the run.
        }
    }
}
