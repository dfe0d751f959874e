package dev.hexaflow.workflow.engine;

import dev.hexaflow.domain.workflow.ConversationVariable;
import dev.hexaflow.domain.workflow.EnvironmentVariable;
import dev.hexaflow.domain.workflow.ErrorHandling;
import dev.hexaflow.domain.workflow.GraphRules;
import dev.hexaflow.domain.workflow.InvalidNodeDataException;
import dev.hexaflow.domain.workflow.InvalidWorkflowException;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.RetryPolicy;
import dev.hexaflow.domain.workflow.VariableSelector;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.domain.workflow.WorkflowProblem;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Checks a workflow as a whole before it may run: the graph rules, each node's data against its type, the node
 * types this engine runs, that answer nodes are a chatflow's and end nodes a workflow app's, and that every
 * reference points at a node output, {@code sys.*}, {@code env.*} or a declared {@code conversation.*}.
 */
final class WorkflowValidator {

    /** The system variables of a workflow app. */
    static final Set<String> SYSTEM_VARIABLES = Set.of("user_id", "app_id", "workflow_id", "workflow_run_id",
            "timestamp", "files", "query", "conversation_id", "dialogue_count", "invoke_from");

    private final NodeCatalogue catalogue;

    WorkflowValidator(NodeCatalogue catalogue) {
        this.catalogue = catalogue;
    }

    /** Answers each node prepared to run, or throws with every problem found. */
    Map<String, RunnableNode> prepare(Workflow workflow) {
        GraphRules.tooLarge(workflow.graph()).ifPresent(tooLarge -> {
            throw new InvalidWorkflowException(List.of(tooLarge));
        });
        List<WorkflowProblem> problems = new ArrayList<>(GraphRules.check(workflow.graph()));
        Map<String, RunnableNode> prepared = new HashMap<>();
        for (Node node : workflow.graph().nodes()) {
            if (node.type() == NodeType.ANSWER && !workflow.isChat()) {
                problems.add(WorkflowProblem.of(node, "an answer node runs only in an advanced-chat app (a "
                        + "chatflow); a workflow app ends with an end node"));
                continue;
            }
            if (node.type().isTrigger() && workflow.isChat()) {
                problems.add(WorkflowProblem.of(node, "a trigger starts only a workflow app; a chatflow starts "
                        + "from a person's message"));
                continue;
            }
            if (node.type() == NodeType.END && workflow.isChat()) {
                problems.add(WorkflowProblem.of(node, "an end node runs only in a workflow app; a chatflow "
                        + "answers with answer nodes"));
                continue;
            }
            Optional<NodeExecutor> executor = catalogue.executor(node.type());
            if (executor.isEmpty()) {
                problems.add(WorkflowProblem.of(node, "node type '" + node.type().wireName()
                        + "' is not one Hexaflow runs; remove the node or replace it with one of the types "
                        + "docs/command-line.md lists"));
                continue;
            }
            PreparedNode behavior = read(node, problems, () -> executor.get().prepare(node));
            RetryPolicy retry = read(node, problems, () -> RetryPolicy.of(node.data()));
            ErrorHandling errors = read(node, problems, () -> ErrorHandling.of(node.data()));
            if (behavior != null && retry != null && errors != null) {
                prepared.put(node.id(), new RunnableNode(behavior, retry, errors));
            }
        }
        for (Node node : workflow.graph().nodes()) {
            RunnableNode runnable = prepared.get(node.id());
            if (runnable != null) {
                for (VariableSelector reference : runnable.behavior().references()) {
                    check(workflow, node, reference, prepared).ifPresent(problems::add);
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidWorkflowException(problems);
        }
        return prepared;
    }

    /** One reading of a node's data, or null with the problem added when the data does not read. */
    private static <T> T read(Node node, List<WorkflowProblem> problems, Supplier<T> reading) {
        try {
            return reading.get();
        } catch (InvalidNodeDataException | IllegalArgumentException e) {
            problems.add(WorkflowProblem.of(node, e.getMessage()));
            return null;
        }
    }

    private static Optional<WorkflowProblem> check(Workflow workflow, Node node, VariableSelector reference,
            Map<String, RunnableNode> prepared) {
        if (reference.isSystem()) {
            return SYSTEM_VARIABLES.contains(reference.variable()) ? Optional.empty()
                    : Optional.of(WorkflowProblem.of(node, "refers to " + reference + ", no system variable"));
        }
        if (reference.isConversation()) {
            boolean known = workflow.conversationVariables().stream().map(ConversationVariable::name)
                    .anyMatch(reference.variable()::equals);
            return known ? Optional.empty()
                    : Optional.of(WorkflowProblem.of(node, "refers to " + reference + ", no conversation variable"));
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
        if (reference.isSystemOfNode() && source.get().type().isRoot()) {
            return systemOfRoot(node, reference, source.get());
        }
        RunnableNode sourceNode = prepared.get(source.get().id());
        if (sourceNode == null) {
            return Optional.empty();
        }
        Optional<Set<String>> outputs = sourceNode.behavior().outputs();
        if (sourceNode.errors().handlesErrors() && ErrorHandling.ERROR_OUTPUTS.contains(reference.variable())) {
            return Optional.empty();
        }
        if (outputs.isPresent() && !outputs.get().contains(reference.variable())) {
            return Optional.of(WorkflowProblem.of(node, "refers to " + reference + ", but " + source.get().label()
                    + " has no output " + reference.variable() + " (it has " + String.join(", ",
                    outputs.get().stream().sorted().toList()) + ")"));
        }
        return Optional.empty();
    }

    /** {@code [root, "sys.X"]}: the system variable {@code sys.X}, as Dify's start node outputs it. */
    private static Optional<WorkflowProblem> systemOfRoot(Node node, VariableSelector reference, Node root) {
        String name = reference.variable().substring(VariableSelector.SYSTEM.length() + 1);
        if (SYSTEM_VARIABLES.contains(name)) {
            return Optional.empty();
        }
        return Optional.of(WorkflowProblem.of(node, "refers to " + reference + ", but " + root.label()
                + " has no system variable " + reference.variable() + " (there are sys." + String.join(", sys.",
                SYSTEM_VARIABLES.stream().sorted().toList()) + ")"));
    }
}
