package dev.hexaflow.application.workflow.nodes;

import dev.hexaflow.application.workflow.engine.NodeContext;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.VariableSelector;

/** Which texts reach the client token by token: a model node's {@code text}, streamed while it is made. */
final class StreamedText {

    private StreamedText() {
    }

    static boolean wasStreamed(NodeContext context, VariableSelector selector) {
        return selector.rest().isEmpty() && selector.variable().equals("text")
                && context.graphOf().node(selector.nodeId()).map(n -> n.type() == NodeType.LLM).orElse(false);
    }
}
