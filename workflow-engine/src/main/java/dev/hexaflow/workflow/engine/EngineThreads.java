package dev.hexaflow.workflow.engine;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** The threads an engine plays runs on. */
final class EngineThreads {

    private EngineThreads() {
    }

    /** Virtual threads where the JVM has them (21+), else a pool of daemon threads that grows as runs need. */
    static ExecutorService newExecutor() {
        try {
            return (ExecutorService) MethodHandles.publicLookup().findStatic(Executors.class,
                    "newVirtualThreadPerTaskExecutor", MethodType.methodType(ExecutorService.class)).invoke();
        } catch (Throwable notOnThisJvm) {
            // Threads as runs need them, let go after ten idle seconds so a burst does not leave them behind.
            return new java.util.concurrent.ThreadPoolExecutor(0, Integer.MAX_VALUE, 10, TimeUnit.SECONDS,
                    new java.util.concurrent.SynchronousQueue<>(), daemon("hexaflow-node"));
        }
    }

    static java.util.concurrent.ThreadFactory daemon(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return task -> {
            Thread thread = new Thread(task, prefix + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
