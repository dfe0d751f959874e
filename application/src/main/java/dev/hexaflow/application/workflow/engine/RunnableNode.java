package dev.hexaflow.application.workflow.engine;

import dev.hexaflow.domain.workflow.ErrorHandling;
import dev.hexaflow.domain.workflow.RetryPolicy;

/**
 * A node as the engine runs it, all read once when the workflow is prepared: what it does, how often it is tried
 * again when it fails, and what a failure becomes.
 */
record RunnableNode(PreparedNode behavior, RetryPolicy retry, ErrorHandling errors) {

    RunnableNode {
        if (behavior == null || retry == null || errors == null) {
            throw new IllegalArgumentException("a runnable node needs its behavior, retry policy and error handling");
        }
    }
}
