package dev.hexaflow.workflow.nodes;

import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.workflow.engine.NodeContext;
import java.util.function.Consumer;

/**
 * Where an LLM node's answer goes as the model makes it: its text to the response that shows it (looked up when the
 * first piece comes); with {@code reasoning_format: separated}, its {@code <think>} reasoning apart, as reasoning
 * events, ended by an empty final one ({@link #finish}).
 */
final class AnswerStream implements Consumer<String> {

    private final NodeContext ctx;
    private final String nodeId;
    private final ThinkStreamFilter filter;
    private Consumer<String> sink;
    private boolean reasoned;

    AnswerStream(Node node, NodeContext ctx, boolean separateReasoning) {
        this.ctx = ctx;
        this.nodeId = node.id();
        this.filter = separateReasoning ? new ThinkStreamFilter() : null;
    }

    @Override
    public void accept(String piece) {
        if (filter == null) {
            text(piece);
            return;
        }
        filter.feed(piece).forEach(this::send);
    }

    /** The answer is complete: what the filter held goes out, and the reasoning, if any came, ends. */
    void finish() {
        if (filter == null) {
            return;
        }
        filter.finish().forEach(this::send);
        if (reasoned) {
            ctx.emitReasoning("", true);
        }
    }

    private void send(ThinkStreamFilter.Piece piece) {
        if (piece.reasoning()) {
            reasoned = true;
            ctx.emitReasoning(piece.text(), false);
        } else {
            text(piece.text());
        }
    }

    private void text(String piece) {
        if (sink == null) {
            sink = EndStreams.of(ctx).streamFor(ctx, nodeId, "text").orElse(p -> { });
        }
        sink.accept(piece);
    }
}
