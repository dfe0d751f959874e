package dev.hexaflow.adapters.clients.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hexaflow.adapters.nodes.model.ModelEndpoint;
import dev.hexaflow.adapters.nodes.net.NetworkFailures;
import dev.hexaflow.application.knowledge.port.out.Embeddings;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Vectors from an OpenAI-compatible embeddings endpoint ({@code POST {base}/embeddings}), the endpoint the model
 * nodes use, which the operator configured (as the model provider's, its address is not held to the outbound
 * policy that guards the addresses workflows choose). No model, no endpoint: keyword-only bases.
 */
public final class OpenAiCompatibleEmbeddings implements Embeddings {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final ModelEndpoint endpoint;
    private final String model;

    public OpenAiCompatibleEmbeddings(URI baseUrl, String apiKey, String model, Duration connectTimeout,
            Duration timeout) {
        this.endpoint = ModelEndpoint.of(baseUrl, apiKey, connectTimeout, timeout);
        this.model = model == null || model.isBlank() ? null : model;
    }

    @Override
    public Optional<String> model() {
        return endpoint.configured() ? Optional.ofNullable(model) : Optional.empty();
    }

    @Override
    public List<float[]> embed(List<String> texts) {
        if (model().isEmpty()) {
            throw new EmbeddingException("No embeddings endpoint is configured (HEXAFLOW_LLM_BASE_URL and "
                    + "HEXAFLOW_EMBEDDING_MODEL)", null);
        }
        if (texts.isEmpty()) {
            return List.of();
        }
        ObjectNode body = JSON.createObjectNode().put("model", model).put("encoding_format", "float");
        texts.forEach(body.putArray("input")::add);
        String base = endpoint.base();
        HttpResponse<String> response;
        try {
            response = endpoint.postJson("/embeddings", body);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EmbeddingException("The embeddings call was interrupted", e);
        } catch (Exception e) {
            throw new EmbeddingException("the embeddings endpoint " + base + " cannot be reached: " + NetworkFailures.reason(e),
                    e);
        }
        if (response.statusCode() >= 400) {
            throw new EmbeddingException("the embeddings endpoint answered " + response.statusCode() + ": "
                    + message(response.body()), null);
        }
        return vectors(response.body(), texts.size());
    }

    private static List<float[]> vectors(String body, int expected) {
        JsonNode data;
        try {
            data = JSON.readTree(body).path("data");
        } catch (Exception e) {
            throw new EmbeddingException("the embeddings endpoint answered something that is not JSON", e);
        }
        if (!data.isArray() || data.size() != expected) {
            throw new EmbeddingException("the embeddings endpoint answered " + data.size() + " vectors for "
                    + expected + " texts", null);
        }
        float[][] out = new float[expected][];
        for (int i = 0; i < data.size(); i++) {
            JsonNode item = data.get(i);
            int at = item.path("index").asInt(i);
            JsonNode numbers = item.path("embedding");
            if (at < 0 || at >= expected || !numbers.isArray() || numbers.isEmpty()) {
                throw new EmbeddingException("the embeddings endpoint answered a vector without numbers", null);
            }
            float[] vector = new float[numbers.size()];
            for (int j = 0; j < vector.length; j++) {
                vector[j] = (float) numbers.get(j).asDouble();
            }
            out[at] = vector;
        }
        List<float[]> vectors = new ArrayList<>(expected);
        for (float[] vector : out) {
            if (vector == null) {
                throw new EmbeddingException("the embeddings endpoint answered the same index twice", null);
            }
            vectors.add(vector);
        }
        return vectors;
    }

    private static String message(String body) {
        try {
            JsonNode error = JSON.readTree(body).path("error");
            String message = error.isObject() ? error.path("message").asText("") : error.asText("");
            return message.isBlank() ? body : message;
        } catch (Exception e) {
            return body;
        }
    }
}
