package dev.hexaflow.application.runs.service;

import dev.hexaflow.application.runs.port.out.RunEventFormat;
import dev.hexaflow.application.runs.port.out.RunRepository.KeptEvent;
import dev.hexaflow.application.runs.port.out.RunRepository;
import dev.hexaflow.domain.app.EndUser;
import dev.hexaflow.domain.workflow.ExecutionMetadata;
import dev.hexaflow.domain.workflow.NodeExecution;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.workflow.engine.RunListener;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 * not one per node. A run whose caller waits for its end itself ({@link #leaveEndToCaller}) does not wait here:
 * the thread that played the end or the pause (a node's) goes on, and the caller waits for {@link #settled}. A
 * listener is called on the {@code listeners} executor, never on the thread that completes a
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
    private final String traceId;
    private final RunListener next;
    private final Executor listeners;
    private final RunEventFormat format;
    private final RunFeeds feeds;
    private final HeldRecords holds;
    /** What a run nobody listens to has done so far, held until its end or until it has gone on too long. */
    private Held held;
    private long seq;
    /** The events published to followers so far; never fails (an event that could not be kept is not told). */
    private volatile CompletableFuture<Void> fed = CompletableFuture.completedFuture(null);
    private final List<CompletableFuture<Void>> unconfirmed = new ArrayList<>();
    /** The events passed on so far, each after its write: the next one is passed on after this completes. */
    private CompletableFuture<Void> heard = CompletableFuture.completedFuture(null);
    private boolean ended;
    /** Whether the run's caller waits for its end to be kept ({@link #settled}), so that the engine's thread need not. */
    private boolean endLeftToCaller;
    /** Everything up to the run's end kept (and heard by its listener), when the end is left to the caller. */
    private volatile CompletableFuture<Void> settled = CompletableFuture.completedFuture(null);
    private String runId;
    private String triggeredFrom;

    RunRecorder(RunRepository runs, String appId, String taskId, EndUser user, String version, String logId,
            RunListener next, Executor listeners, RunEventFormat format, RunFeeds feeds, HeldRecords holds) {
        this(runs, appId, taskId, user, version, logId, null, next, listeners, format, feeds, holds);
    }

    /** As above, keeping with the run the id of the trace its spans belong to (null when it is not traced). */
    RunRecorder(RunRepository runs, String appId, String taskId, EndUser user, String version, String logId,
            String traceId, RunListener next, Executor listeners, RunEventFormat format, RunFeeds feeds,
            HeldRecords holds) {
        this.traceId = traceId;
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
        this.holds = next == RunListener.NONE ? holds : null;
    }

    /**
     * A recorder for a paused run going on: its row exists, its events are numbered on from the last one kept, and
     * it is not held (whoever resumed it does not wait for it); {@code next} (a chat turn's keeper, or
     * {@link RunListener#NONE}) hears each event once it is kept.
     */
    static RunRecorder resuming(RunRepository runs, String appId, String taskId, EndUser user, String runId,
            long lastSeq, RunListener next, Executor listeners, RunEventFormat format, RunFeeds feeds) {
        RunRecorder recorder = new RunRecorder(runs, appId, taskId, user, null, null, next, listeners,
                format, feeds, null);
        recorder.runId = runId;
        recorder.seq = lastSeq;
        return recorder;
    }

    /** Keeps with the run how it started (a trigger's kind); set before its first event. */
    void triggeredFrom(String kind) {
        this.triggeredFrom = kind;
    }

    /**
     * Leaves the wait for the run's end or pause to be kept to whoever follows the run, through {@link #settled}:
     * the thread that plays it (a node's, when the run is on the engine's threads) goes on at once. Whatever tells
     * of a pause (the caller's answer, a form's mail, a pause's webhook) waits for it, so that whoever resumes the
     * run finds what the pause kept. Set before the run's first event.
     */
    void leaveEndToCaller() {
        this.endLeftToCaller = true;
    }

    /**
     * Completes once the run's end or pause and everything before it is kept, and heard by its listener, when the
     * end is left to the caller (at once otherwise, as the end waited where it was played); fails with the first
     * write's failure. Read after the run's end or pause was played.
     */
    CompletableFuture<Void> settled() {
        return settled;
    }

    /** Completes once every event so far is published to the run's followers. */
    CompletableFuture<Void> fed() {
        return fed;
    }

    /** Called by one thread at a time, as the engine emits a run's events in order. */
    @Override
    public void on(RunEvent event) {
        if (holds != null) {
            onHeld(event);
            return;
        }
        CompletableFuture<Void> write = keep(event, write(event));
        ended |= endsThisStretch(event);
        if (next == RunListener.NONE) {
            if (write != null) {
                unconfirmed.add(write);
            }
            if (ended) {
                endOfStretch(event);
            }
            return;
        }
        CompletableFuture<Void> kept = write == null ? heard : heard.thenCombine(write, (before, own) -> null);
        heard = kept.thenRunAsync(() -> next.on(event), listeners);
        if (ended) {
            unconfirmed.add(heard);
            endOfStretch(event);
        }
    }

    /**
     * A run nobody listens to: held in memory from its start, then kept in one write at its end, and the end
     * waits for that write; or, when it goes on past the hold ({@link #keepHeld}), kept as it is then and from
     * there on as its events come. Synchronized with {@link #keepHeld}, which another thread calls.
     */
    private void onHeld(RunEvent event) {
        synchronized (this) {
            ended |= endsThisStretch(event);
            if (event instanceof RunEvent.WorkflowStarted started) {
                runId = started.run().id();
                held = new Held(new RunRepository.StartedRun(started.run(), appId, taskId, user, version, logId,
                        traceId, triggeredFrom));
                holds.hold(this);
            }
            if (held == null) {
                CompletableFuture<Void> write = keep(event, write(event));
                if (write != null) {
                    unconfirmed.add(write);
                }
            } else {
                held.add(event, heldFrame(event));
                if (ended) {
                    unconfirmed.add(keepHeldNow());
                }
                if (event instanceof RunEvent.WorkflowPaused) {
                    // The pause goes in the writer's order after the held run's own rows.
                    unconfirmed.add(write(event));
                }
            }
        }
        // Outside the lock: the timer that keeps overdue runs never waits on a commit.
        if (ended) {
            endOfStretch(event);
        }
    }

    /** Keeps what the run has done so far in one write, if it is still held; its events are published after. */
    synchronized void keepHeld() {
        if (held != null) {
            unconfirmed.add(keepHeldNow());
        }
    }

    private CompletableFuture<Void> keepHeldNow() {
        Held run = held;
        held = null;
        holds.release(this);
        CompletableFuture<Void> write;
        try {
            write = runs.kept(run.kept());
        } catch (RuntimeException e) {
            // Told by the run's end, whichever thread kept it (the timer's would only log it).
            write = CompletableFuture.failedFuture(e);
        }
        fed = fed.thenCombine(write, (before, own) -> null).handle((done, failure) -> {
            // Frames are made only for followers: a reference's frame is made from the event it stands for.
            if (failure == null && feeds.followed(runId)) {
                run.events.forEach(event -> feeds.publish(EventReferences.isReference(event.kept().data())
                        ? new KeptEvent(runId, event.kept().seq(), format.data(event.event(), runId, taskId))
                        : event.kept()));
            }
            return null;
        });
        return write;
    }

    /** A held event as it is kept: a reference to the rows it shows, or its frame; null for one not shown. */
    private KeptEvent heldFrame(RunEvent event) {
        String reference = format == RunEventFormat.NONE ? null : EventReferences.of(event);
        return reference == null ? frame(event) : new KeptEvent(runId, ++seq, reference);
    }

    /** The event as its stream shows it, numbered in the run, or null for an event the stream does not show. */
    private KeptEvent frame(RunEvent event) {
        String data = runId == null ? null : format.data(event, runId, taskId);
        return data == null ? null : new KeptEvent(runId, ++seq, data);
    }

    /** Keeps the event's frame, if the stream shows it, and publishes it once it and the run's write are kept. */
    private CompletableFuture<Void> keep(RunEvent event, CompletableFuture<Void> write) {
        KeptEvent kept = frame(event);
        if (kept == null) {
            return write;
        }
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

    /**
     * A held run: its start (replaced by its end once it ends, so that it is kept ended, in one row), its node
     * executions as they are now, and its frames in order.
     */
    private static final class Held {
        private RunRepository.StartedRun start;
        private final Map<String, NodeExecution> nodes = new LinkedHashMap<>();
        private final List<HeldEvent> events = new ArrayList<>();

        Held(RunRepository.StartedRun start) {
            this.start = start;
        }

        void add(RunEvent event, KeptEvent kept) {
            NodeExecution node = execution(event);
            if (node != null) {
                nodes.put(node.id(), node);
            }
            if (event instanceof RunEvent.WorkflowFinished finished) {
                start = new RunRepository.StartedRun(finished.run(), start.appId(), start.taskId(), start.user(),
                        start.version(), start.logId(), start.traceId(), start.triggeredFrom());
            }
            if (kept != null) {
                events.add(new HeldEvent(event, kept));
            }
        }

        RunRepository.KeptRun kept() {
            return new RunRepository.KeptRun(start, List.copyOf(nodes.values()),
                    events.stream().map(HeldEvent::kept).toList());
        }
    }

    /** A held event and what is kept of it. */
    private record HeldEvent(RunEvent event, KeptEvent kept) {
    }

    /** The node execution an event tells of, as it is now; null for an event that tells of none. */
    private static NodeExecution execution(RunEvent event) {
        if (event instanceof RunEvent.NodeStarted started) {
            return started.execution();
        } else if (event instanceof RunEvent.NodeFinished finished) {
            return finished.execution();
        } else if (event instanceof RunEvent.ContainerCompleted done) {
            return new NodeExecution(done.executionId(), done.node().id(), done.node().type(), done.node().title(),
                    done.index(), done.predecessorNodeId(), done.inputs(), null, done.outputs(), done.status(),
                    done.error(), done.elapsedTime(), ExecutionMetadata.NONE.withTokens(done.totalTokens(), null),
                    done.createdAt(), done.finishedAt());
        }
        return null;
    }

    /** A run's end, or its pause: either way this stretch of it is over and must be kept before it is told. */
    private static boolean endsThisStretch(RunEvent event) {
        return event instanceof RunEvent.WorkflowFinished || event instanceof RunEvent.WorkflowPaused;
    }

    private CompletableFuture<Void> write(RunEvent event) {
        if (event instanceof RunEvent.WorkflowPaused paused) {
            return runs.paused(new RunRepository.RunPause(paused.paused(), paused.newForms(), appId,
                    user == null ? null : user.id(), paused.run().createdAt() + (long) paused.run().elapsedTime()));
        }
        if (event instanceof RunEvent.WorkflowStarted started) {
            runId = started.run().id();
            return runs.started(new RunRepository.StartedRun(started.run(), appId, taskId, user, version, logId,
                    traceId, triggeredFrom));
        }
        NodeExecution node = execution(event);
        if (node != null) {
            return runs.saveNode(runId, node);
        } else if (event instanceof RunEvent.WorkflowFinished finished) {
            return runs.finished(finished.run());
        }
        return null;
    }

    /**
     * After a run's end or pause: its writes are left to the caller's wait when it asked for that (and added to it,
     * for any event after the end); otherwise this thread waits for them.
     */
    private void endOfStretch(RunEvent event) {
        if (endLeftToCaller) {
            List<CompletableFuture<Void>> writes;
            synchronized (this) {
                writes = List.copyOf(unconfirmed);
                unconfirmed.clear();
            }
            settled = settled.thenCombine(CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)),
                    (before, own) -> null);
        } else {
            awaitKept();
        }
    }

    /** Waits until every write so far is committed; a write that failed fails the event with its cause. */
    private void awaitKept() {
        List<CompletableFuture<Void>> writes;
        synchronized (this) {
            writes = List.copyOf(unconfirmed);
            unconfirmed.clear();
        }
        try {
            for (CompletableFuture<Void> write : writes) {
                write.join();
            }
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        }
    }
}
