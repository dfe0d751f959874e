package dev.hexaflow.adapters.http.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.http.serviceapi.datasets.ProcessRules;
import dev.hexaflow.adapters.http.support.HttpRefusal;
import dev.hexaflow.adapters.http.support.JsonResponses;
import dev.hexaflow.application.knowledge.port.in.AddDocumentCommand;
import dev.hexaflow.application.knowledge.port.in.AddDocumentUseCase;
import dev.hexaflow.application.knowledge.port.in.CreateKnowledgeBaseCommand;
import dev.hexaflow.application.knowledge.port.in.ManageDatasetKeysUseCase;
import dev.hexaflow.application.knowledge.port.in.ManageDocumentsUseCase;
import dev.hexaflow.application.knowledge.port.in.ManageKnowledgeBasesUseCase;
import dev.hexaflow.application.knowledge.port.in.RetrieveKnowledgeQuery;
import dev.hexaflow.application.knowledge.port.in.RetrieveKnowledgeUseCase;
import dev.hexaflow.application.knowledge.port.in.RetrievedChunk;
import dev.hexaflow.domain.knowledge.IndexingTechnique;
import dev.hexaflow.domain.knowledge.KeywordAnalyzer;
import dev.hexaflow.domain.knowledge.KnowledgeBase;
import dev.hexaflow.domain.knowledge.KnowledgeDocument;
import dev.hexaflow.domain.knowledge.MetadataFilter;
import dev.hexaflow.domain.knowledge.RetrievalSettings;
import dev.hexaflow.domain.knowledge.SearchMethod;
import dev.hexaflow.domain.knowledge.SplittingRules;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Knowledge bases for operators: create and list bases, add a document's text, list a base's documents and their
 * indexing state, and try a search; issue and revoke
 * the dataset keys of Dify's Knowledge API. A base created with an imported app's dataset id, or that id bound to a
 * base ({@code POST /admin/knowledge/bases/{id}/aliases}), serves its knowledge-retrieval nodes.
 */
public final class AdminKnowledgeRoutes implements RouteGroup {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final AdminAuthorization admin;
    private final ManageKnowledgeBasesUseCase bases;
    private final AddDocumentUseCase documents;
    private final RetrieveKnowledgeUseCase retrieve;
    private final ManageDatasetKeysUseCase keys;
    private final ManageDocumentsUseCase listDocuments;

    public AdminKnowledgeRoutes(AdminAuthorization admin, ManageKnowledgeBasesUseCase bases,
            AddDocumentUseCase documents, RetrieveKnowledgeUseCase retrieve, ManageDatasetKeysUseCase keys,
            ManageDocumentsUseCase listDocuments) {
        this.admin = admin;
        this.listDocuments = listDocuments;
        this.keys = keys;
        this.bases = bases;
        this.documents = documents;
        this.retrieve = retrieve;
    }

    @Override
    public void addTo(RoutesConfig routes) {
        routes.get("/admin/knowledge/bases", admin.require(ctx -> json(ctx, 200,
                Map.of("data", bases.list().stream().map(AdminKnowledgeRoutes::base).toList()))));
        routes.post("/admin/knowledge/bases", admin.require(this::create));
        routes.post("/admin/knowledge/bases/{id}/documents", admin.require(this::addText));
        routes.get("/admin/knowledge/bases/{id}/documents", admin.require(ctx -> json(ctx, 200, Map.of("data",
                listDocuments.documents(baseId(ctx)).stream().map(AdminKnowledgeRoutes::document).toList()))));
        routes.post("/admin/knowledge/bases/{id}/retrieve", admin.require(this::search));
        routes.post("/admin/knowledge/bases/{id}/aliases", admin.require(this::bind));
        routes.delete("/admin/knowledge/aliases/{dataset_id}", admin.require(ctx -> {
            bases.unbind(ctx.pathParam("dataset_id"));
            json(ctx, 200, Map.of("result", "success"));
        }));
        routes.post("/admin/datasets/keys", admin.require(ctx -> json(ctx, 201, Map.of("key", keys.issue()))));
        routes.delete("/admin/datasets/keys/{key}", admin.require(ctx -> {
            keys.revoke(ctx.pathParam("key"));
            json(ctx, 200, Map.of("result", "success"));
        }));
    }

    private void create(Context ctx) {
        JsonNode body = object(ctx);
        String technique = body.path("indexing_technique").asText("high_quality");
        KeywordAnalyzer analyzer = KeywordAnalyzer.fromWireName(body.path("keyword_analyzer").asText("auto"))
                .orElseThrow(() -> HttpRefusal.invalid("keyword_analyzer must be auto, english, cjk or standard."));
        KnowledgeBase base = bases.create(new CreateKnowledgeBaseCommand(
                Optional.ofNullable(body.path("id").textValue()), required(body, "name"),
                body.path("description").asText(""), IndexingTechnique.fromWireName(technique).orElseThrow(() ->
                        HttpRefusal.invalid("indexing_technique must be high_quality or economy")), Optional.empty(),
                analyzer));
        json(ctx, 201, base(base));
    }

