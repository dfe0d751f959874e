package dev.hexaflow.domain.workflow;

import java.util.Map;

/**
 * One run of a workflow as a value: running until it finishes once with a terminal status.
 *
 * @param inputs      the inputs as given, with the sys.* keys
 * @param createdAt   Unix seconds
 * @param elapsedTime seconds, once finished
 */
public record WorkflowRun(String id, String workflowId, RunStatus status, Map<String, Object> inputs,
        Map<String, Object> outputs, String error, double elapsedTime, long totalTokens, int totalSteps,
        int exceptionsCount, long createdAt, Long finishedAt) {

    public WorkflowRun {
        if (id == null || workflowId == null || status == null) {
            throw new IllegalArgumentException("a run needs an id, a workflow id and a status");
        }
        inputs = inputs == null ? Map.of() : inputs;
    }

    public static WorkflowRun started(String id, String workflowId, Map<String, Object> inputs, long createdAt) {
        return new WorkflowRun(id, workflowId, RunStatus.RUNNING, inputs, null, null, 0, 0, 0, 0, createdAt, null);
    }

    public WorkflowRun finish(RunStatus next, Map<String, Object> outputs, String error, double elapsedTime,
            long totalTokens, int totalSteps, int exceptionsCount, long finishedAt) {
        if (!status.canBecome(next)) {
            throw new IllegalTransitionException("run " + id, status, next);
        }
        return new WorkflowRun(id, workflowId, next, inputs, outputs, error, elapsedTime, totalTokens, totalSteps,
                exceptionsCount, createdAt, finishedAt);
    }

    /** Pauses the run where it stands: what it made so far, its time, tokens and steps, and no end yet. */
    public WorkflowRun pause(Map<String, Object> outputs, double elapsedTime, long totalTokens, int totalSteps,
            int exceptionsCount) {
        if (!status.canBecome(RunStatus.PAUSED)) {
            throw new IllegalTransitionException("run " + id, status, RunStatus.PAUSED);
        }
        return new WorkflowRun(id, workflowId, RunStatus.PAUSED, inputs, outputs, null, elapsedTime, totalTokens,
                totalSteps, exceptionsCount, createdAt, null);
    }

    /** The paused run running again, from where it paused. */
    public WorkflowRun resume() {
        if (!status.canBecome(RunStatus.RUNNING)) {
            throw new IllegalTransitionException("run " + id, status, RunStatus.RUNNING);
        }
        return new WorkflowRun(id, workflowId, RunStatus.RUNNING, inputs, outputs, null, elapsedTime, totalTokens,
                totalSteps, exceptionsCount, createdAt, null);
    }
}
