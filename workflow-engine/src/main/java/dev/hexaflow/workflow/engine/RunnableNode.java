package dev.hexaflow.workflow.engine;

import dev.hexaflow.domain.workflow.ErrorHandling;
import dev.hexaflow.domain.workflow.RetryPolicy;
import dev.hexaflow.domain.workflow.VariablePool;
import dev.hexaflow.domain.workflow.VariableSelector;
import java.util.LinkedHashMap;
import java.util.Map;

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

    /**
     * What the node reads as the pool holds it now: each variable it references, by its dotted name, but for
     * environment variables (secrets among them). A node that failed before it answered its inputs is kept with
     * these, so that its record shows what went into the failure.
     */
    Map<String, Object> read(VariablePool pool) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (VariableSelector selector : behavior.references()) {
            if (!selector.nodeId().equals(VariableSelector.ENVIRONMENT)) {
                pool.get(selector).ifPresent(value -> values.put(selector.dotted(), value));
            }
        }
        return values;
    }
}
