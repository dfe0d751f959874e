package dev.hexaflow.workflow.engine;

import dev.hexaflow.domain.workflow.HumanInputForm;
import dev.hexaflow.domain.workflow.NodeStatus;
import java.util.Map;

/**
 * How one node run ended, after its retries and its error strategy; a node that waits for a person ends paused,
 * with the form it sent.
 */
record NodeOutcome(NodeStatus status, NodeResult result, Map<String, Object> outputs, String handle,
        String error, String errorType, HumanInputForm form) {

    static NodeOutcome succeeded(NodeResult result) {
        return new NodeOutcome(NodeStatus.SUCCEEDED, result, result.outputs(), result.handle(), null, null, null);
    }

    static NodeOutcome failed(Exception e) {
        return new NodeOutcome(NodeStatus.FAILED, null, null, null,
                e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage(),
                e instanceof NodeFailure failure ? failure.type() : e.getClass().getSimpleName(), null);
    }

    static NodeOutcome paused(HumanInputForm form) {
        return new NodeOutcome(NodeStatus.PAUSED, null, null, null, null, null, form);
    }

    /** Stopped, keeping the error of the try before, if one failed. */
    static NodeOutcome stopped(NodeOutcome before) {
        return new NodeOutcome(NodeStatus.STOPPED, null, null, null, before == null ? null : before.error(),
                before == null ? null : before.errorType(), null);
    }

    NodeOutcome withHandle(String next) {
        return new NodeOutcome(status, result, outputs, next, error, errorType, form);
    }

    /** A failure the error strategy handled: an exception with the strategy's outputs and branch. */
    NodeOutcome handled(Map<String, Object> failureOutputs, String next) {
        return new NodeOutcome(NodeStatus.EXCEPTION, result, failureOutputs, next, error, errorType, form);
    }

    long tokens() {
        return result == null ? 0 : result.tokens();
    }
}
