package dev.hexaflow.application.app.service;

import dev.hexaflow.application.workflow.engine.RunHandle;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** The runs in flight, by task id for stop (by the user who started them), and counted per app for the limit. */
final class TaskRegistry {

    private record Task(String appId, String user, RunHandle handle) {
    }

    private final Map<String, Task> tasks = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> perApp = new ConcurrentHashMap<>();

    /** Takes a place for a run of the app; false when {@code limit} (above 0) runs are in flight already. */
    boolean reserve(String appId, int limit) {
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

    void release(String appId) {
        perApp.get(appId).decrementAndGet();
    }

    /** Keeps the run of the app's end user {@code user} until it ends, then frees its place. */
    void track(String appId, String user, RunHandle handle) {
        tasks.put(handle.taskId(), new Task(appId, user, handle));
        handle.finished().whenComplete((run, error) -> {
            tasks.remove(handle.taskId());
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
}
