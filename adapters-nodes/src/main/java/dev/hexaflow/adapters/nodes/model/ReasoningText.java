package dev.hexaflow.adapters.nodes.model;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The text of a reasoning model's answer as Dify's OpenAI-compatible plugins give it: the reasoning an endpoint
 * sends apart ({@code reasoning_content}, as DeepSeek and Qwen servers do, or vLLM's {@code reasoning}) is put in the
 * text inside {@code <think>\n...\n</think>}, before the answer, so that the LLM node's reasoning format applies to
 * it as to a model that writes the tags itself. One per answer: it remembers whether a block is open.
 */
final class ReasoningText {

    private boolean open;

    /** The text of one streamed delta: its content, its reasoning opening or going on in a block, or closing it. */
    String of(JsonNode delta) {
        return of(text(delta, "reasoning_content"), text(delta, "reasoning"), text(delta, "content"));
    }

    /** The same, from the delta's three text fields ("" where a field is absent or not text). */
    String of(String reasoningContent, String reasoningText, String content) {
        String reasoning = reasoningContent.isEmpty() ? reasoningText : reasoningContent;
        if (!reasoning.isEmpty()) {
            String piece = open ? reasoning : "<think>\n" + reasoning;
            open = content.isEmpty();
            return open ? piece : piece + "\n</think>" + content;
        }
        if (open && !content.isEmpty()) {
            open = false;
            return "\n</think>" + content;
        }
        return content;
    }

    /** The text of a whole (unstreamed) answer's message: its reasoning in a closed block, then its content. */
    static String whole(JsonNode message) {
        ReasoningText text = new ReasoningText();
        String reasoning = text.of(message);
        return text.open ? reasoning + "\n</think>" : reasoning;
    }

    private static String text(JsonNode delta, String field) {
        return delta.path(field).isTextual() ? delta.path(field).asText() : "";
    }
}
