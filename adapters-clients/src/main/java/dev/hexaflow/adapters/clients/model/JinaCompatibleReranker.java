package dev.hexaflow.adapters.clients.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hexaflow.adapters.nodes.model.ModelEndpoint;
import dev.hexaflow.adapters.nodes.net.NetworkFailures;
import dev.hexaflow.application.knowledge.port.out.Reranker;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Relevance scores from a Jina- or Cohere-style rerank endpoint ({@code POST {base}/rerank} with
 * {@code {model, query, documents, top_n}}, answering {@code {results: [{index, relevance_score}]}}), the one vLLM,
 * Xinference, LocalAI, Jina and Cohere serve, at the model endpoint the operator configured with its key. As the
 * embeddings endpoint, its address is the operator's choice, so the outbound policy that guards the addresses
 * workflows choose does not apply. No model, no endpoint: searches keep their own scores.
 */
public final class JinaCompatibleReranker implements Reranker {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final ModelEndpoint endpoint;
    private final String model;

    public JinaCompatibleReranker(URI baseUrl, String apiKey, String model, Duration connectTimeout, Duration timeout) {
        this.endpoint = ModelEndpoint.of(baseUrl, apiKey, connectTimeout, timeout);
        this.model = model == null || model.isBlank() ? null : model;
    }

    @Override
    public Optional<String> model() {
        return endpoint.configured() ? Optional.ofNullable(model) : Optional.empty();
    }

    @Override
    public List<Ranked> rerank(String query, List<String> documents, int topN) {
        if (model().isEmpty()) {
            throw new RerankException("No rerank endpoint is configured (HEXAFLOW_LLM_BASE_URL and "
                    + "HEXAFLOW_RERANK_MODEL)", null);
        }
        if (documents.isEmpty()) {
            return List.of();
        }
        ObjectNode body = JSON.createObjectNode().put("model", model).put("query", query).put("top_n", topN);
        documents.forEach(body.putArray("documents")::add);
        String base = endpoint.base();
        HttpResponse<String> response;
        try {
            response = endpoint.postJson("/rerank", body);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RerankException("The rerank call was interrupted", e);
        } catch (Exception e) {
            throw new RerankException("the rerank endpoint " + base + " cannot be reached: " + NetworkFailures.reason(e), e);
        }
        if (response.statusCode() >= 400) {
            throw new RerankException("the rerank endpoint answered " + response.statusCode(), null);
        }
        return ranked(response.body(), documents.size(), topN);
    }

    private static List<Ranked> ranked(String body, int sent, int topN) {
        JsonNode results;
        try {
            results = JSON.readTree(body).path("results");
        } catch (Exception e) {
            throw new RerankException("the rerank endpoint answered something that is not JSON", e);
        }
        if (!results.isArray()) {
            throw new RerankException("the rerank endpoint answered no results list", null);
        }
        List<Ranked> ranked = new ArrayList<>();
        for (JsonNode result : results) {
            int index = result.path("index").asInt(-1);
            // Jina and Cohere name it relevance_score; some servers answer score.
            JsonNode score = result.hasNonNull("relevance_score") ? result.path("relevance_score")
                    : result.path("score");
            if (index < 0 || index >= sent || !score.isNumber()) {
                throw new RerankException("the rerank endpoint answered a result without an index it was sent or "
                        + "a relevance_score", null);
            }
            ranked.add(new Ranked(index, score.asDouble()));
        }
        return ranked.stream().sorted(Comparator.comparingDouble(Ranked::score).reversed()).limit(topN).toList();
    }
}
