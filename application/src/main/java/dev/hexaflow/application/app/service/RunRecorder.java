package dev.hexaflow.application.app.service;

import dev.hexaflow.application.app.port.out.RunEventFormat;
import dev.hexaflow.application.app.port.out.RunRepository;
import dev.hexaflow.application.app.port.out.RunRepository.KeptEvent;
import dev.hexaflow.application.workflow.engine.RunListener;
import dev.hexaflow.domain.app.EndUser;
import dev.hexaflow.domain.workflow.ExecutionMetadata;
import dev.hexaflow.domain.workflow.NodeExecution;
import dev.hexaflow.domain.workflow.RunEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * Keeps a run as its events come, and only then passes each event on: a client is never told of a run, a node or
 * an end that is not kept yet. Writes are queued without waiting. When someone listens, each event is passed on
 * once its write and every earlier event's are committed, in order, while the run goes on meanwhile (a stream
 * costs the run no wait per event); the run's end, and any event after it, waits until everything before it has
 * been passed on, so that the run is over for its caller only when its listener has heard all of it, and a
 * write that failed fails the end with its cause. When nobody listens ({@link RunListener#NONE}), the recorder
 * waits once, before the run's end, which the caller answers with: a blocking run waits for one group commit,
 * not one per node. A listener is called on the {@code listeners} executor, never on the thread that completes a
 * write (the store's single writer): what a listener does (a chat turn keeps its message) cannot stall every
 * run's writes; each call starts after the one before it ended, so the listener still hears one event at a time,
 * in order.
 *
 * <p>Each event the stream shows is also kept as its frame's data, numbered in the run, in the same queue of
 * writes as the run (the writer's batches, not a transaction of its own), and published to the run's live
 * followers ({@link RunFeeds}) once it is kept, in order, on whichever thread completed its write: a publish only
 * adds to queues.
 */
final class RunRecorder implements RunListener {

    private final RunRepository runs;
    private final String appId;
    private final String taskId;
    private final EndUser user;
    private final String version;
    private final String logId;
    private final RunListener next;
    private final Executor listeners;
    private final RunEventFormat format;
    private final RunFeeds feeds;
    private long seq;
    /** The events published to followers so far; never fails (an event that could not be kept is not told). */
    private volatile CompletableFuture<Void> fed = CompletableFuture.completedFuture(null);
    private final List<CompletableFuture<Void>> unconfirmed = new ArrayList<>();
    /** The events passed on so far, each after its write: the next one is passed on after this completes. */
    private CompletableFuture<Void> heard = CompletableFuture.completedFuture(null);
    private boolean ended;
    private String runId;

    RunRecorder(RunRepository runs, String appId, String taskId, EndUser user, String version, String logId,
            RunListener next, Executor listeners, RunEventFormat format, RunFeeds feeds) {
        this.runs = runs;
        this.appId = appId;
        this.taskId = taskId;
        this.user = user;
        this.version = version;
        this.logId = logId;
        this.next = next;
        this.listeners = listeners;
        this.format = format;
        this.feeds = feeds;
    }

    /** Completes once every event so far is published to the run's followers. */
    CompletableFuture<Void> fed() {
        return fed;
    }

    /** Called by one thread at a time, as the engine emits a run's events in order. */
    @Override
    public void on(RunEvent event) {
        CompletableFuture<Void> write = keep(event, write(event));
        ended |= event instanceof RunEvent.WorkflowFinished;
        if (next == RunListener.NONE) {
            if (write != null) {
                unconfirmed.add(write);
            }
            if (ended) {
                awaitKept();
            }
            return;
        }
        CompletableFuture<Void> kept = write == null ? heard : heard.thenCombine(write, (before, own) -> null);
        heard = kept.thenRunAsync(() -> next.on(event), listeners);
        if (ended) {
            unconfirmed.add(heard);
            awaitKept();
        }
    }

    /** Keeps the event's frame, if the stream shows it, and publishes it once it and the run's write are kept. */
    private CompletableFuture<Void> keep(RunEvent event, CompletableFuture<Void> write) {
        String data = runId == null ? null : format.data(event, runId, taskId);
        if (data == null) {
            return write;
        }
        KeptEvent kept = new KeptEvent(runId, ++seq, data);
        CompletableFuture<Void> both = write == null ? runs.event(kept)
                : write.thenCombine(runs.event(kept), (run, own) -> null);
        fed = fed.thenCombine(both, (before, own) -> null).handle((done, failure) -> {
            if (failure == null) {
                feeds.publish(kept);
            }
            return null;
        });
        return both;
    }

    private CompletableFuture<Void> write(RunEvent event) {
        if (event instanceof RunEvent.WorkflowStarted started) {
            runId = started.run().id();
            return runs.started(new RunRepository.StartedRun(started.run(), appId, taskId, user, version, logId));
        } else if (event instanceof RunEvent.NodeStarted started) {
            return runs.saveNode(runId, started.execution());
        } else if (event instanceof RunEvent.NodeFinished finished) {
            return runs.saveNode(runId, finished.execution());
        } else if (event instanceof RunEvent.ContainerCompleted done) {
            return runs.saveNode(runId, new NodeExecution(done.executionId(), done.node().id(),
                    done.node().type(), done.node().title(), done.index(), done.predecessorNodeId(), done.inputs(),
                    null, done.outputs(), done.status(), done.error(), done.elapsedTime(),
                    ExecutionMetadata.NONE.withTokens(done.totalTokens(), null), done.createdAt(), done.finishedAt()));
        } else if (event instanceof RunEvent.WorkflowFinished finished) {
            return runs.finished(finished.run());
        }
        return null;
    }

    /** Waits until every write so far is committed; a write that failed fails the event with its cause. */
    private void awaitKept() {
        try {
            for (CompletableFuture<Void> write : unconfirmed) {
                write.join();
            }
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        } finally {
            unconfirmed.clear();
        }
    }
}
