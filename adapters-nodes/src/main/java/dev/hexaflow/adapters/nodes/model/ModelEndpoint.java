package dev.hexaflow.adapters.nodes.model;

import dev.hexaflow.adapters.nodes.net.TraceHeaders;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hexaflow.adapters.nodes.net.OnFirstUseHttpClient;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The operator's OpenAI-compatible model endpoint, asked with a JSON body under one of its paths: the one way the
 * embeddings and rerank adapters call it (its key as a bearer token, when there is one).
 */
public record ModelEndpoint(HttpClient client, URI baseUrl, String apiKey, Duration timeout) {

    /** An endpoint at {@code baseUrl} (none when null), with a client of its own. */
    public static ModelEndpoint of(URI baseUrl, String apiKey, Duration connectTimeout, Duration timeout) {
        return new ModelEndpoint(client(connectTimeout), baseUrl, apiKey, timeout);
    }

    /**
     * A client for one model endpoint, kept for all its calls: HTTP/1.1, whose connections the client keeps and
     * reuses where the endpoint allows. (With the JDK's default, HTTP/2, every new connection to an {@code http://}
     * endpoint first offers an upgrade that OpenAI-compatible servers refuse.)
     */
    public static HttpClient client(Duration connectTimeout) {
        return OnFirstUseHttpClient.of(HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(connectTimeout));
    }

    /** Whether an address is configured. */
    public boolean configured() {
        return baseUrl != null;
    }

    /** The endpoint's address without its trailing slashes, as errors name it. */
    public String base() {
        return baseUrl.toString().replaceAll("/+$", "");
    }

    /** Posts the body to {@code base + path} and answers the response, whatever its status. */
    public HttpResponse<String> postJson(String path, ObjectNode body) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base() + path)).timeout(timeout)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8));
        if (apiKey != null && !apiKey.isBlank()) {
            request.header("Authorization", "Bearer " + apiKey);
        }
        TraceHeaders.addTo(request);
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }
}
