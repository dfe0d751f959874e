package dev.hexaflow.adapters.nodes.model;

import dev.hexaflow.adapters.nodes.net.TraceHeaders;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hexaflow.adapters.nodes.net.NetworkFailures;
import dev.hexaflow.adapters.nodes.net.OnFirstUseHttpClient;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.SpeechSynthesizer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** Speech from an OpenAI-compatible endpoint: {@code POST {base}/audio/speech}, answered with mp3 bytes. */
public final class OpenAiCompatibleSpeechSynthesizer implements SpeechSynthesizer {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI baseUrl;
    private final String apiKey;
    private final String model;
    private final String defaultVoice;
    private final HttpClient client = OnFirstUseHttpClient.of(HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(10)));

    public OpenAiCompatibleSpeechSynthesizer(URI baseUrl, String apiKey, String model, String defaultVoice) {
        this.baseUrl = baseUrl;
        this.apiKey = apiKey;
        this.model = model;
        this.defaultVoice = defaultVoice;
    }

    @Override
    public boolean isConfigured() {
        return baseUrl != null;
    }

    @Override
    public byte[] synthesize(String text, String voice, StopSignal stop) {
        ObjectNode body = JSON.createObjectNode().put("model", model).put("input", text)
                .put("voice", voice == null || voice.isBlank() ? defaultVoice : voice).put("response_format", "mp3");
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl.toString().replaceAll("/+$", "")
                + "/audio/speech")).timeout(Duration.ofSeconds(60)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8));
        if (apiKey != null && !apiKey.isBlank()) {
            request.header("Authorization", "Bearer " + apiKey);
        }
        TraceHeaders.addTo(request);
        CompletableFuture<HttpResponse<byte[]>> exchange = client.sendAsync(request.build(),
                HttpResponse.BodyHandlers.ofByteArray());
        try (AutoCloseable cancel = stop.onStop(() -> exchange.cancel(true))) {
            HttpResponse<byte[]> response = exchange.get();
            if (response.statusCode() >= 400) {
                throw new SpeechException("speech endpoint answered " + response.statusCode() + ": "
                        + new String(response.body(), StandardCharsets.UTF_8), null);
            }
            return response.body();
        } catch (SpeechException e) {
            throw e;
        } catch (Exception e) {
            throw new SpeechException("speech endpoint failed: " + NetworkFailures.reason(e), e);
        }
    }
}
