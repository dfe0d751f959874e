package dev.hexaflow.adapters.http.serviceapi.datasets;

import static dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeRequests.json;
import static dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeRequests.object;
import static dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeRequests.settings;
import static dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeRequests.text;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.http.serviceapi.datasets.DatasetKeyAuthentication.DatasetAccess;
import dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeBodies.QueryBody;
import dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeBodies.RecordBody;
import dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeBodies.RetrieveAnswer;
import dev.hexaflow.adapters.http.support.HttpRefusal;
import dev.hexaflow.application.knowledge.port.in.ManageKnowledgeBasesUseCase;
import dev.hexaflow.application.knowledge.port.in.RerankRequest;
import dev.hexaflow.application.knowledge.port.in.RetrieveKnowledgeQuery;
import dev.hexaflow.application.knowledge.port.in.RetrieveKnowledgeUseCase;
import dev.hexaflow.application.knowledge.port.in.RetrievedChunk;
import dev.hexaflow.domain.knowledge.KnowledgeBase;
import dev.hexaflow.domain.knowledge.MetadataFilter;
import dev.hexaflow.domain.knowledge.RetrievalSettings;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The Knowledge API's retrieval over one dataset ({@code retrieve}, and {@code hit-testing}, Dify's older name):
 * Dify's {@code retrieval_model} with its metadata filter and reranking. {@link KnowledgeApiRoutes} adds it with the
 * rest of the API.
 */
final class RetrievalRoutes implements RouteGroup {

    private static final String PREFIX = "/v1/datasets";

    private final ManageKnowledgeBasesUseCase bases;
    private final RetrieveKnowledgeUseCase retrieve;

    RetrievalRoutes(ManageKnowledgeBasesUseCase bases, RetrieveKnowledgeUseCase retrieve) {
        this.bases = bases;
        this.retrieve = retrieve;
    }

    @Override
    public void addTo(RoutesConfig routes) {
        routes.post(PREFIX + "/{id}/retrieve", this::retrieve, DatasetAccess.DATASETS);
        routes.post(PREFIX + "/{id}/hit-testing", this::retrieve, DatasetAccess.DATASETS);
    }

    private void retrieve(Context ctx) {
        KnowledgeBase base = DatasetRoutes.existing(bases, ctx);
        JsonNode body = object(ctx);
        String query = text(body, "query").orElseThrow(() -> HttpRefusal.invalid("query is required."));
        if (query.length() > 250) {
            throw HttpRefusal.invalid("Query cannot exceed 250 characters");
        }
        Optional<RetrievalSettings> settings = settings(body.path("retrieval_model"),
                Optional.of(base.retrieval()));
        List<RetrievedChunk> found = retrieve.retrieve(new RetrieveKnowledgeQuery(List.of(base.id()), query,
                settings, filter(body.path("retrieval_model").path("metadata_filtering_conditions")), false,
                rerank(body.path("retrieval_model"))));
        json(ctx, 200, new RetrieveAnswer(new QueryBody(query), found.stream().map(RecordBody::of).toList()));
    }

    /**
     * Dify's {@code metadata_filtering_conditions}: {@code logical_operator} ({@code and} or {@code or}) and
     * {@code conditions}, each a metadata {@code name}, a {@code comparison_operator} and a {@code value} (a list for
     * {@code in} and {@code not in}); none when absent.
     */
    private static MetadataFilter filter(JsonNode conditions) {
        if (conditions.isMissingNode() || conditions.isNull()) {
            return MetadataFilter.NONE;
        }
        if (!conditions.isObject() || !(conditions.path("conditions").isArray()
                || conditions.path("conditions").isMissingNode() || conditions.path("conditions").isNull())) {
            throw HttpRefusal.invalid("metadata_filtering_conditions must be an object with a list of conditions.");
        }
        List<MetadataFilter.Condition> list = new ArrayList<>();
        for (JsonNode condition : conditions.path("conditions")) {
            String name = condition.path("name").asText("");
            String operator = condition.path("comparison_operator").asText("");
            MetadataFilter.Operator known = MetadataFilter.Operator.fromWireName(operator).orElseThrow(() ->
                    HttpRefusal.invalid("comparison_operator '" + operator
                            + "' is not one of Dify's metadata operators."));
            JsonNode value = condition.path("value");
            List<String> values = new ArrayList<>();
            if (value.isArray()) {
                value.forEach(v -> values.add(v.asText()));
            } else if (!value.isMissingNode() && !value.isNull()) {
                values.add(value.asText());
            }
            try {
                list.add(new MetadataFilter.Condition(name, known, String.join(",", values)));
            } catch (IllegalArgumentException e) {
                throw HttpRefusal.invalid("Each metadata condition needs a name.");
            }
        }
        try {
            return MetadataFilter.of(conditions.path("logical_operator").asText("and"), list);
        } catch (IllegalArgumentException e) {
            throw HttpRefusal.invalid(e.getMessage());
        }
    }

    /**
     * Dify's {@code reranking_enable} with {@code reranking_model {reranking_provider_name, reranking_model_name}},
     * unless {@code reranking_mode} asks for the weighted score instead.
     */
    private static Optional<RerankRequest> rerank(JsonNode model) {
        JsonNode reranking = model.path("reranking_model");
        String name = reranking.path("reranking_model_name").asText("");
        if (!model.path("reranking_enable").asBoolean(false) || name.isBlank()
                || model.path("reranking_mode").asText("reranking_model").equals("weighted_score")) {
            return Optional.empty();
        }
        return Optional.of(new RerankRequest(reranking.path("reranking_provider_name").asText(""), name));
    }
}
