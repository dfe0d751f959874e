package dev.hexaflow.application.runs.service;

import dev.hexaflow.application.runs.port.in.DrainRunsUseCase;
import dev.hexaflow.workflow.engine.RunHandle;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Drains the runs of a {@link TaskRegistry}: closes it, waits for what is in flight, stops the rest. */
public final class DrainRunsService implements DrainRunsUseCase {

    /** How long stopped runs get to end: a stop ends a run within a second. */
    private static final Duration STOPPING = Duration.ofSeconds(5);
    private static final String REASON = "The server stopped during the run: it was shutting down.";

    private final TaskRegistry tasks;
    private final CountDownLatch hurry = new CountDownLatch(1);

    public DrainRunsService(TaskRegistry tasks) {
        this.tasks = tasks;
    }

    @Override
    public void refuseNewRuns() {
        tasks.close();
    }

    @Override
    public Drained drain(Duration grace) {
        tasks.close();
        int before = tasks.reserved();
        long deadline = System.nanoTime() + grace.toNanos();
        while (tasks.reserved() > 0 && System.nanoTime() < deadline && hurry.getCount() > 0) {
            pause(deadline);
        }
        List<RunHandle> left = tasks.running();
        left.forEach(handle -> handle.stop(REASON));
        long stopping = System.nanoTime() + STOPPING.toNanos();
        while (tasks.reserved() > 0 && System.nanoTime() < stopping) {
            pause(stopping);
        }
        int stopped = left.size();
        return new Drained(Math.max(0, before - stopped), stopped, tasks.reserved());
    }

    /** Waits a little, or less when hurried. */
    private void pause(long deadline) {
        long millis = Math.min(20, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
        try {
            hurry.await(Math.max(1, millis), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            hurry.countDown();
        }
    }

    @Override
    public java.util.Set<String> inFlight() {
        return tasks.running().stream().map(RunHandle::runId).collect(java.util.stream.Collectors.toSet());
    }

    @Override
    public void hurry() {
        hurry.countDown();
    }

    @Override
    public int stopInFlight(String reason) {
        List<RunHandle> running = tasks.running();
        running.forEach(handle -> handle.stop(reason));
        return running.size();
    }
}
