package dev.hexaflow.application.workflow.nodes;

import dev.hexaflow.application.workflow.engine.NodeContext;
import dev.hexaflow.domain.workflow.DataTree;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.Values;
import dev.hexaflow.domain.workflow.VariableSelector;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The text an end node streams, in its outputs' order, as Dify's response coordinator sends it: each output's
 * markdown with "\n" between outputs. A model whose text is output <i>i</i> of an end node streams it as it comes,
 * after sending the outputs before <i>i</i>; the end node then sends only what is left. One per run.
 */
final class EndStreams {

    private final Map<String, Integer> sent = new HashMap<>();

    static EndStreams of(NodeContext context) {
        return context.runScoped(EndStreams.class.getName(), EndStreams::new);
    }

    /** The end node sends its outputs not sent yet. */
    synchronized void finish(NodeContext context, Node end) {
        List<DataTree> outputs = end.data().trees("outputs");
        for (int i = sent.getOrDefault(end.id(), 0); i < outputs.size(); i++) {
            send(context, end, outputs, i);
        }
        sent.put(end.id(), outputs.size());
    }

    /**
     * Where a model's text should stream, if an end node shows {@code [nodeId, variable]}: the outputs before it
     * are sent first, and the answer sends each piece as that output's text. In a chatflow the engine's response
     * coordinator takes every piece, and the answers that show it send it on.
     */
    synchronized Optional<Consumer<String>> streamFor(NodeContext context, String nodeId, String variable) {
        Optional<Consumer<String>> chat = context.responseStream(variable);
        if (chat.isPresent()) {
            return chat;
        }
        for (Node end : context.graphOf().nodes()) {
            if (end.type() != NodeType.END) {
                continue;
            }
            List<DataTree> outputs = end.data().trees("outputs");
            for (int i = sent.getOrDefault(end.id(), 0); i < outputs.size(); i++) {
                List<Object> path = outputs.get(i).list("value_selector");
                if (path.size() == 2 && nodeId.equals(String.valueOf(path.get(0)))
                        && variable.equals(String.valueOf(path.get(1)))) {
                    for (int before = sent.getOrDefault(end.id(), 0); before < i; before++) {
                        send(context, end, outputs, before);
                    }
                    if (i > 0) {
                        context.emitText("\n", List.of(end.id(), "answer"));
                    }
                    sent.put(end.id(), i + 1);
                    List<String> source = List.of(nodeId, variable);
                    return Optional.of(piece -> context.emitText(piece, source));
                }
            }
        }
        return Optional.empty();
    }

    private static void send(NodeContext context, Node end, List<DataTree> outputs, int index) {
        if (index > 0) {
            context.emitText("\n", List.of(end.id(), "answer"));
        }
        VariableSelector selector = outputs.get(index).selector("value_selector");
        Object value = context.pool().get(selector).orElse(null);
        context.emitText(Values.markdown(value), selector.path());
    }
}
