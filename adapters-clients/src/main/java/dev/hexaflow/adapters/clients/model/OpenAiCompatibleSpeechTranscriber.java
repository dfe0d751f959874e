package dev.hexaflow.adapters.clients.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.adapters.nodes.net.NetworkFailures;
import dev.hexaflow.adapters.nodes.net.OnFirstUseHttpClient;
import dev.hexaflow.application.chat.port.out.SpeechTranscriber;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;

/**
 * Transcription by an OpenAI-compatible endpoint: {@code POST {base}/audio/transcriptions}, multipart {@code file}
 * and {@code model}, answered with {@code {"text": ...}}. The endpoint is the operator's, as the model's and the
 * speech synthesizer's are, so it is not held to the workflows' outbound policy.
 */
public final class OpenAiCompatibleSpeechTranscriber implements SpeechTranscriber {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI baseUrl;
    private final String apiKey;
    private final String model;
    private final HttpClient client = OnFirstUseHttpClient.of(HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(10)));

    public OpenAiCompatibleSpeechTranscriber(URI baseUrl, String apiKey, String model) {
        this.baseUrl = baseUrl;
        this.apiKey = apiKey;
        this.model = model;
    }

    @Override
    public boolean isConfigured() {
        return baseUrl != null;
    }

    @Override
    public String transcribe(byte[] audio, String filename, String mimeType) {
        String boundary = "hexaflow-" + UUID.randomUUID();
        ByteArrayOutputStream body = new ByteArrayOutputStream(audio.length + 512);
        write(body, "--" + boundary + "\r\nContent-Disposition: form-data; name=\"model\"\r\n\r\n" + model + "\r\n");
        write(body, "--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\""
                + filename.replace("\"", "") + "\"\r\nContent-Type: " + mimeType + "\r\n\r\n");
        body.writeBytes(audio);
        write(body, "\r\n--" + boundary + "--\r\n");
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl.toString().replaceAll("/+$", "")
                        + "/audio/transcriptions")).timeout(Duration.ofSeconds(120))
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray()));
        if (apiKey != null && !apiKey.isBlank()) {
            request.header("Authorization", "Bearer " + apiKey);
        }
        HttpResponse<String> response;
        try {
            response = client.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new TranscriptionException("transcription endpoint failed: " + NetworkFailures.reason(e), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TranscriptionException("transcription interrupted", e);
        }
        if (response.statusCode() >= 400) {
            throw new TranscriptionException("transcription endpoint answered " + response.statusCode() + ": "
                    + response.body(), null);
        }
        try {
            JsonNode text = JSON.readTree(response.body()).get("text");
            if (text == null || !text.isTextual()) {
                throw new TranscriptionException("transcription endpoint answered no text", null);
            }
            return text.asText();
        } catch (IOException e) {
            throw new TranscriptionException("transcription endpoint answered no JSON: " + e.getMessage(), e);
        }
    }

    private static void write(ByteArrayOutputStream out, String text) {
        out.writeBytes(text.getBytes(StandardCharsets.UTF_8));
    }
}
