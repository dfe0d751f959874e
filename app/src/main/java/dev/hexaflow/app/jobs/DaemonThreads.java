package dev.hexaflow.app.jobs;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;

/** Named daemon threads for the background jobs: named, so that a thread dump says whose each is. */
public final class DaemonThreads {

    private DaemonThreads() {
    }

    /** Threads called {@code name}, which never keep the process alive on their own. */
    public static ThreadFactory named(String name) {
        return task -> {
            Thread thread = new Thread(task, name);
            thread.setDaemon(true);
            return thread;
        };
    }

    /** One daemon thread that runs scheduled tasks. */
    public static ScheduledExecutorService scheduler(String name) {
        return Executors.newSingleThreadScheduledExecutor(named(name));
    }
}
