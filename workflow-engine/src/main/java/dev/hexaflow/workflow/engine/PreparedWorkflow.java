package dev.hexaflow.workflow.engine;

import dev.hexaflow.domain.workflow.InputField;
import dev.hexaflow.domain.workflow.Workflow;
import java.util.List;
import java.util.Map;

/** A workflow that passed every check, with its nodes and its input form read once, ready for any number of runs. */
public final class PreparedWorkflow {

    private final Workflow workflow;
    private final Map<String, RunnableNode> nodes;
    private final List<InputField> inputForm;
    private final List<String> warnings;
    private final boolean inline;

    PreparedWorkflow(Workflow workflow, Map<String, RunnableNode> nodes, List<String> warnings, boolean inline) {
        this.inline = inline;
        this.workflow = workflow;
        this.nodes = Map.copyOf(nodes);
        this.inputForm = workflow.inputFields();
        this.warnings = List.copyOf(warnings);
    }

    public Workflow workflow() {
        return workflow;
    }

    /** The start form as typed fields, in the order the DSL gives them. */
    public List<InputField> inputForm() {
        return inputForm;
    }

    /** What the nodes' executors warn of (a tool nothing runs yet ...), in the graph's order, each once. */
    public List<String> warnings() {
        return warnings;
    }

    /**
     * Whether its runs may play on the thread that asks for them ({@link WorkflowEngine#ready}): no node of it needs
     * a thread of its own, none waits on the world, and no two run at once (see {@link InlineRuns}).
     */
    public boolean mayRunInline() {
        return inline;
    }

    Map<String, RunnableNode> nodes() {
        return nodes;
    }
}
