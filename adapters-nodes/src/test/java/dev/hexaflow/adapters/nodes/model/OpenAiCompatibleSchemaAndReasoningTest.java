package dev.hexaflow.adapters.nodes.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.adapters.nodes.fakes.FakeHttpTarget;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.ModelProvider.ChatMessage;
import dev.hexaflow.workflow.port.out.ModelProvider.ChatRequest;
import dev.hexaflow.workflow.port.out.ModelProvider.ChatResult;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * What the OpenAI-compatible provider sends for a structured output (the schema as {@code response_format}, as
 * Dify's plugin sends it), which models it says take one, and how it gives the reasoning an endpoint sends apart
 * ({@code <think>} around it, as Dify's plugins do), against servers on loopback.
 */
class OpenAiCompatibleSchemaAndReasoningTest {

    static final FakeModelServer MODEL = new FakeModelServer();
    static final FakeHttpTarget WHOLE = new FakeHttpTarget();
    static final ObjectMapper JSON = new ObjectMapper();

    @AfterAll
    static void stop() {
        MODEL.close();
        WHOLE.close();
    }

    private static OpenAiCompatibleModelProvider provider(URI base, Set<String> jsonSchemaModels) {
        return new OpenAiCompatibleModelProvider(base, "sk-t", Map.of(), jsonSchemaModels, Duration.ofSeconds(5),
                Duration.ofSeconds(30));
    }

    @Test
    void aResponseSchemaIsSentAsAJsonSchemaResponseFormatNamedLlmResponse() {
        MODEL.answer(FakeModelServer.Script.text("{}", 1, 1));
        Map<String, Object> schema = Map.of("type", "object", "required", List.of("a"));

        provider(MODEL.baseUrl(), Set.of()).chat(new ChatRequest("openai", "gpt-4o", List.of(ChatMessage.of("user",
                "q")), Map.of("temperature", 0.2, "response_format", "json_object"), List.of(), schema), text -> { },
                StopSignal.NEVER);

        JsonNode request = MODEL.requests().get(MODEL.requests().size() - 1);
        assertThat(request.get("response_format")).isEqualTo(JSON.valueToTree(Map.of("type", "json_schema",
                "json_schema", Map.of("name", "llm_response", "schema", schema))));
        assertThat(request.get("temperature").asDouble()).isEqualTo(0.2);
    }

    @Test
    void withNoSchemaTheRequestHasNoResponseFormatOfItsOwn() {
        MODEL.answer(FakeModelServer.Script.text("hi", 1, 1));

        provider(MODEL.baseUrl(), Set.of("*")).chat(new ChatRequest("openai", "gpt-4o",
                List.of(ChatMessage.of("user", "q")), Map.of(), List.of()), text -> { }, StopSignal.NEVER);

        assertThat(MODEL.requests().get(MODEL.requests().size() - 1).has("response_format")).isFalse();
    }

    @Test
    void theModelsThatTakeASchemaAreNamedByProviderAndModelByProviderOrAll() {
        OpenAiCompatibleModelProvider named = provider(MODEL.baseUrl(), Set.of("openai/gpt-4o", "deepseek"));

        assertThat(named.takesJsonSchema("openai", "gpt-4o")).isTrue();
        assertThat(named.takesJsonSchema("openai", "gpt-3.5-turbo")).isFalse();
        assertThat(named.takesJsonSchema("deepseek", "deepseek-chat")).isTrue();
        assertThat(provider(MODEL.baseUrl(), Set.of("*")).takesJsonSchema("any", "model")).isTrue();
        assertThat(provider(MODEL.baseUrl(), Set.of()).takesJsonSchema("openai", "gpt-4o")).isFalse();
    }

    @Test
    void streamedReasoningContentComesInThinkTagsBeforeTheAnswer() {
        MODEL.answer(FakeModelServer.Script.reasoning("weigh it", "Yes"));
        List<String> pieces = new ArrayList<>();

        ChatResult result = provider(MODEL.baseUrl(), Set.of()).chat(new ChatRequest("deepseek", "r1",
                List.of(ChatMessage.of("user", "q")), Map.of(), List.of()), pieces::add, StopSignal.NEVER);

        assertThat(pieces).containsExactly("<think>\nweigh", " it", "\n</think>Yes");
        assertThat(result.text()).isEqualTo("<think>\nweigh it\n</think>Yes");
    }

    @Test
    void aWholeAnswersReasoningContentComesInAClosedThinkBlock() {
        String completion = "{\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"Yes\","
                + "\"reasoning_content\":\"weigh it\"},\"finish_reason\":\"stop\"}]}";
        WHOLE.serve("m/chat/completions", "application/json", completion.getBytes(StandardCharsets.UTF_8));

        ChatResult result = provider(URI.create(WHOLE.url("/files/m")), Set.of()).chat(new ChatRequest("deepseek",
                "r1", List.of(ChatMessage.of("user", "q")), Map.of(), List.of()), text -> { }, StopSignal.NEVER);

        assertThat(result.text()).isEqualTo("<think>\nweigh it\n</think>Yes");
    }
}
