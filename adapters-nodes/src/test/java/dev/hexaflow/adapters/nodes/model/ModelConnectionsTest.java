package dev.hexaflow.adapters.nodes.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.adapters.nodes.fakes.SocketModelServer;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.ModelProvider.ChatMessage;
import dev.hexaflow.workflow.port.out.ModelProvider.ChatRequest;
import dev.hexaflow.workflow.port.out.ModelProvider.ChatResult;
import dev.hexaflow.workflow.port.out.ModelProvider.Usage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The provider keeps its connection to a model endpoint that allows it, and still answers every call of one that
 * closes each stream: against bare-socket servers on loopback that count the connections they accept.
 */
class ModelConnectionsTest {

    static final ChatRequest QUESTION = new ChatRequest("openai", "gpt-4o-mini", List.of(ChatMessage.of("user", "q")),
            Map.of(), List.of());
    static final List<String> PIECES = List.of("Hello", ", ", "world");

    private static OpenAiCompatibleModelProvider provider(SocketModelServer model) {
        return new OpenAiCompatibleModelProvider(model.baseUrl(), "sk-t", Map.of(), Duration.ofSeconds(5),
                Duration.ofSeconds(30));
    }

    @Test
    void threeCallsToAModelThatKeepsConnectionsGoOverOneConnection() {
        try (SocketModelServer model = SocketModelServer.keepingConnections(PIECES)) {
            OpenAiCompatibleModelProvider provider = provider(model);
            List<String> streamed = new ArrayList<>();

            List<ChatResult> results = List.of(provider.chat(QUESTION, streamed::add, StopSignal.NEVER),
                    provider.chat(QUESTION, text -> { }, StopSignal.NEVER),
                    provider.chat(QUESTION, text -> { }, StopSignal.NEVER));

            assertThat(results).allSatisfy(result -> {
                assertThat(result.text()).isEqualTo("Hello, world");
                assertThat(result.finishReason()).isEqualTo("stop");
                assertThat(result.usage()).isEqualTo(new Usage(3, 3, 6));
            });
            assertThat(streamed).containsExactly("Hello", ", ", "world");
            assertThat(model.requests()).isEqualTo(3);
            assertThat(model.connections()).isEqualTo(1);
        }
    }

    @Test
    void aModelThatClosesEachStreamIsAskedOverANewConnectionEachCall() {
        try (SocketModelServer model = SocketModelServer.closingEachStream(PIECES)) {
            OpenAiCompatibleModelProvider provider = provider(model);

            ChatResult first = provider.chat(QUESTION, text -> { }, StopSignal.NEVER);
            ChatResult second = provider.chat(QUESTION, text -> { }, StopSignal.NEVER);

            assertThat(first.text()).isEqualTo("Hello, world");
            assertThat(second.text()).isEqualTo("Hello, world");
            assertThat(second.usage()).isEqualTo(new Usage(3, 3, 6));
            assertThat(model.requests()).isEqualTo(2);
            assertThat(model.connections()).isEqualTo(2);
        }
    }

    @Test
    void aModelThatNeverEndsItsBodyAfterDoneHoldsTheCallNoLongerThanASecond() {
        try (SocketModelServer model = SocketModelServer.holdingAfterDone(PIECES)) {
            long started = System.nanoTime();

            ChatResult result = provider(model).chat(QUESTION, text -> { }, StopSignal.NEVER);

            assertThat(result.text()).isEqualTo("Hello, world");
            assertThat(Duration.ofNanos(System.nanoTime() - started)).as("the rest waited for at most a second")
                    .isLessThan(Duration.ofSeconds(10));
        }
    }
}
