package dev.hexaflow.adapters.nodes.model;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.application.workflow.engine.StopSignal;
import dev.hexaflow.application.workflow.port.out.ModelProvider.ChatMessage;
import dev.hexaflow.application.workflow.port.out.ModelProvider.ChatRequest;
import dev.hexaflow.application.workflow.port.out.ModelProvider.ModelException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The OpenAI-compatible model provider against a real streaming server on loopback: how it reports failures. */
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
                StopSignal.NEVER)).isInstanceOf(ModelException.class).hasMessageContaining("cannot be reached");
    }
}
