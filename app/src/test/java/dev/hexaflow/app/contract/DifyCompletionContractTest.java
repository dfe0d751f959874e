package dev.hexaflow.app.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer.Script;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.app.Hexaflow;
import dev.hexaflow.app.config.Configuration;
import dev.hexaflow.engine.EngineConfiguration;
import io.github.imfangs.dify.client.DifyClientFactory;
import io.github.imfangs.dify.client.DifyCompletionClient;
import io.github.imfangs.dify.client.callback.CompletionStreamCallback;
import io.github.imfangs.dify.client.enums.ResponseMode;
import io.github.imfangs.dify.client.event.MessageEndEvent;
import io.github.imfangs.dify.client.event.MessageEvent;
import io.github.imfangs.dify.client.exception.DifyApiException;
import io.github.imfangs.dify.client.model.completion.CompletionRequest;
import io.github.imfangs.dify.client.model.completion.CompletionResponse;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A real Dify completion client from Maven Central (dify-java-client's DifyCompletionClient) against Hexaflow. */
class DifyCompletionContractTest {

    private static final String ADMIN = "contract-admin-token-0123";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dataDir;
    static FakeModelServer model;
    static Hexaflow server;
    static DifyCompletionClient poet;
    static DifyCompletionClient chatflow;

    @BeforeAll
    static void start() throws Exception {
        model = new FakeModelServer();
        model.answer(Script.text("Waves fold on the shore", 6, 5));
        server = Hexaflow.start(new Configuration("127.0.0.1", 0, dataDir, Optional.of(ADMIN))
                .withEngine(EngineConfiguration.fromEnvironment(Map.of("HEXAFLOW_LLM_MODELS", "*=local-model"))
                        .withLlm(model.baseUrl(), "sk-t")));
        poet = DifyClientFactory.createCompletionClient(server.baseUrl() + "/v1", importApp("easy-completion.yml"));
        chatflow = DifyClientFactory.createCompletionClient(server.baseUrl() + "/v1", importApp("chatflow.yml"));
    }

    @AfterAll
    static void stop() {
        poet.close();
        chatflow.close();
        server.close();
        model.close();
    }

    @Test
    void aBlockingMessageReadsAsTheClientsCompletionResponse() throws Exception {
        CompletionResponse response = poet.sendCompletionMessage(request(ResponseMode.BLOCKING));

        assertThat(response.getAnswer()).isEqualTo("Waves fold on the shore");
        assertThat(response.getMode()).isEqualTo("completion");
        assertThat(response.getMessageId()).isNotBlank();
        assertThat(response.getMetadata().getUsage().getTotalTokens()).isEqualTo(11);
        assertThat(response.getCreatedAt()).isPositive();
    }

    @Test
    void aStreamedMessageReachesTheCompletionCallbacks() throws Exception {
        CountDownLatch done = new CountDownLatch(1);
        List<String> heard = new CopyOnWriteArrayList<>();
        StringBuilder answer = new StringBuilder();
        poet.sendCompletionMessageStream(request(ResponseMode.STREAMING), new CompletionStreamCallback() {
            @Override
            public void onMessage(MessageEvent event) {
                answer.append(event.getAnswer());
                heard.add("message");
            }

            @Override
            public void onMessageEnd(MessageEndEvent event) {
                heard.add("message_end " + event.getMetadata().getUsage().getTotalTokens());
                done.countDown();
            }

            @Override
            public void onException(Throwable throwable) {
                heard.add("exception " + throwable);
                done.countDown();
            }
        });

        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(heard).startsWith("message").endsWith("message_end 11").doesNotContain("exception");
        assertThat(answer.toString()).isEqualTo("Waves fold on the shore");
        assertThat(poet.stopCompletion("no-such-task", "client-ada").getResult()).isEqualTo("success");
    }

    @Test
    void aChatflowsKeyIsTheClientsApiExceptionWithDifysMessage() {
        assertThatThrownBy(() -> chatflow.sendCompletionMessage(request(ResponseMode.BLOCKING)))
                .isInstanceOf(DifyApiException.class)
                .hasMessageContaining("App unavailable, please check your app configurations.");
    }

    private static CompletionRequest request(ResponseMode mode) {
        return CompletionRequest.builder().inputs(Map.of("subject", "the sea", "style", "haiku")).user("client-ada")
                .responseMode(mode).build();
    }

    private static String importApp(String name) throws Exception {
        try (InputStream in = DifyCompletionContractTest.class.getResourceAsStream("/apps/" + name)) {
            HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create(server.baseUrl() + "/admin/apps")).header("Authorization", "Bearer " + ADMIN)
                    .header("Content-Type", "application/yaml")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(in.readAllBytes())).build(),
                    HttpResponse.BodyHandlers.ofString());
            JsonNode body = JSON.readTree(response.body());
            return body.get("api_key").asText();
        }
    }
}
