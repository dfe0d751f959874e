package dev.hexaflow.adapters.nodes.tool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.adapters.nodes.fakes.FakeHttpTarget;
import dev.hexaflow.adapters.nodes.fakes.StopSwitch;
import dev.hexaflow.adapters.nodes.net.OutboundExchange;
import dev.hexaflow.domain.net.OutboundPolicy;
import dev.hexaflow.domain.tool.ToolMessage;
import dev.hexaflow.domain.tool.ToolProviderType;
import dev.hexaflow.domain.tool.ToolRef;
import dev.hexaflow.workflow.port.out.ToolRunner.ToolException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The dalle tools against a real HTTP server on loopback standing for the image endpoint. */
class OpenAiCompatibleImageToolRunnerTest {

    private static final ToolRef DALLE3 = new ToolRef(ToolProviderType.BUILTIN, "dalle", "dalle3");
    private static final ToolRef DALLE2 = new ToolRef(ToolProviderType.PLUGIN, "langgenius/dalle/dalle", "dalle2");
    private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10, 1, 2, 3};
    private static final byte[] JPEG = {(byte) 0xff, (byte) 0xd8, (byte) 0xff, (byte) 0xe0, 0, 1};

    private final FakeHttpTarget target = new FakeHttpTarget();

    @AfterEach
    void close() {
        target.close();
    }

    private OpenAiCompatibleImageToolRunner images(String allow, Optional<String> model, long maxBytes) {
        return new OpenAiCompatibleImageToolRunner(new OpenAiCompatibleImageToolRunner.Endpoint(
                URI.create(target.url("/files/v1/")), "sk-images", model, Duration.ofSeconds(5), maxBytes),
                new OutboundExchange(() -> OutboundPolicy.of(allow, "")));
    }

    private void answer(String json) {
        target.serve("v1/images/generations", "application/json", json.getBytes(StandardCharsets.UTF_8));
    }

    private JsonNode request() throws Exception {
        FakeHttpTarget.Seen seen = target.seen().get(0);
        assertThat(seen.method()).isEqualTo("POST");
        assertThat(seen.uri()).isEqualTo("/files/v1/images/generations");
        assertThat(seen.headers().get("authorization")).isEqualTo("Bearer sk-images");
        return new ObjectMapper().readTree(seen.body());
    }

    @Test
    void dalle3AsksForBase64InDifysSizesAndAnswersEachImageAsAFile() throws Exception {
        answer("{\"created\": 1, \"data\": [{\"b64_json\": \"" + Base64.getEncoder().encodeToString(PNG) + "\"},"
                + " {\"b64_json\": \"data:image/webp;base64," + Base64.getEncoder().encodeToString(JPEG) + "\"}]}");

        List<ToolMessage> messages = images("", Optional.empty(), 1_000_000).run(DALLE3, Map.of("prompt",
                "a lighthouse", "size", "horizontal", "n", "2", "quality", "hd", "style", "natural"), new StopSwitch());

        assertThat(request().toString()).isEqualTo("{\"model\":\"dall-e-3\",\"prompt\":\"a lighthouse\","
                + "\"size\":\"1792x1024\",\"n\":2,\"response_format\":\"b64_json\",\"quality\":\"hd\",\"style\":\"natural\"}");
        assertThat(messages).hasSize(2);
        ToolMessage.Blob first = (ToolMessage.Blob) messages.get(0);
        ToolMessage.Blob second = (ToolMessage.Blob) messages.get(1);
        assertThat(first.content()).isEqualTo(PNG);
        assertThat(first.mimeType()).isEqualTo("image/png");
        assertThat(second.content()).isEqualTo(JPEG);
        assertThat(second.mimeType()).isEqualTo("image/webp");
    }

    @Test
    void dalle2TakesItsOwnSizesAndTheOperatorsModelWins() throws Exception {
        answer("{\"data\": [{\"b64_json\": \"" + Base64.getEncoder().encodeToString(JPEG) + "\"}]}");

        List<ToolMessage> messages = images("", Optional.of("gpt-image-1"), 1_000_000).run(DALLE2,
                Map.of("prompt", "a cat", "size", "small"), new StopSwitch());

        assertThat(request().toString()).isEqualTo("{\"model\":\"gpt-image-1\",\"prompt\":\"a cat\","
                + "\"size\":\"256x256\",\"n\":1,\"response_format\":\"b64_json\"}");
        assertThat(((ToolMessage.Blob) messages.get(0)).mimeType()).isEqualTo("image/jpeg");
    }

    @Test
    void anImageAnsweredByUrlIsFetchedUnderTheOutboundPolicy() {
        String image = target.serve("cat.png", "image/png", PNG);
        answer("{\"data\": [{\"url\": \"" + image + "\"}]}");

        List<ToolMessage> allowed = images("127.0.0.1", Optional.empty(), 1_000_000).run(DALLE3,
                Map.of("prompt", "a cat"), new StopSwitch());

        assertThat(((ToolMessage.Blob) allowed.get(0)).content()).isEqualTo(PNG);
        assertThatThrownBy(() -> images("", Optional.empty(), 1_000_000).run(DALLE3, Map.of("prompt", "a cat"),
                new StopSwitch())).isInstanceOf(ToolException.class).hasMessageContaining("127.0.0.1")
                .hasMessageContaining("HEXAFLOW_OUTBOUND_ALLOW");
    }

    @Test
    void difysTextAnswersForAMissingPromptAndAnUnknownQualityOrStyle() {
        OpenAiCompatibleImageToolRunner runner = images("", Optional.empty(), 1_000_000);

        assertThat(runner.run(DALLE3, Map.of("prompt", ""), new StopSwitch()))
                .containsExactly(new ToolMessage.Text("Please input prompt"));
        assertThat(runner.run(DALLE3, Map.of("prompt", "x", "quality", "ultra"), new StopSwitch()))
                .containsExactly(new ToolMessage.Text("Invalid quality"));
        assertThat(runner.run(DALLE3, Map.of("prompt", "x", "style", "odd"), new StopSwitch()))
                .containsExactly(new ToolMessage.Text("Invalid style"));
        assertThat(target.seen()).isEmpty();
    }

    @Test
    void tooManyImagesAnAnswerTooLargeAnErrorStatusAndNoEndpointFailTheTool() throws Exception {
        answer("{\"data\": [{\"b64_json\": \"" + "A".repeat(400) + "\"}]}");

        assertThatThrownBy(() -> images("", Optional.empty(), 1_000_000).run(DALLE2, Map.of("prompt", "x", "n", 11),
                new StopSwitch())).isInstanceOf(ToolException.class).hasMessage("n must be from 1 to 10, was 11");
        assertThatThrownBy(() -> images("", Optional.empty(), 100).run(DALLE3, Map.of("prompt", "x"),
                new StopSwitch())).isInstanceOf(ToolException.class).hasMessageContaining("larger than 100 bytes");
        com.sun.net.httpserver.HttpServer refusing = refusing();
        try {
            OpenAiCompatibleImageToolRunner failing = new OpenAiCompatibleImageToolRunner(
                    new OpenAiCompatibleImageToolRunner.Endpoint(URI.create("http://127.0.0.1:"
                            + refusing.getAddress().getPort() + "/v1"), null, Optional.empty(), Duration.ofSeconds(5),
                            1_000), new OutboundExchange(() -> OutboundPolicy.DEFAULT));
            assertThatThrownBy(() -> failing.run(DALLE3, Map.of("prompt", "x"), new StopSwitch()))
                    .isInstanceOf(ToolException.class).hasMessageContaining("answered 400")
                    .hasMessageContaining("content_policy_violation");
        } finally {
            refusing.stop(0);
        }
        OpenAiCompatibleImageToolRunner none = new OpenAiCompatibleImageToolRunner(
                new OpenAiCompatibleImageToolRunner.Endpoint(null, null, Optional.empty(), Duration.ofSeconds(5), 1),
                new OutboundExchange(() -> OutboundPolicy.DEFAULT));
        assertThatThrownBy(() -> none.run(DALLE3, Map.of("prompt", "x"), new StopSwitch()))
                .isInstanceOf(ToolException.class).hasMessageContaining("HEXAFLOW_LLM_BASE_URL");
    }

    /** An endpoint refusing every prompt, as OpenAI answers a prompt its policy refuses. */
    private static com.sun.net.httpserver.HttpServer refusing() throws java.io.IOException {
        com.sun.net.httpserver.HttpServer server = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            byte[] body = "{\"error\": {\"code\": \"content_policy_violation\"}}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(400, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        return server;
    }

    @Test
    void anEndpointSlowerThanTheTimeLimitFailsTheTool() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            OpenAiCompatibleImageToolRunner slow = new OpenAiCompatibleImageToolRunner(
                    new OpenAiCompatibleImageToolRunner.Endpoint(URI.create("http://127.0.0.1:" + silent.getLocalPort()
                            + "/v1"), null, Optional.empty(), Duration.ofSeconds(1), 1_000),
                    new OutboundExchange(() -> OutboundPolicy.DEFAULT));
            long started = System.nanoTime();

            assertThatThrownBy(() -> slow.run(DALLE3, Map.of("prompt", "x"), new StopSwitch()))
                    .isInstanceOf(ToolException.class).hasMessageContaining("The image endpoint failed");
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
        }
    }
}
