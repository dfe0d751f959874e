package dev.hexaflow.application.app.service;

import dev.hexaflow.application.app.port.out.RunRepository;
import dev.hexaflow.application.workflow.engine.RunListener;
import dev.hexaflow.domain.app.EndUser;
import dev.hexaflow.domain.workflow.ExecutionMetadata;
import dev.hexaflow.domain.workflow.NodeExecution;
import dev.hexaflow.domain.workflow.RunEvent;

/**
 * Keeps a run as its events come, and only then passes each event on: a client is never told of a run, a node or
 * an end that is not kept yet.
 */
final class RunRecorder implements RunListener {

    private final RunRepository runs;
    private final String appId;
    private final String taskId;
    private final EndUser user;
    private final String version;
    private final String logId;
    private final RunListener next;
    private volatile String runId;

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

    private String runId() {
        return runId;
    }

    @Override
    public void on(RunEvent event) {
        if (event instanceof RunEvent.WorkflowStarted started) {
            runId = started.run().id();
            runs.started(new RunRepository.StartedRun(started.run(), appId, taskId, user, version, logId));
        } else if (event instanceof RunEvent.NodeStarted started) {
            runs.saveNode(runId(), started.execution());
        } else if (event instanceof RunEvent.NodeFinished finished) {
            runs.saveNode(runId(), finished.execution());
        } else if (event instanceof RunEvent.ContainerCompleted done) {
            runs.saveNode(runId(), new NodeExecution(done.executionId(), done.node().id(),
                    done.node().type(), done.node().title(), done.index(), done.predecessorNodeId(), done.inputs(),
                    null, done.outputs(), done.status(), done.error(), done.elapsedTime(),
                    ExecutionMetadata.NONE.withTokens(done.totalTokens(), null), done.createdAt(), done.finishedAt()));
        } else if (event instanceof RunEvent.WorkflowFinished finished) {
            runs.finished(finished.run());
        }
        next.on(event);
    }
}
