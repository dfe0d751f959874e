package dev.hexaflow.app.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** A client of the Service API for tests, speaking as Dify's clients do: bearer key, JSON, multipart. */
public final class ServiceApi {

    static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final String baseUrl;
    private final String key;
    private final HttpClient http;

    public ServiceApi(String baseUrl, String key) {
        this(baseUrl, key, HTTP);
    }

    private ServiceApi(String baseUrl, String key, HttpClient http) {
        this.baseUrl = baseUrl;
        this.key = key;
        this.http = http;
    }

    /**
     * A client with an HTTP client of its own, for a test that kills servers under it: one client's connections
     * cut by a kill never reach another's.
     */
    public static ServiceApi ownClient(String baseUrl, String key) {
        return new ServiceApi(baseUrl, key, HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build());
    }

    public String key() {
        return key;
    }

    public ServiceApi withKey(String other) {
        return new ServiceApi(baseUrl, other, http);
    }

    public HttpResponse<String> get(String path) {
        return send(request(path).GET());
    }

    public HttpResponse<String> postJson(String path, Object body) {
        return send(request(path).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json(body))));
    }

    public HttpResponse<String> postRaw(String path, String contentType, byte[] body) {
        HttpRequest.Builder request = request(path).POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        return send(request);
    }

    /** A GET whose body is handed back open, to read a stream as it comes. */
    public HttpResponse<InputStream> getStreaming(String path) {
        try {
            return http.send(request(path).GET().build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Starts a request and hands back the open body, to read a stream as it comes. */
    public HttpResponse<InputStream> postStreaming(String path, Object body) {
        try {
            return http.send(request(path).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(json(body))).build(),
                    HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public static Map<String, Object> run(Map<String, Object> inputs, String mode, String user) {
        return Map.of("inputs", inputs, "response_mode", mode, "user", user);
    }

    /** One part of a multipart body; a null content type leaves the header out. */
    public record Part(String name, String filename, String contentType, byte[] content) {
        public static Part field(String name, String value) {
            return new Part(name, null, null, value.getBytes(StandardCharsets.UTF_8));
        }

        public static Part file(String filename, String contentType, byte[] content) {
            return new Part("file", filename, contentType, content);
        }
    }

    public HttpResponse<String> multipart(String path, List<Part> parts) {
        String boundary = "----test" + UUID.randomUUID().toString().replace("-", "");
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (Part part : parts) {
            write(body, "--" + boundary + "\r\n");
            write(body, "Content-Disposition: form-data; name=\"" + part.name() + "\""
                    + (part.filename() == null ? "" : "; filename=\"" + part.filename() + "\"") + "\r\n");
            if (part.contentType() != null) {
                write(body, "Content-Type: " + part.contentType() + "\r\n");
            }
            write(body, "\r\n");
            body.writeBytes(part.content());
            write(body, "\r\n");
        }
        write(body, "--" + boundary + "--\r\n");
        return postRaw(path, "multipart/form-data; boundary=" + boundary, body.toByteArray());
    }

    public String upload(String user, String filename, String contentType, byte[] content) {
        HttpResponse<String> response = multipart("/v1/files/upload", List.of(Part.field("user", user),
                Part.file(filename, contentType, content)));
        if (response.statusCode() != 201) {
            throw new AssertionError("upload failed: " + response.body());
        }
        return json(response).get("id").asText();
    }

    private static void write(ByteArrayOutputStream out, String text) {
        out.writeBytes(text.getBytes(StandardCharsets.UTF_8));
    }

    private HttpRequest.Builder request(String path) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(30));
        if (key != null) {
            request.header("Authorization", "Bearer " + key);
        }
        return request;
    }

    private HttpResponse<String> send(HttpRequest.Builder request) {
        return bounded(http, request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /**
     * How long any exchange of a test may take, body included: the client's own timeout covers the headers
     * alone, and depends on the client's selector thread being alive.
     */
    public static final Duration EXCHANGE_LIMIT = Duration.ofSeconds(90);

    /** Sends the request and waits at most {@link #EXCHANGE_LIMIT} for the whole answer. */
    public static <T> HttpResponse<T> bounded(HttpClient client, HttpRequest request, HttpResponse.BodyHandler<T> body) {
        CompletableFuture<HttpResponse<T>> answer = client.sendAsync(request, body);
        try {
            return answer.get(EXCHANGE_LIMIT.toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw new UncheckedIOException(io);
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(cause);
        } catch (TimeoutException e) {
            answer.cancel(true);
            throw new UncheckedIOException(new IOException(request.method() + " " + request.uri()
                    + " was not answered within " + EXCHANGE_LIMIT));
        } catch (InterruptedException e) {
            answer.cancel(true);
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static JsonNode json(HttpResponse<String> response) {
        try {
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + response.body(), e);
        }
    }
}
