package dev.hexaflow.adapters.nodes.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.workflow.port.out.ModelProvider.ChatMessage;
import dev.hexaflow.workflow.port.out.ModelProvider.ChatRequest;
import dev.hexaflow.workflow.port.out.ModelProvider.Tool;
import dev.hexaflow.workflow.port.out.ModelProvider.ToolCall;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The chat-completions request as the generator writes it: the JSON the tree-built body had. */
class ChatRequestBodyTest {

    static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aRequestWithImagesToolCallsParametersAndASchemaIsWrittenWhole() throws Exception {
        Map<String, Object> parameters = new LinkedHashMap<>();
        parameters.put("temperature", 0.2);
        parameters.put("max_tokens", 512);
        parameters.put("stop", List.of("END"));
        parameters.put("response_format", "json_object");
        parameters.put("mode", "chat");
        ChatRequest request = new ChatRequest("openai", "gpt-4o", List.of(
                new ChatMessage("user", "what is \"this\"?", List.of("https://example.org/a.png")),
                ChatMessage.assistant("", List.of(new ToolCall("call_1", "weekday", "{\"month\":2}"))),
                ChatMessage.toolResult("call_1", "Thursday")), parameters,
                List.of(new Tool("weekday", null, Map.of("type", "object"))), Map.of("type", "object"));

        JsonNode body = JSON.readTree(ChatRequestBody.of(request, "mapped-model"));

        assertThat(body).isEqualTo(JSON.readTree("""
                {"model":"mapped-model","messages":[
                 {"role":"user","content":[{"type":"text","text":"what is \\"this\\"?"},
                  {"type":"image_url","image_url":{"url":"https://example.org/a.png"}}]},
                 {"role":"assistant","tool_calls":[{"id":"call_1","type":"function",
                  "function":{"name":"weekday","arguments":"{\\"month\\":2}"}}],"content":""},
                 {"role":"tool","tool_call_id":"call_1","content":"Thursday"}],
                 "temperature":0.2,"max_tokens":512,"stop":["END"],
                 "response_format":{"type":"json_schema","json_schema":{"name":"llm_response",
                  "schema":{"type":"object"}}},
                 "tools":[{"type":"function","function":{"name":"weekday","description":"",
                  "parameters":{"type":"object"}}}],
                 "stream":true,"stream_options":{"include_usage":true}}"""));
    }

    @Test
    void withNoSchemaTheDslsResponseFormatIsSentAndANullTextIsNull() throws Exception {
        ChatRequest request = new ChatRequest("p", "m", List.of(ChatMessage.of("user", null)),
                Map.of("response_format", Map.of("type", "json_object")), List.of());

        JsonNode body = JSON.readTree(ChatRequestBody.of(request, "m"));

        assertThat(body.get("response_format")).isEqualTo(JSON.readTree("{\"type\":\"json_object\"}"));
        assertThat(body.get("messages").get(0).get("content").isNull()).isTrue();
        assertThat(body.has("tools")).isFalse();
    }
}
