package dev.hexaflow.application.workflow.engine;

import dev.hexaflow.domain.workflow.EnvironmentVariable;
import dev.hexaflow.domain.workflow.GraphRules;
import dev.hexaflow.domain.workflow.InvalidNodeDataException;
import dev.hexaflow.domain.workflow.InvalidWorkflowException;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.VariableSelector;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.domain.workflow.WorkflowProblem;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Checks a workflow as a whole before it may run: the graph rules, each node's data against its type, the node
 * types this engine runs, and that every reference points at a node output, {@code sys.*} or {@code env.*}.
 */
final class WorkflowValidator {

    /** The system variables of a workflow app. */
    static final Set<String> SYSTEM_VARIABLES = Set.of("user_id", "app_id", "workflow_id", "workflow_run_id",
            "timestamp", "files", "query", "conversation_id", "dialogue_count", "invoke_from");

    /** What a node with an error strategy adds to its outputs when it fails. */
    static final Set<String> ERROR_OUTPUTS = Set.of("error_message", "error_type");

    private final NodeCatalogue catalogue;

    WorkflowValidator(NodeCatalogue catalogue) {
        this.catalogue = catalogue;
    }

    /** Answers each node prepared to run, or throws with every problem found. */
    Map<String, PreparedNode> prepare(Workflow workflow) {
        List<WorkflowProblem> problems = new ArrayList<>(GraphRules.check(workflow.graph()));
        Map<String, PreparedNode> prepared = new HashMap<>();
        for (Node node : workflow.graph().nodes()) {
            Optional<NodeExecutor> executor = catalogue.executor(node.type());
            if (executor.isEmpty()) {
                problems.add(WorkflowProblem.of(node, "node type '" + node.type().wireName()
                        + "' is not one Hexaflow runs"));
                continue;
            }
            try {
                prepared.put(node.id(), executor.get().prepare(node));
            } catch (InvalidNodeDataException | IllegalArgumentException e) {
                problems.add(WorkflowProblem.of(node, e.getMessage()));
            }
        }
        for (Node node : workflow.graph().nodes()) {
            PreparedNode behavior = prepared.get(node.id());
            if (behavior != null) {
                for (VariableSelector reference : behavior.references()) {
                    check(workflow, node, reference, prepared).ifPresent(problems::add);
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidWorkflowException(problems);
        }
        return prepared;
    }

    private static Optional<WorkflowProblem> check(Workflow workflow, Node node, VariableSelector reference,
            Map<String, PreparedNode> prepared) {
        if (reference.isSystem()) {
            return SYSTEM_VARIABLES.contains(reference.variable()) ? Optional.empty()
                    : Optional.of(WorkflowProblem.of(node, "refers to " + reference + ", no system variable"));
        }
        if (reference.isEnvironment()) {
            boolean known = workflow.environmentVariables().stream().map(EnvironmentVariable::name)
                    .anyMatch(reference.variable()::equals);
            return known ? Optional.empty()
                    : Optional.of(WorkflowProblem.of(node, "refers to " + reference + ", no environment variable"));
        }
        Optional<Node> source = workflow.graph().node(reference.nodeId());
        if (source.isEmpty()) {
            return Optional.of(WorkflowProblem.of(node, "refers to " + reference + ", but there is no node "
                    + reference.nodeId()));
        }
        PreparedNode sourceBehavior = prepared.get(source.get().id());
        if (sourceBehavior == null) {
            return Optional.empty();
        }
        Optional<Set<String>> outputs = sourceBehavior.outputs();
        boolean handlesErrors = !source.get().data().string("error_strategy", "").isEmpty();
        if (handlesErrors && ERROR_OUTPUTS.contains(reference.variable())) {
            return Optional.empty();
        }
        if (outputs.isPresent() && !outputs.get().contains(reference.variable())) {
            return Optional.of(WorkflowProblem.of(node, "refers to " + reference + ", but " + source.get().label()
                    + " has no output " + reference.variable() + " (it has " + String.join(", ",
                    outputs.get().stream().sorted().toList()) + ")"));
        }
        return Optional.empty();
    }

}
