package dev.hexaflow.workflow.port.out;

import dev.hexaflow.workflow.engine.StopSignal;
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
     * Whether the model answers to a JSON schema given as its response format (OpenAI's structured outputs, Dify's
     * "structured-output" model feature); when not, an LLM node puts the schema into its prompt instead.
     */
    default boolean takesJsonSchema(String provider, String model) {
        return false;
    }

    /**
     * One call: the DSL's provider and model names, the messages, the completion parameters (temperature,
     * max_tokens...), tools the model may call (for extraction), and the JSON schema its answer must follow (null:
     * any text), sent only to a model that {@link #takesJsonSchema takes one}.
     */
    record ChatRequest(String provider, String model, List<ChatMessage> messages, Map<String, Object> parameters,
            List<Tool> tools, Map<String, Object> responseSchema) {
        public ChatRequest {
            messages = List.copyOf(messages);
            parameters = parameters == null ? Map.of() : Map.copyOf(parameters);
            tools = tools == null ? List.of() : List.copyOf(tools);
        }

        public ChatRequest(String provider, String model, List<ChatMessage> messages, Map<String, Object> parameters,
                List<Tool> tools) {
            this(provider, model, messages, parameters, tools, null);
        }
    }

    /**
     * A message: role (system, user, assistant, tool), text, and image URLs for vision; an assistant's message may
     * carry the tool calls it made, and a tool's message names the call it answers.
     */
    record ChatMessage(String role, String text, List<String> imageUrls, List<ToolCall> toolCalls,
            String toolCallId) {
        public ChatMessage {
            imageUrls = imageUrls == null ? List.of() : List.copyOf(imageUrls);
            toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
        }

        public ChatMessage(String role, String text, List<String> imageUrls) {
            this(role, text, imageUrls, List.of(), null);
        }

        public static ChatMessage of(String role, String text) {
            return new ChatMessage(role, text, List.of());
        }

        /** The model's turn as it was, so that the next round's request holds the calls it made. */
        public static ChatMessage assistant(String text, List<ToolCall> calls) {
            return new ChatMessage("assistant", text, List.of(), calls, null);
        }

        /** What a tool answered to one call. */
        public static ChatMessage toolResult(String callId, String text) {
            return new ChatMessage("tool", text, List.of(), List.of(), callId);
        }
    }

    /** A function the model may call, with its JSON schema. */
    record Tool(String name, String description, Map<String, Object> parameters) {
        public Tool {
            description = description == null ? "" : description;
            parameters = parameters == null ? Map.of("type", "object") : Map.copyOf(parameters);
        }
    }

    /** The answer: its text, what it cost, why it ended, and the tool calls it made (arguments as JSON text). */
    record ChatResult(String text, Usage usage, String finishReason, List<ToolCall> toolCalls) {
        public ChatResult {
            toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
        }
    }

    /** A call the model made: the id the endpoint gave it (answered back with the result), the tool, its arguments. */
    record ToolCall(String id, String name, String arguments) {
        public ToolCall {
            id = id == null ? "" : id;
            arguments = arguments == null ? "" : arguments;
        }

        public ToolCall(String name, String arguments) {
            this("", name, arguments);
        }
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
