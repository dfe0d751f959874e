package dev.hexaflow.app;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** Server-sent events read as a client reads them: frames as their raw text, pings left out. */
final class SseFrames {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private SseFrames() {
    }

    /** Sends the request and hands back the open body. */
    static HttpResponse<InputStream> open(HttpRequest.Builder request) {
        try {
            return HTTP.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static HttpRequest.Builder get(String baseUrl, String path, String key) {
        return HttpRequest.newBuilder(URI.create(baseUrl + path)).header("Authorization", "Bearer " + key).GET();
    }

    static HttpRequest.Builder post(String baseUrl, String path, String key, String json) {
        return HttpRequest.newBuilder(URI.create(baseUrl + path)).header("Authorization", "Bearer " + key)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json));
    }

    /** Every frame to the stream's end. */
    static List<String> all(InputStream body) {
        return until(body, frame -> false);
    }

    /**
     * Frames until one matches {@code last} (which is included) or the stream ends; the stream is left open
     * after a match.
     */
    static List<String> until(InputStream body, Predicate<String> last) {
        List<String> frames = new ArrayList<>();
        BufferedReader lines = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8), 1);
        StringBuilder frame = new StringBuilder();
        try {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (!line.isEmpty()) {
                    frame.append(frame.isEmpty() ? "" : "\n").append(line);
                    continue;
                }
                String text = frame.toString();
                frame.setLength(0);
                if (text.isEmpty() || text.equals("event: ping")) {
                    continue;
                }
                frames.add(text);
                if (last.test(text)) {
                    return frames;
                }
            }
            return frames;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The frame's data line, without its {@code id:} line. */
    static String data(String frame) {
        return frame.substring(frame.indexOf("data: "));
    }
}
