package dev.hexaflow.application.workflow.port.out;

import dev.hexaflow.application.workflow.engine.StopSignal;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/** A chat model endpoint: answers a conversation, giving the text as it comes, cancelled when the run stops. */
public interface ModelProvider {

    /** Whether any endpoint is configured; a workflow with model nodes cannot start without one. */
    boolean isConfigured();

    /**
     * Sends the conversation and streams the answer's text to {@code onText} piece by piece.
     *
     * @throws ModelException when the endpoint refuses, fails, or the call is stopped
     */
    ChatResult chat(ChatRequest request, Consumer<String> onText, StopSignal stop);

    /**
     * One call: the DSL's provider and model names, the messages, the completion parameters (temperature,
     * max_tokens...), and tools the model may call (for extraction).
     */
    record ChatRequest(String provider, String model, List<ChatMessage> messages, Map<String, Object> parameters,
            List<Tool> tools) {
        public ChatRequest {
            messages = List.copyOf(messages);
            parameters = parameters == null ? Map.of() : Map.copyOf(parameters);
            tools = tools == null ? List.of() : List.copyOf(tools);
        }
    }

    /** A message: role (system, user, assistant), text, and image URLs for vision. */
    record ChatMessage(String role, String text, List<String> imageUrls) {
        public ChatMessage {
            imageUrls = imageUrls == null ? List.of() : List.copyOf(imageUrls);
        }

        public static ChatMessage of(String role, String text) {
            return new ChatMessage(role, text, List.of());
        }
    }

    /** A function the model may call, with its JSON schema. */
    record Tool(String name, String description, Map<String, Object> parameters) {
    }

    /** The answer: its text, what it cost, why it ended, and the tool calls it made (arguments as JSON text). */
    record ChatResult(String text, Usage usage, String finishReason, List<ToolCall> toolCalls) {
        public ChatResult {
            toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
        }
    }

    record ToolCall(String name, String arguments) {
    }

    record Usage(long promptTokens, long completionTokens, long totalTokens) {
        public static final Usage NONE = new Usage(0, 0, 0);
    }

    /** The model call failed; the message says what the endpoint said. */
    class ModelException extends RuntimeException {
        public ModelException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
