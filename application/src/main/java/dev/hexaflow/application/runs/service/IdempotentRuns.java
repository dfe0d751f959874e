package dev.hexaflow.application.runs.service;

import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunUnderWay;
import dev.hexaflow.application.runs.port.out.IdempotencyKeyRepository;
import dev.hexaflow.application.runs.port.out.IdempotencyKeyRepository.KeyedRun;
import dev.hexaflow.application.runs.port.out.RunRepository;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * The runs of requests with an idempotency key: a request answers the run the key started within
 * {@link RunWorkflowService#KEY_WINDOW}, if it did. A key is claimed in the store just before its run starts, so
 * that of two racing requests one starts the run and the other answers it.
 */
final class IdempotentRuns {

    /** How often a repeated run that goes on elsewhere (another instance) is read again until it ends. */
    private static final Duration POLL = Duration.ofMillis(200);

    /** How long a claimed key's run may take to be kept as started, on any instance. */
    static final Duration START_GRACE = Duration.ofMinutes(1);

    private final IdempotencyKeyRepository keys;
    private final RunRepository runs;
    private final RunFeeds feeds;
    private final Clock clock;
    private final Executor listeners;

    /** @param listeners reads the end of a key's run that goes on elsewhere, off the caller's thread */
    IdempotentRuns(IdempotencyKeyRepository keys, RunRepository runs, RunFeeds feeds, Clock clock,
            Executor listeners) {
        this.keys = keys;
        this.runs = runs;
        this.feeds = feeds;
        this.clock = clock;
        this.listeners = listeners;
    }

    /**
     * The run an earlier request with the key started, if one did and it started.
     *
     * @throws ApiException IDEMPOTENCY_KEY_CONFLICT when the key was used with another request
     */
    Optional<RunUnderWay> earlier(String appId, String user, RunWorkflowUseCase.Retry retry) {
        Optional<KeyedRun> earlier = keys.find(appId, user, retry.key(), keyWindowStart());
        if (earlier.isPresent() && !neverStarted(earlier.get())) {
            return Optional.of(repeat(earlier.get(), retry));
        }
        // A key whose run never started (the server stopped between the claim and the run's start) is free
        // again: this request claims it for a run of its own.
        earlier.ifPresent(keys::release);
        return Optional.empty();
    }

    /**
     * Claims the key for the run about to start; the claim another request made first, if one did. A claim that
     * fails closes the run's feed.
     */
    Optional<KeyedRun> claim(KeyedRun claim) {
        try {
            return keys.claim(claim, keyWindowStart());
        } catch (RuntimeException e) {
            feeds.close(claim.runId(), null, e);
            throw e;
        }
    }

    private long keyWindowStart() {
        return clock.instant().minus(RunWorkflowService.KEY_WINDOW).getEpochSecond();
    }

    /**
     * The run an earlier request with the key started, for a request with the same fingerprint: its end comes
     * from its feed while it goes on here, else from the store (read again until it ends, when it goes on
     * elsewhere).
     *
     * @throws ApiException IDEMPOTENCY_KEY_CONFLICT when the key was used with another request
     */
    RunUnderWay repeat(KeyedRun earlier, RunWorkflowUseCase.Retry retry) {
        if (!earlier.fingerprint().equals(retry.fingerprint())) {
            throw new ApiException(ApiError.IDEMPOTENCY_KEY_CONFLICT, "Idempotency-Key " + retry.key()
                    + " was used with another request; a retry must send the same body.");
        }
        CompletableFuture<WorkflowRun> done = feeds.find(earlier.appId(), earlier.runId())
                .map(feed -> feed.ended)
                .orElseGet(() -> CompletableFuture.supplyAsync(() -> endOf(earlier), listeners));
        return new RunUnderWay(earlier.runId(), earlier.taskId(), done, true);
    }

    /**
     * Whether a key's run never started: it goes on nowhere here, is not kept, and its claim is older than a start
     * takes anywhere ({@link #START_GRACE}: another instance may be starting it).
     */
    private boolean neverStarted(KeyedRun claim) {
        return claim.createdAt() < clock.instant().minus(START_GRACE).getEpochSecond()
                && feeds.find(claim.appId(), claim.runId()).isEmpty()
                && runs.find(claim.appId(), claim.runId()).isEmpty();
    }

    /**
     * The end of a key's run that goes on elsewhere, read from the store until it has ended. A run not found may be
     * one another instance starts or holds (a blocking run is kept at its end, or after its first fifth of a
     * second): it is looked for again until its claim is {@link #START_GRACE} old.
     */
    private WorkflowRun endOf(KeyedRun earlier) {
        while (true) {
            Optional<WorkflowRun> found = runs.find(earlier.appId(), earlier.runId());
            if (found.isEmpty() && earlier.createdAt() < clock.instant().minus(START_GRACE).getEpochSecond()) {
                throw new ApiException(ApiError.NOT_FOUND, "Workflow run not found.");
            }
            if (found.isPresent() && found.get().status() != RunStatus.RUNNING) {
                return found.get();
            }
            try {
                Thread.sleep(POLL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for run " + earlier.runId(), e);
            }
        }
    }
}
