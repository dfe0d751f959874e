package dev.hexaflow.application.runs.service;

import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.runs.port.out.ActiveRuns.Admission;
import dev.hexaflow.application.runs.port.out.ActiveRuns;
import dev.hexaflow.domain.workflow.WorkflowRun;
import dev.hexaflow.workflow.engine.RunHandle;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The runs in flight, by task id for stop (by the user who started them), and counted per app for the server-wide
 * limit and under each app's own limits ({@link ActiveRuns}); once closed, it takes no new run, so that the
 * runs in flight can be waited for.
 */
public final class TaskRegistry {

    private record Task(String appId, String user, RunHandle handle) {
    }

    private final Map<String, Task> tasks = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> perApp = new ConcurrentHashMap<>();
    private final ActiveRuns active;
    private volatile boolean closed;

    public TaskRegistry() {
        this(ActiveRuns.NONE);
    }

    /** @param active each app's runs under way, held under its own limits */
    public TaskRegistry(ActiveRuns active) {
        this.active = active;
    }

    /** Takes a place for a run of the app; false when {@code limit} (above 0) runs are in flight already. */
    boolean reserve(String appId, int limit) {
        if (closed) {
            throw new ApiException(ApiError.SERVICE_UNAVAILABLE,
                    "The server is shutting down and takes no new runs. Please try again shortly.");
        }
        AtomicInteger count = perApp.computeIfAbsent(appId, id -> new AtomicInteger());
        while (true) {
            int now = count.get();
            if (limit > 0 && now >= limit) {
                return false;
            }
            if (count.compareAndSet(now, now + 1)) {
                return true;
            }
        }
    }

    /** Admits a run of the app's end user under the app's own limits on runs at once, or refuses it (429). */
    Admission admit(String appId, String user) {
        return active.admit(appId, user);
    }

    /**
     * The run's places: one under the server-wide limit per app ({@code maxRunsPerApp}), one under the app's own
     * limits on runs at once; refused by the second, the first is given back.
     */
    Admission admitted(String appId, String user, int maxRunsPerApp) {
        if (!reserve(appId, maxRunsPerApp)) {
            throw new ApiException(ApiError.TOO_MANY_REQUESTS, "Too many requests. Please try again later. The "
                    + "current maximum concurrent requests allowed for " + appId + " is " + maxRunsPerApp + ".");
        }
        try {
            return admit(appId, user);
        } catch (RuntimeException e) {
            release(appId);
            throw e;
        }
    }

    void release(String appId) {
        perApp.get(appId).decrementAndGet();
    }

    /**
     * Keeps the run of the app's end user {@code user} until it ends, then frees its place; answers the run's end,
     * completed only once its place is free, so that whoever is told the end may start the next run at once.
     */
    CompletableFuture<WorkflowRun> track(String appId, String user, RunHandle handle) {
        return track(appId, user, handle, Admission.NONE);
    }

    /**
     * As above, giving the run's admission back when it ends, fails, is stopped or pauses for a person (a paused
     * run is not under way, as Dify counts it).
     */
    CompletableFuture<WorkflowRun> track(String appId, String user, RunHandle handle, Admission admission) {
        tasks.put(handle.taskId(), new Task(appId, user, handle));
        return handle.finished().whenComplete((run, error) -> {
            tasks.remove(handle.taskId());
            admission.release();
            release(appId);
        });
    }

    /** The task, if it is in flight, of this app and started by this user. */
    Optional<RunHandle> find(String appId, String taskId, String user) {
        Task task = tasks.get(taskId);
        return task != null && task.appId().equals(appId) && task.user().equals(user) ? Optional.of(task.handle())
                : Optional.empty();
    }

    int inFlight() {
        return tasks.size();
    }

    /** Runs with a place taken: those in flight and those about to start. */
    int reserved() {
        return perApp.values().stream().mapToInt(AtomicInteger::get).sum();
    }

    /** From now on, {@link #reserve} refuses every run. */
    void close() {
        closed = true;
    }

    /** The runs in flight now. */
    List<RunHandle> running() {
        return tasks.values().stream().map(Task::handle).toList();
    }
}
