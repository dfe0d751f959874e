package dev.hexaflow.adapters.nodes.model;

import dev.hexaflow.workflow.port.out.ModelProvider.ChatResult;
import dev.hexaflow.workflow.port.out.ModelProvider.ModelException;
import dev.hexaflow.workflow.port.out.ModelProvider.ToolCall;
import dev.hexaflow.workflow.port.out.ModelProvider.Usage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * A streamed completion as its chunks arrive: the text (each piece handed on as it comes), the tool calls put
 * together from their pieces, the last {@code finish_reason} and usage. One per call.
 */
final class StreamedCompletion {

    private boolean any;
    private final StringBuilder text = new StringBuilder();
    private String finish = "stop";
    private Usage usage = Usage.NONE;
    private final Map<Integer, String[]> calls = new TreeMap<>();
    private final ReasoningText reasoning = new ReasoningText();

    /** Adds a chunk; an error in the stream fails the call with the endpoint's message. */
    void add(CompletionChunk chunk, Consumer<String> onText) {
        any |= chunk.choices();
        if (chunk.error() != null) {
            throw new ModelException("Error: " + chunk.error(), null);
        }
        String piece = reasoning.of(chunk.reasoningContent(), chunk.reasoning(), chunk.content());
        if (!piece.isEmpty()) {
            text.append(piece);
            onText.accept(piece);
        }
        for (CompletionChunk.ToolCallPiece call : chunk.toolCalls()) {
            String[] parts = calls.computeIfAbsent(call.index() != null ? call.index() : calls.size(),
                    i -> new String[] {"", "", ""});
            parts[0] += call.name();
            parts[1] += call.arguments();
            // The id comes whole in the call's first piece; later pieces carry none.
            if (parts[2].isEmpty()) {
                parts[2] = call.id();
            }
        }
        if (chunk.finishReason() != null) {
            finish = chunk.finishReason();
        }
        if (chunk.usage() != null) {
            usage = chunk.usage();
        }
    }

    /** The stream said {@code [DONE]}: a completion, even if no chunk had choices. */
    void done() {
        any = true;
    }

    /** The completion, or null when the stream carried none. */
    ChatResult result() {
        if (!any) {
            return null;
        }
        List<ToolCall> toolCalls = new ArrayList<>();
        calls.values().forEach(parts -> toolCalls.add(new ToolCall(parts[2], parts[0], parts[1])));
        return new ChatResult(text.toString(), usage, finish, toolCalls);
    }
}
