package dev.hexaflow.application.app.service;

import dev.hexaflow.application.app.port.out.RunRepository;
import dev.hexaflow.application.workflow.engine.RunListener;
import dev.hexaflow.domain.app.EndUser;
import dev.hexaflow.domain.workflow.ExecutionMetadata;
import dev.hexaflow.domain.workflow.NodeExecution;
import dev.hexaflow.domain.workflow.RunEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Keeps a run as its events come, and only then passes each event on: a client is never told of a run, a node or
 * an end that is not kept yet. Writes are queued without waiting; the recorder waits for them to be committed
 * only where someone would hear: before each event passed on to a listener, or, when nobody listens
 * ({@link RunListener#NONE}), before the run's end, which the caller answers with. A blocking run thus waits for
 * one group commit, not one per node.
 */
final class RunRecorder implements RunListener {

    private final RunRepository runs;
    private final String appId;
    private final String taskId;
    private final EndUser user;
    private final String version;
    private final String logId;
    private final RunListener next;
    private final List<CompletableFuture<Void>> unconfirmed = new ArrayList<>();
    private String runId;

    RunRecorder(RunRepository runs, String appId, String taskId, EndUser user, String version, String logId,
            RunListener next) {
        this.runs = runs;
        this.appId = appId;
        this.taskId = taskId;
        this.user = user;
        this.version = version;
        this.logId = logId;
        this.next = next;
    }

    /** Called by one thread at a time, as the engine emits a run's events in order. */
    @Override
    public void on(RunEvent event) {
        CompletableFuture<Void> write = write(event);
        if (write != null) {
            unconfirmed.add(write);
        }
        boolean heard = next != RunListener.NONE;
        if (heard || event instanceof RunEvent.WorkflowFinished) {
            awaitKept();
        }
        next.on(event);
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