    /** The id of the base the path names, by its own id or one bound to it. */
    private String baseId(Context ctx) {
        return bases.find(ctx.pathParam("id")).map(KnowledgeBase::id).orElse(ctx.pathParam("id"));
    }

    /** {@code {"dataset_id"}}: binds Dify's dataset id to the base, answering 201 with both ids. */
    private void bind(Context ctx) {
        String datasetId = required(object(ctx), "dataset_id");
        String baseId = baseId(ctx);
        bases.bind(datasetId, baseId);
        json(ctx, 201, Map.of("dataset_id", datasetId, "base_id", baseId));
    }

    /** {@code {"name", "text", "process_rule"?: Dify's, "metadata"?: {field: value}}}. */
    private void addText(Context ctx) {
        JsonNode body = object(ctx);
        Map<String, String> metadata = new LinkedHashMap<>();
        body.path("metadata").fields().forEachRemaining(e -> metadata.put(e.getKey(), e.getValue().asText()));
        KnowledgeDocument document = documents.add(new AddDocumentCommand(baseId(ctx),
                required(body, "name"), new AddDocumentCommand.Text(required(body, "text")),
                rules(body.path("process_rule")), metadata));
        json(ctx, 201, document(document));
    }

    /** {@code {"query", "retrieval_model"?: {search_method, top_k, score_threshold_enabled, score_threshold}}}. */
    private void search(Context ctx) {
        JsonNode body = object(ctx);
        String query = required(body, "query");
        JsonNode model = body.path("retrieval_model");
        Optional<RetrievalSettings> settings = Optional.empty();
        if (model.isObject()) {
            String name = model.path("search_method").asText("semantic_search");
            SearchMethod method = SearchMethod.fromWireName(name).orElseThrow(() -> HttpRefusal.invalid(
                    "search_method must be keyword_search, semantic_search, full_text_search or hybrid_search"));
            Optional<Double> threshold = model.path("score_threshold_enabled").asBoolean(false)
                    && model.path("score_threshold").isNumber()
                    ? Optional.of(model.path("score_threshold").asDouble()) : Optional.empty();
            try {
                settings = Optional.of(new RetrievalSettings(method, model.path("top_k").asInt(4), threshold, 0.7,
                        0.3));
            } catch (IllegalArgumentException e) {
                throw HttpRefusal.invalid(e.getMessage());
            }
        }
        List<RetrievedChunk> found = retrieve.retrieve(new RetrieveKnowledgeQuery(List.of(ctx.pathParam("id")),
                query, settings, MetadataFilter.NONE, false));
        List<Map<String, Object>> records = found.stream().map(hit -> {
            Map<String, Object> segment = new LinkedHashMap<>();
            segment.put("id", hit.chunk().id());
            segment.put("position", hit.chunk().position());
            segment.put("document_id", hit.document().id());
            segment.put("content", hit.chunk().content());
            segment.put("document", Map.of("id", hit.document().id(), "name", hit.document().name()));
            Map<String, Object> record = new LinkedHashMap<>();
            record.put("segment", segment);
            record.put("score", hit.score());
            return record;
        }).toList();
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("query", Map.of("content", query));
        answer.put("records", records);
        json(ctx, 200, answer);
    }

    private static SplittingRules rules(JsonNode rule) {
        try {
            return ProcessRules.read(rule);
        } catch (IllegalArgumentException e) {
            throw HttpRefusal.invalid(e.getMessage());
        }
    }

    private static Map<String, Object> base(KnowledgeBase base) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", base.id());
        body.put("name", base.name());
        body.put("description", base.description());
        body.put("indexing_technique", base.indexingTechnique().wireName());
        body.put("embedding_model", base.embeddingModel().orElse(null));
        body.put("keyword_only", base.keywordOnly());
        body.put("search_method", base.retrieval().method().wireName());
        body.put("keyword_analyzer", base.analyzer().wireName());
        body.put("created_at", base.created().getEpochSecond());
        return body;
    }

    private static Map<String, Object> document(KnowledgeDocument document) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", document.id());
        body.put("name", document.name());
        body.put("indexing_status", document.status().wireName());
        body.put("error", document.error().orElse(null));
        body.put("word_count", document.wordCount());
        return body;
    }

    private static JsonNode object(Context ctx) {
        JsonNode body;
        try {
            body = JSON.readTree(ctx.bodyAsBytes());
        } catch (IOException e) {
            body = null;
        }
        if (body == null || !body.isObject()) {
            throw HttpRefusal.invalid("Send a JSON object");
        }
        return body;
    }

    private static String required(JsonNode body, String field) {
        JsonNode value = body.path(field);
        if (!value.isTextual() || value.asText().isBlank()) {
            throw HttpRefusal.invalid(field + " is required");
        }
        return value.asText();
    }

    private static void json(Context ctx, int status, Object body) {
        ctx.status(status).contentType("application/json").result(JsonResponses.json(body));
    }
}
