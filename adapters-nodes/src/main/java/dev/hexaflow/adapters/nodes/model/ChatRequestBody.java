package dev.hexaflow.adapters.nodes.model;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.workflow.port.out.ModelProvider.ChatMessage;
import dev.hexaflow.workflow.port.out.ModelProvider.ChatRequest;
import dev.hexaflow.workflow.port.out.ModelProvider.Tool;
import dev.hexaflow.workflow.port.out.ModelProvider.ToolCall;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Set;

/**
 * A chat-completions request's JSON, written straight to text by a generator (no tree built first): the model,
 * the messages (with their tool calls and images), the completion parameters an OpenAI-compatible endpoint
 * understands, a structured output's schema, the tools, and a streamed answer with its usage.
 */
final class ChatRequestBody {

    /** The completion parameters an OpenAI-compatible endpoint understands; others in the DSL are Dify's own. */
    private static final Set<String> PARAMETERS = Set.of("temperature", "top_p", "max_tokens", "presence_penalty",
            "frequency_penalty", "stop", "seed", "response_format");
    private static final ObjectMapper JSON = new ObjectMapper();

    private ChatRequestBody() {
    }

    static String of(ChatRequest request, String model) {
        StringWriter text = new StringWriter(256);
        try (JsonGenerator body = JSON.createGenerator(text)) {
            body.writeStartObject();
            body.writeStringField("model", model);
            body.writeArrayFieldStart("messages");
            for (ChatMessage message : request.messages()) {
                message(body, message);
            }
            body.writeEndArray();
            for (Map.Entry<String, Object> parameter : request.parameters().entrySet()) {
                String name = parameter.getKey();
                // A structured output's schema is the response format, in place of the DSL's.
                boolean replaced = name.equals("response_format") && request.responseSchema() != null;
                if (PARAMETERS.contains(name) && parameter.getValue() != null && !replaced) {
                    body.writeObjectField(name, parameter.getValue());
                }
            }
            if (request.responseSchema() != null) {
                // As Dify's OpenAI-compatible plugin sends a structured output's schema.
                body.writeObjectFieldStart("response_format");
                body.writeStringField("type", "json_schema");
                body.writeObjectFieldStart("json_schema");
                body.writeStringField("name", "llm_response");
                body.writeObjectField("schema", request.responseSchema());
                body.writeEndObject();
                body.writeEndObject();
            }
            tools(body, request);
            body.writeBooleanField("stream", true);
            body.writeObjectFieldStart("stream_options");
            body.writeBooleanField("include_usage", true);
            body.writeEndObject();
            body.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return text.toString();
    }

    private static void message(JsonGenerator body, ChatMessage message) throws IOException {
        body.writeStartObject();
        body.writeStringField("role", message.role());
        if (message.toolCallId() != null) {
            body.writeStringField("tool_call_id", message.toolCallId());
        }
        if (!message.toolCalls().isEmpty()) {
            body.writeArrayFieldStart("tool_calls");
            for (ToolCall call : message.toolCalls()) {
                body.writeStartObject();
                body.writeStringField("id", call.id());
                body.writeStringField("type", "function");
                body.writeObjectFieldStart("function");
                body.writeStringField("name", call.name());
                body.writeStringField("arguments", call.arguments());
                body.writeEndObject();
                body.writeEndObject();
            }
            body.writeEndArray();
        }
        if (message.imageUrls().isEmpty()) {
            body.writeStringField("content", message.text());
        } else {
            body.writeArrayFieldStart("content");
            body.writeStartObject();
            body.writeStringField("type", "text");
            body.writeStringField("text", message.text());
            body.writeEndObject();
            for (String url : message.imageUrls()) {
                body.writeStartObject();
                body.writeStringField("type", "image_url");
                body.writeObjectFieldStart("image_url");
                body.writeStringField("url", url);
                body.writeEndObject();
                body.writeEndObject();
            }
            body.writeEndArray();
        }
        body.writeEndObject();
    }

    private static void tools(JsonGenerator body, ChatRequest request) throws IOException {
        if (request.tools().isEmpty()) {
            return;
        }
        body.writeArrayFieldStart("tools");
        for (Tool tool : request.tools()) {
            body.writeStartObject();
            body.writeStringField("type", "function");
            body.writeObjectFieldStart("function");
            body.writeStringField("name", tool.name());
            body.writeStringField("description", tool.description());
            body.writeObjectField("parameters", tool.parameters());
            body.writeEndObject();
            body.writeEndObject();
        }
        body.writeEndArray();
    }
}
