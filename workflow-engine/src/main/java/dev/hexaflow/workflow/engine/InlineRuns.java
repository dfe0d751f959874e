package dev.hexaflow.workflow.engine;

import dev.hexaflow.domain.workflow.Edge;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.Workflow;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Set;

/**
 * Whether a workflow's runs may play on the thread that asks for them ({@link RunHandle#playHere}): only when no
 * node of it needs a thread of its own. Decided once, when the workflow is prepared; when in doubt, no.
 */
final class InlineRuns {

    /**
     * The node types known to be quick and CPU-only: they read and write the run's variables, render a template
     * compiled at prepare (bounded by the run's template limits), compare, or pass on what a trigger handed in.
     * Loop and iteration run their rounds on their own thread one after another (an iteration set to run in
     * parallel is refused below), so they qualify when their children do. Everything else may wait on the world
     * or start threads of its own and is left out: model nodes (llm, agent, question-classifier,
     * parameter-extractor), knowledge-retrieval, http-request, tool, code (a Python worker out of process, or a
     * JavaScript worker it may queue for), document-extractor (it may fetch a remote file), human-input (a pause),
     * and any type added later until it is listed here.
     */
    private static final Set<NodeType> QUICK = EnumSet.of(NodeType.START, NodeType.END, NodeType.ANSWER,
            NodeType.IF_ELSE, NodeType.TEMPLATE_TRANSFORM, NodeType.VARIABLE_AGGREGATOR, NodeType.VARIABLE_ASSIGNER,
            NodeType.ASSIGNER, NodeType.LIST_OPERATOR, NodeType.LOOP, NodeType.LOOP_START, NodeType.LOOP_END,
            NodeType.ITERATION, NodeType.ITERATION_START, NodeType.TRIGGER_SCHEDULE, NodeType.TRIGGER_WEBHOOK,
            NodeType.TRIGGER_PLUGIN);

    private InlineRuns() {
    }

    /**
     * True when every node is of a {@link #QUICK} type, no iteration runs its rounds in parallel, no source handle
     * leads to two nodes or more (the only way two nodes become ready at once: each node then takes one edge at
     * most, so one node at a time is ready, and the traversal never hands one to another thread), and the app does
     * not speak its answers (the speech is a call to a synthesizer after the run's end).
     */
    static boolean mayRunInline(Workflow workflow) {
        if (workflow.features().tree("text_to_speech").bool("enabled", false)) {
            return false;
        }
        for (Node node : workflow.graph().nodes()) {
            if (!QUICK.contains(node.type())
                    || node.type() == NodeType.ITERATION && node.data().bool("is_parallel", false)) {
                return false;
            }
        }
        Set<String> handles = new HashSet<>();
        for (Edge edge : workflow.graph().edges()) {
            if (!handles.add(edge.source() + "\n" + edge.sourceHandle())) {
                return false;
            }
        }
        return true;
    }
}
