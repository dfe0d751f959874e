package dev.hexaflow.application.workflow.engine;

import dev.hexaflow.domain.workflow.Workflow;
import java.util.Map;

/** A workflow that passed every check, with its nodes read once, ready for any number of runs. */
public final class PreparedWorkflow {

    private final Workflow workflow;
    private final Map<String, PreparedNode> nodes;

    PreparedWorkflow(Workflow workflow, Map<String, PreparedNode> nodes) {
        this.workflow = workflow;
        this.nodes = Map.copyOf(nodes);
    }

    public Workflow workflow() {
        return workflow;
    }

    Map<String, PreparedNode> nodes() {
        return nodes;
    }
}
