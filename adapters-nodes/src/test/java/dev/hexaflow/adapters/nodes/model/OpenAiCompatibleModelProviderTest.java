package dev.hexaflow.adapters.nodes.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;

import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.ModelProvider.ChatMessage;
import dev.hexaflow.workflow.port.out.ModelProvider.ChatRequest;
import dev.hexaflow.workflow.port.out.ModelProvider.ChatResult;
import dev.hexaflow.workflow.port.out.ModelProvider.Tool;
import dev.hexaflow.workflow.port.out.ModelProvider.ToolCall;
import dev.hexaflow.workflow.port.out.ModelProvider.ModelException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The OpenAI-compatible model provider against a real streaming server on loopback: how it reports failures, and
 * a tool call's round trip (the call's id read from the stream, the call and its result sent back).
 */
class OpenAiCompatibleModelProviderTest {

    static final FakeModelServer MODEL = new FakeModelServer();
    static final ChatRequest QUESTION = new ChatRequest("langgenius/openai/openai", "gpt-4o-mini",
            List.of(ChatMessage.of("user", "q")), Map.of(), List.of());

    @AfterAll
    static void stop() {
        MODEL.close();
    }

    private static OpenAiCompatibleModelProvider provider(URI baseUrl) {
        return new OpenAiCompatibleModelProvider(baseUrl, "sk-t", Map.of(), Duration.ofSeconds(10),
                Duration.ofSeconds(120));
    }

    @Test
    void anEndpointErrorFailsWithWhatTheEndpointSaid() {
        MODEL.answer(FakeModelServer.Script.failure(429, "Rate limit reached"));

        assertThatThrownBy(() -> provider(MODEL.baseUrl()).chat(QUESTION, text -> { }, StopSignal.NEVER))
                .isInstanceOf(ModelException.class)
                .hasMessage("[langgenius/openai/openai] Error: 429 Rate limit reached");
    }

    @Test
    void anUnreachableEndpointFailsClearly() {
        assertThatThrownBy(() -> provider(URI.create("http://127.0.0.1:9/v1")).chat(QUESTION, text -> { },
                StopSignal.NEVER)).isInstanceOf(ModelException.class).hasMessage("[langgenius/openai/openai] Error: "
                        + "the model endpoint http://127.0.0.1:9/v1 cannot be reached: the connection was refused");
    }

    @Test
    void aToolCallIsReadWithItsIdAndTheNextRequestCarriesTheCallAndItsResult() {
        MODEL.answer(FakeModelServer.Script.toolCall("weekday", "{\"month\": 2}"));
        Tool weekday = new Tool("weekday", "The day of a date", Map.of("type", "object", "properties",
                Map.of("month", Map.of("type", "integer"))));
        ChatRequest ask = new ChatRequest("p", "m", List.of(ChatMessage.of("user", "q")), Map.of(),
                List.of(weekday));

        ChatResult called = provider(MODEL.baseUrl()).chat(ask, text -> { }, StopSignal.NEVER);
        ToolCall call = called.toolCalls().get(0);
        provider(MODEL.baseUrl()).chat(new ChatRequest("p", "m", List.of(ChatMessage.of("user", "q"),
                ChatMessage.assistant("", called.toolCalls()), ChatMessage.toolResult(call.id(), "Thursday")),
                Map.of(), List.of(weekday)), text -> { }, StopSignal.NEVER);

        assertThat(called.finishReason()).isEqualTo("tool_calls");
        assertThat(call.id()).startsWith("call_");
        assertThat(call.name()).isEqualTo("weekday");
        assertThat(call.arguments()).isEqualTo("{\"month\": 2}");
        List<JsonNode> requests = MODEL.requests();
        JsonNode offered = requests.get(requests.size() - 2).get("tools").get(0);
        assertThat(offered.get("function").get("parameters").get("properties").has("month")).isTrue();
        JsonNode messages = requests.get(requests.size() - 1).get("messages");
        assertThat(messages.get(1).get("tool_calls").get(0).get("id").asText()).isEqualTo(call.id());
        assertThat(messages.get(1).get("tool_calls").get(0).get("function").get("name").asText())
                .isEqualTo("weekday");
        assertThat(messages.get(2).get("role").asText()).isEqualTo("tool");
        assertThat(messages.get(2).get("tool_call_id").asText()).isEqualTo(call.id());
        assertThat(messages.get(2).get("content").asText()).isEqualTo("Thursday");
    }
}
