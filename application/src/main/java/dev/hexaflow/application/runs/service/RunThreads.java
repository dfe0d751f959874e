package dev.hexaflow.application.runs.service;

import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunObserver;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunUnderWay;
import dev.hexaflow.workflow.engine.PreparedWorkflow;
import dev.hexaflow.workflow.engine.RunHandle;
import dev.hexaflow.workflow.engine.RunListener;
import dev.hexaflow.workflow.engine.RunRequest;
import dev.hexaflow.workflow.engine.WorkflowEngine;
import java.util.function.Supplier;

/**
 * Which thread plays a run. A run whose caller waits for its end (a blocking request), that nobody listens to (its
 * recorder holds it and keeps it in one write at its end, which the end waits for) and whose workflow may run
 * inline ({@link PreparedWorkflow#mayRunInline}) plays on the caller's own thread once it is tracked: the request
 * hands nothing to another thread and waits once, for its commit. Every other run (streamed, async, a chat turn,
 * a workflow with parallel branches or nodes that wait on the world) starts on the engine's threads.
 */
final class RunThreads {

    private final WorkflowEngine engine;
    private final RunFeeds feeds;
    private final boolean inline;

    /** @param inline whether runs that may play on their caller's thread do (HEXAFLOW_INLINE_RUNS) */
    RunThreads(WorkflowEngine engine, RunFeeds feeds, boolean inline) {
        this.engine = engine;
        this.feeds = feeds;
        this.inline = inline;
    }

    /** Whether the run plays on the thread that asks for it. */
    boolean playsHere(PreparedWorkflow workflow, RunObserver observer, boolean waited) {
        return inline && waited && observer == RunObserver.NONE && workflow.mayRunInline();
    }

    /**
     * What {@code tracked} answers (the run as its caller follows it), after the run has played here, when it plays
     * here: it is tracked first, so that a stop by its task id finds it while it plays. A run readied is played
     * even when tracking it failed, as a started run goes on.
     */
    RunUnderWay played(RunHandle handle, boolean here, Supplier<RunUnderWay> tracked) {
        try {
            return tracked.get();
        } finally {
            if (here) {
                handle.playHere();
            }
        }
    }

    /**
     * The run, started on the engine's threads or, when it plays here, ready for {@link RunHandle#playHere}; a run
     * that does not start closes its feed.
     */
    RunHandle begin(PreparedWorkflow workflow, RunRequest request, RunListener listener, boolean here) {
        try {
            return here ? engine.ready(workflow, request, listener) : engine.start(workflow, request, listener);
        } catch (RuntimeException e) {
            feeds.close(request.runId(), null, e);
            throw e;
        }
    }
}
