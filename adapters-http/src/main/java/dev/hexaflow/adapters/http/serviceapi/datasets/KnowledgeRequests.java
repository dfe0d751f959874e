package dev.hexaflow.adapters.http.serviceapi.datasets;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.adapters.http.support.HttpRefusal;
import dev.hexaflow.adapters.http.support.JsonResponses;
import dev.hexaflow.domain.knowledge.IndexingTechnique;
import dev.hexaflow.domain.knowledge.KeywordAnalyzer;
import dev.hexaflow.domain.knowledge.RetrievalSettings;
import dev.hexaflow.domain.knowledge.SearchMethod;
import io.javalin.http.Context;
import java.io.IOException;
import java.util.Optional;

/**
 * How the Knowledge API reads a request, for every route group of it: query numbers, a JSON object body and its
 * text fields, the indexing technique and Dify's {@code retrieval_model}; each wrong one refused as Dify refuses
 * it ({@link HttpRefusal}). And how it answers: a JSON body.
 */
final class KnowledgeRequests {

    private static final ObjectMapper JSON = new ObjectMapper();

    private KnowledgeRequests() {
    }

    static int positive(Context ctx, String name, int fallback, int max) {
        String value = ctx.queryParam(name);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            int n = Integer.parseInt(value.strip());
            if (n < 1 || n > max) {
                throw HttpRefusal.invalid(name + " must be between 1 and " + max + ".");
            }
            return n;
        } catch (NumberFormatException e) {
            throw HttpRefusal.invalid(name + " must be a number.");
        }
    }

    static JsonNode object(Context ctx) {
        JsonNode body;
        try {
            body = JSON.readTree(ctx.bodyAsBytes());
        } catch (IOException e) {
            body = null;
        }
        if (body == null || !body.isObject()) {
            throw HttpRefusal.invalid("The request body must be a JSON object.");
        }
        return body;
    }

    static Optional<String> text(JsonNode body, String field) {
        JsonNode value = body.path(field);
        if (value.isMissingNode() || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isTextual()) {
            throw HttpRefusal.invalid(field + " must be a string.");
        }
        return Optional.of(value.asText());
    }

    static void json(Context ctx, int status, Object body) {
        ctx.status(status).contentType("application/json").result(JsonResponses.json(body));
    }

    static Optional<IndexingTechnique> technique(JsonNode body) {
        JsonNode value = body.path("indexing_technique");
        if (value.isMissingNode() || value.isNull()) {
            return Optional.empty();
        }
        return Optional.of(IndexingTechnique.fromWireName(value.asText()).orElseThrow(() ->
                HttpRefusal.invalid("indexing_technique must be high_quality or economy")));
    }

    /** Hexaflow's {@code keyword_analyzer} (Dify has none): how the dataset's keyword search reads words. */
    static Optional<KeywordAnalyzer> analyzer(JsonNode body) {
        JsonNode value = body.path("keyword_analyzer");
        if (value.isMissingNode() || value.isNull()) {
            return Optional.empty();
        }
        return Optional.of(KeywordAnalyzer.fromWireName(value.isTextual() ? value.asText() : "").orElseThrow(() ->
                HttpRefusal.invalid("keyword_analyzer must be auto, english, cjk or standard.")));
    }

    /**
     * Dify's {@code retrieval_model}, over {@code base} for the fields it leaves out; empty when none is given
     * and there is no base.
     */
    static Optional<RetrievalSettings> settings(JsonNode model, Optional<RetrievalSettings> base) {
        if (!model.isObject()) {
            return base;
        }
        RetrievalSettings from = base.orElse(RetrievalSettings.defaults(SearchMethod.SEMANTIC_SEARCH));
        SearchMethod method = from.method();
        if (model.hasNonNull("search_method")) {
            method = SearchMethod.fromWireName(model.path("search_method").asText()).orElseThrow(() ->
                    HttpRefusal.invalid("search_method must be keyword_search, semantic_search, full_text_search or "
                            + "hybrid_search"));
        }
        int topK = model.path("top_k").isInt() ? model.path("top_k").intValue() : from.topK();
        Optional<Double> threshold = from.scoreThreshold();
        if (model.has("score_threshold_enabled")) {
            threshold = model.path("score_threshold_enabled").asBoolean(false)
                    && model.path("score_threshold").isNumber()
                    ? Optional.of(model.path("score_threshold").asDouble()) : Optional.empty();
        }
        JsonNode weights = model.path("weights");
        double vector = weights.path("vector_setting").path("vector_weight").isNumber()
                ? weights.path("vector_setting").path("vector_weight").asDouble() : from.vectorWeight();
        double keyword = weights.path("keyword_setting").path("keyword_weight").isNumber()
                ? weights.path("keyword_setting").path("keyword_weight").asDouble() : from.keywordWeight();
        try {
            return Optional.of(new RetrievalSettings(method, topK, threshold, vector, keyword));
        } catch (IllegalArgumentException e) {
            throw HttpRefusal.invalid(e.getMessage());
        }
    }
}
