package dev.hexaflow.workflow.engine;

import dev.hexaflow.domain.workflow.WorkflowRun;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/** A run under way: its ids, a way to stop it, and its final state once it ends. */
public final class RunHandle {

    private final String runId;
    private final String taskId;
    private final RunState state;
    private final CompletableFuture<WorkflowRun> finished;
    private final Runnable leg;
    private final AtomicBoolean played = new AtomicBoolean();

    RunHandle(String runId, String taskId, RunState state, CompletableFuture<WorkflowRun> finished, Runnable leg) {
        this.runId = runId;
        this.taskId = taskId;
        this.state = state;
        this.finished = finished;
        this.leg = leg;
    }

    /**
     * Plays a run from {@link WorkflowEngine#ready} on the calling thread, and returns once it has ended or paused:
     * {@link #finished()} is then complete (exceptionally for a failure of the engine itself). The engine plays a
     * started run the same way, on a thread of its own.
     *
     * @throws IllegalStateException when the run is played already, as a started run is
     */
    public void playHere() {
        if (!played.compareAndSet(false, true)) {
            throw new IllegalStateException("run " + runId + " is played already");
        }
        try {
            leg.run();
        } catch (RuntimeException e) {
            // Whoever waits for the run hears it; the thread that played it is not the one to tell.
            finished.completeExceptionally(e);
        }
    }

    public String runId() {
        return runId;
    }

    public String taskId() {
        return taskId;
    }

    /** Asks the run to stop; it ends {@code stopped}, cancelling model, HTTP and code calls in flight. */
    public void stop() {
        stop("Workflow stopped by the user.");
    }

    /** As {@link #stop()}, with the reason the run's error then gives. */
    public void stop(String reason) {
        state.stop(RunState.StopKind.USER, reason);
    }

    /** Fails the run with {@code reason} (a budget spent, say): it ends {@code failed}, its calls in flight cut. */
    public void fail(String reason) {
        state.stop(RunState.StopKind.FAILURE, reason);
    }

    public boolean isDone() {
        return finished.isDone();
    }

    public CompletableFuture<WorkflowRun> finished() {
        return finished;
    }

    /** Waits for the run to end and answers it. */
    public WorkflowRun await() {
        try {
            return finished.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for run " + runId, e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("run " + runId + " broke: " + e.getCause(), e.getCause());
        }
    }

    /** Waits at most {@code timeout}. */
    public WorkflowRun await(Duration timeout) throws TimeoutException {
        try {
            return finished.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for run " + runId, e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("run " + runId + " broke: " + e.getCause(), e.getCause());
        }
    }
}
