package dev.hexaflow.workflow.nodes;

import dev.hexaflow.workflow.engine.NodeContext;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Where a node's streamed text goes: the engine's response coordinator, which sends it on when an answer or end
 * node shows it. The nodes that stream (llm, tool, agent) ask here.
 */
final class EndStreams {

    private static final EndStreams INSTANCE = new EndStreams();

    static EndStreams of(NodeContext context) {
        return INSTANCE;
    }

    /** Where the text of {@code [nodeId, variable]} streams, if a response shows it. */
    Optional<Consumer<String>> streamFor(NodeContext context, String nodeId, String variable) {
        return context.responseStream(variable);
    }
}
