package dev.hexaflow.adapters.http.serviceapi.datasets;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.http.serviceapi.datasets.DatasetKeyAuthentication.DatasetAccess;
import dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeBodies.CreatedDocument;
import dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeBodies.DatasetBody;
import dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeBodies.DocumentBody;
import dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeBodies.IndexingStatusBody;
import dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeBodies.IndexingStatuses;
import dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeBodies.Page;
import dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeBodies.QueryBody;
import dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeBodies.RecordBody;
import dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeBodies.RetrieveAnswer;
import dev.hexaflow.adapters.http.support.HttpRefusal;
import dev.hexaflow.adapters.http.support.JsonResponses;
import dev.hexaflow.application.knowledge.port.in.AddDocumentCommand;
import dev.hexaflow.application.knowledge.port.in.AddDocumentUseCase;
import dev.hexaflow.application.knowledge.port.in.CreateKnowledgeBaseCommand;
import dev.hexaflow.application.knowledge.port.in.ManageDocumentsUseCase;
import dev.hexaflow.application.knowledge.port.in.ManageKnowledgeBasesUseCase;
import dev.hexaflow.application.knowledge.port.in.ManageKnowledgeTagsUseCase;
import dev.hexaflow.application.knowledge.port.in.ManageMetadataUseCase;
import dev.hexaflow.application.knowledge.port.in.RerankRequest;
import dev.hexaflow.application.knowledge.port.in.RetrieveKnowledgeQuery;
import dev.hexaflow.application.knowledge.port.in.RetrieveKnowledgeUseCase;
import dev.hexaflow.application.knowledge.port.in.RetrievedChunk;
import dev.hexaflow.domain.knowledge.DocumentStatus;
import dev.hexaflow.domain.knowledge.IndexingTechnique;
import dev.hexaflow.domain.knowledge.KnowledgeBase;
import dev.hexaflow.domain.knowledge.KnowledgeDocument;
import dev.hexaflow.domain.knowledge.KnowledgeTag;
import dev.hexaflow.domain.knowledge.MetadataFilter;
import dev.hexaflow.domain.knowledge.ParentChildRules;
import dev.hexaflow.domain.knowledge.RetrievalSettings;
import dev.hexaflow.domain.knowledge.SearchMethod;
import dev.hexaflow.domain.knowledge.SplittingRules;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import io.javalin.http.UploadedFile;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Dify's Knowledge (datasets) Service API: datasets, their documents by text or file, segments, and retrieval, in
 * Dify's shapes ({@link KnowledgeBodies}), codes and messages, behind {@link DatasetKeyAuthentication}. Indexing is done when a document
 * call returns, so a batch's indexing status is final at once: {@code completed}, or {@code error} with the reason.
 * A batch is named by its document's id. A dataset id bound to a base ({@code hexaflow knowledge bind}) names that
 * base.
 */
public final class KnowledgeApiRoutes implements RouteGroup {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PREFIX = "/v1/datasets";

    private final ManageKnowledgeBasesUseCase bases;
    private final AddDocumentUseCase add;
    private final ManageDocumentsUseCase documents;
    private final RetrieveKnowledgeUseCase retrieve;
    private final ManageKnowledgeTagsUseCase tags;
    private final ManageMetadataUseCase metadata;

    public KnowledgeApiRoutes(ManageKnowledgeBasesUseCase bases, AddDocumentUseCase add,
            ManageDocumentsUseCase documents, RetrieveKnowledgeUseCase retrieve, ManageKnowledgeTagsUseCase tags,
            ManageMetadataUseCase metadata) {
        this.bases = bases;
        this.add = add;
        this.documents = documents;
        this.retrieve = retrieve;
        this.tags = tags;
        this.metadata = metadata;
    }

    @Override
    public void addTo(RoutesConfig routes) {
        get(routes, PREFIX, this::listBases);
        post(routes, PREFIX, this::createBase);
        get(routes, PREFIX + "/{id}", ctx -> json(ctx, 200, dataset(existing(ctx))));
        routes.patch(PREFIX + "/{id}", this::updateBase, DatasetAccess.DATASETS);
        routes.delete(PREFIX + "/{id}", this::deleteBase, DatasetAccess.DATASETS);
        post(routes, PREFIX + "/{id}/document/create-by-text", this::createByText);
        post(routes, PREFIX + "/{id}/document/create_by_text", this::createByText);
        post(routes, PREFIX + "/{id}/document/create-by-file", this::createByFile);
        post(routes, PREFIX + "/{id}/document/create_by_file", this::createByFile);
        get(routes, PREFIX + "/{id}/documents", this::listDocuments);
        get(routes, PREFIX + "/{id}/documents/{batch}/indexing-status", this::indexingStatus);
        get(routes, PREFIX + "/{id}/documents/{doc}", ctx -> json(ctx, 200, documentBody(document(ctx))));
        routes.delete(PREFIX + "/{id}/documents/{doc}", this::deleteDocument,
                DatasetAccess.DATASETS);
        post(routes, PREFIX + "/{id}/documents/{doc}/update-by-text", this::updateByText);
        post(routes, PREFIX + "/{id}/documents/{doc}/update_by_text", this::updateByText);
        post(routes, PREFIX + "/{id}/documents/{doc}/update-by-file", this::updateByFile);
        post(routes, PREFIX + "/{id}/documents/{doc}/update_by_file", this::updateByFile);
        new KnowledgeSegmentRoutes(bases, documents).addTo(routes);
        post(routes, PREFIX + "/{id}/retrieve", this::retrieve);
        post(routes, PREFIX + "/{id}/hit-testing", this::retrieve);
    }

    private void get(RoutesConfig routes, String path, Handler handler) {
        routes.get(path, handler, DatasetAccess.DATASETS);
    }

    private void post(RoutesConfig routes, String path, Handler handler) {
        routes.post(path, handler, DatasetAccess.DATASETS);
    }

    // Datasets

    private void listBases(Context ctx) {
        int page = positive(ctx, "page", 1, Integer.MAX_VALUE);
        int limit = positive(ctx, "limit", 20, 100);
        String keyword = Optional.ofNullable(ctx.queryParam("keyword")).orElse("").toLowerCase(Locale.ROOT);
        // Dify sends tag_ids repeated, or as one comma-separated value; a base carrying any tag named is listed.
        List<String> tagIds = ctx.queryParams("tag_ids").stream().flatMap(v -> Arrays.stream(v.split(",")))
                .map(String::strip).filter(v -> !v.isEmpty()).toList();
        List<KnowledgeBase> all = bases.list().stream()
                .filter(b -> keyword.isEmpty() || b.name().toLowerCase(Locale.ROOT).contains(keyword))
                .filter(b -> tagIds.isEmpty() || tags.tagsOf(b.id()).stream().map(KnowledgeTag::id)
                        .anyMatch(tagIds::contains)).toList();
        json(ctx, 200, Page.of(all.stream().map(this::dataset).toList(), page, limit));
    }

    private void createBase(Context ctx) {
        JsonNode body = object(ctx);
        String name = text(body, "name").orElse("");
        if (name.isBlank() || name.length() > KnowledgeBase.MAX_NAME) {
            throw HttpRefusal.invalid("Name must be between 1 to 40 characters.");
        }
        if (bases.list().stream().anyMatch(b -> b.name().equals(name))) {
            throw new HttpRefusal(409, "dataset_name_duplicate",
                    "The dataset name already exists. Please modify your dataset name.");
        }
        String description = text(body, "description").orElse("");
        if (description.length() > KnowledgeBase.MAX_DESCRIPTION) {
            throw HttpRefusal.invalid("Description cannot exceed 400 characters.");
        }
        IndexingTechnique technique = technique(body).orElse(IndexingTechnique.HIGH_QUALITY);
        Optional<RetrievalSettings> retrieval = settings(body.path("retrieval_model"), Optional.empty());
        KnowledgeBase created = bases.create(new CreateKnowledgeBaseCommand(Optional.empty(), name, description,
                technique, retrieval));
        json(ctx, 200, dataset(created));
    }

    private void updateBase(Context ctx) {
        KnowledgeBase current = existing(ctx);
        JsonNode body = object(ctx);
        Optional<String> name = text(body, "name");
        if (name.isPresent() && (name.get().isBlank() || name.get().length() > KnowledgeBase.MAX_NAME)) {
            throw HttpRefusal.invalid("Name must be between 1 to 40 characters.");
        }
        Optional<String> description = text(body, "description");
        if (description.isPresent() && description.get().length() > KnowledgeBase.MAX_DESCRIPTION) {
            throw HttpRefusal.invalid("Description cannot exceed 400 characters.");
        }
        KnowledgeBase updated = bases.update(current.id(), name, description,
                settings(body.path("retrieval_model"), Optional.of(current.retrieval())));
        json(ctx, 200, dataset(updated));
    }

    private void deleteBase(Context ctx) {
        bases.delete(existing(ctx).id());
        ctx.status(204);
    }

    private KnowledgeBase existing(Context ctx) {
        return bases.find(ctx.pathParam("id")).orElseThrow(() -> HttpRefusal.notFound("Dataset not found."));
    }

    private DatasetBody dataset(KnowledgeBase base) {
        return DatasetBody.of(base, documents.documents(base.id()), tags.tagsOf(base.id()));
    }

    // Documents

    private void createByText(Context ctx) {
        KnowledgeBase base = bases.find(ctx.pathParam("id")).orElseThrow(() ->
                HttpRefusal.invalid("Dataset does not exist."));
        JsonNode body = object(ctx);
        String name = text(body, "name").filter(n -> !n.isBlank()).orElseThrow(() ->
                HttpRefusal.invalid("name is required."));
        String text = text(body, "text").orElseThrow(() -> HttpRefusal.invalid("text is required."));
        technique(body);
        KnowledgeDocument document = add.add(command(base.id(), name,
                new AddDocumentCommand.Text(text), body, Map.of()));
        json(ctx, 200, created(document));
    }

    /** A create- or update-by-file body: the file when one was sent, and the {@code data} part's options. */
    private record FileUpload(Optional<AddDocumentCommand.File> file, String filename, JsonNode options) {
    }

    /**
     * Reads Dify's multipart document body: one {@code file} part (required unless {@code fileOptional}) and a
     * {@code data} part holding a JSON object of options.
     */
    private static FileUpload upload(Context ctx, boolean fileOptional) {
        List<UploadedFile> files;
        String data;
        try {
            boolean multipart = ctx.contentType() != null
                    && ctx.contentType().toLowerCase(Locale.ROOT).startsWith("multipart/form-data");
            files = multipart ? ctx.uploadedFiles("file") : List.of();
            data = multipart ? ctx.formParam("data") : null;
        } catch (Exception e) {
            // Jetty's ServletException for a body that is no multipart at all is checked, yet thrown here.
            ctx.header("Connection", "close");
            throw HttpRefusal.invalid("The multipart body cannot be read.");
        }
        if (files.isEmpty() && !fileOptional) {
            throw new HttpRefusal(400, "no_file_uploaded", "Please upload your file.");
        }
        if (files.size() > 1) {
            throw new HttpRefusal(400, "too_many_files", "Only one file is allowed.");
        }
        JsonNode options = JSON.createObjectNode();
        if (data != null && !data.isBlank()) {
            try {
                options = JSON.readTree(data);
            } catch (IOException e) {
                throw HttpRefusal.invalid("data must be a JSON object.");
            }
            if (options == null || !options.isObject()) {
                throw HttpRefusal.invalid("data must be a JSON object.");
            }
        }
        technique(options);
        if (files.isEmpty()) {
            return new FileUpload(Optional.empty(), "", options);
        }
        UploadedFile file = files.get(0);
        String filename = file.filename() == null || file.filename().isBlank() ? "file" : file.filename();
        int dot = filename.lastIndexOf('.');
        if (dot < 0) {
            throw new HttpRefusal(415, "unsupported_file_type", "File type not allowed.");
        }
        byte[] bytes;
        try (InputStream in = file.content()) {
            bytes = in.readAllBytes();
        } catch (IOException e) {
            throw HttpRefusal.invalid("The uploaded file cannot be read.");
        }
        String name = filename.length() > KnowledgeDocument.MAX_NAME ? filename.substring(0, KnowledgeDocument.MAX_NAME)
                : filename;
        return new FileUpload(Optional.of(new AddDocumentCommand.File(bytes, filename.substring(dot)
                .toLowerCase(Locale.ROOT), file.contentType())), name, options);
    }

    private void createByFile(Context ctx) {
        KnowledgeBase base = bases.find(ctx.pathParam("id")).orElseThrow(() ->
                HttpRefusal.invalid("Dataset does not exist."));
        FileUpload upload = upload(ctx, false);
        KnowledgeDocument document = add.add(command(base.id(), upload.filename(),
                upload.file().orElseThrow(), upload.options(), Map.of()));
        json(ctx, 200, created(document));
    }

    /**
     * Dify's update-by-file: the document's text replaced by the file's, split by the {@code data} part's
     * process_rule, named after the file; without a file, the document indexed again from its kept chunks (as
     * Dify indexes an updated document again) when its indexing failed, or else as it is.
     */
    private void updateByFile(Context ctx) {
        KnowledgeBase base = existing(ctx);
        KnowledgeDocument current = document(ctx);
        FileUpload upload = upload(ctx, true);
        if (upload.file().isEmpty()) {
            json(ctx, 200, created(indexedAgainIfFailed(current)));
            return;
        }
        KnowledgeDocument replaced = add.replace(current.id(), command(base.id(), upload.filename(),
                upload.file().get(), upload.options(), current.metadata()));
        json(ctx, 200, created(replaced));
    }

    private void updateByText(Context ctx) {
        KnowledgeBase base = existing(ctx);
        KnowledgeDocument current = document(ctx);
        JsonNode body = object(ctx);
        Optional<String> text = text(body, "text");
        Optional<String> name = text(body, "name").filter(n -> !n.isBlank());
        if (text.isEmpty()) {
            if (name.isPresent()) {
                throw HttpRefusal.invalid("text is required when name is provided.");
            }
            json(ctx, 200, created(indexedAgainIfFailed(current)));
            return;
        }
        KnowledgeDocument replaced = add.replace(current.id(), command(base.id(),
                name.orElse(current.name()), new AddDocumentCommand.Text(text.get()), body, current.metadata()));
        json(ctx, 200, created(replaced));
    }

    /**
     * An update that brings no new content: Dify indexes the document again, which here matters only for one whose
     * indexing failed (its embedding endpoint was down, its server stopped): indexed again from its kept chunks.
     */
    private KnowledgeDocument indexedAgainIfFailed(KnowledgeDocument current) {
        return current.status() == DocumentStatus.ERROR ? add.retry(current.id()) : current;
    }

    private void listDocuments(Context ctx) {
        KnowledgeBase base = existing(ctx);
        int page = positive(ctx, "page", 1, Integer.MAX_VALUE);
        int limit = positive(ctx, "limit", 20, 100);
        String keyword = Optional.ofNullable(ctx.queryParam("keyword")).orElse("").toLowerCase(Locale.ROOT);
        String status = Optional.ofNullable(ctx.queryParam("status")).orElse("");
        List<KnowledgeDocument> all = documents.documents(base.id());
        List<DocumentBody> shown = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            KnowledgeDocument d = all.get(i);
            if ((keyword.isEmpty() || d.name().toLowerCase(Locale.ROOT).contains(keyword))
                    && (status.isEmpty() || KnowledgeBodies.shownStatus(d).equals(status))) {
                shown.add(documentBody(d, i + 1));
            }
        }
        json(ctx, 200, Page.of(shown, page, limit));
    }

    private void indexingStatus(Context ctx) {
        String baseId = existing(ctx).id();
        KnowledgeDocument d = documents.document(ctx.pathParam("batch"))
                .filter(doc -> doc.baseId().equals(baseId))
                .orElseThrow(() -> HttpRefusal.notFound("Documents not found."));
        json(ctx, 200, new IndexingStatuses(List.of(IndexingStatusBody.of(d, documents.chunks(d.id()).size()))));
    }

    private void deleteDocument(Context ctx) {
        documents.delete(document(ctx).id());
        ctx.status(204);
    }

    private KnowledgeDocument document(Context ctx) {
        String baseId = existing(ctx).id();
        return documents.document(ctx.pathParam("doc")).filter(d -> d.baseId().equals(baseId))
                .orElseThrow(() -> HttpRefusal.notFound("Document not found."));
    }

    private CreatedDocument created(KnowledgeDocument document) {
        return new CreatedDocument(documentBody(document), document.id());
    }

    private DocumentBody documentBody(KnowledgeDocument document) {
        List<KnowledgeDocument> all = documents.documents(document.baseId());
        int position = 1;
        for (int i = 0; i < all.size(); i++) {
            if (all.get(i).id().equals(document.id())) {
                position = i + 1;
            }
        }
        return documentBody(document, position);
    }

    private DocumentBody documentBody(KnowledgeDocument d, int position) {
        return DocumentBody.of(d, position, documents.chunks(d.id()), metadata.valuesOf(d),
                KnowledgeBodies.docForm(documents.childChunks(d.id())));
    }

    // Retrieval

    private void retrieve(Context ctx) {
        KnowledgeBase base = existing(ctx);
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
     * Dify's {@code retrieval_model}, over {@code base} for the fields it leaves out; empty when none is given
     * and there is no base.
     */
    private static Optional<RetrievalSettings> settings(JsonNode model, Optional<RetrievalSettings> base) {
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
                    HttpRefusal.invalid("comparison_operator '" + operator + "' is not one of Dify's metadata operators."));
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

    private static Optional<IndexingTechnique> technique(JsonNode body) {
        JsonNode value = body.path("indexing_technique");
        if (value.isMissingNode() || value.isNull()) {
            return Optional.empty();
        }
        return Optional.of(IndexingTechnique.fromWireName(value.asText()).orElseThrow(() ->
                HttpRefusal.invalid("indexing_technique must be high_quality or economy")));
    }

    /**
     * A document to add, split by the body's {@code process_rule}: into parent and child chunks when its
     * {@code doc_form} is {@code hierarchical_model}.
     */
    private static AddDocumentCommand command(String baseId, String name, AddDocumentCommand.Content content,
            JsonNode body, Map<String, String> metadata) {
        JsonNode rule = body.path("process_rule");
        String form = body.path("doc_form").asText(DOC_FORM_TEXT);
        Optional<ParentChildRules> hierarchy;
        try {
            hierarchy = switch (form) {
                case DOC_FORM_TEXT -> Optional.empty();
                case DOC_FORM_HIERARCHICAL -> Optional.of(ProcessRules.hierarchy(rule));
                default -> throw HttpRefusal.invalid("doc_form must be text_model or hierarchical_model.");
            };
        } catch (IllegalArgumentException e) {
            throw HttpRefusal.invalid(e.getMessage());
        }
        return new AddDocumentCommand(baseId, name, content, hierarchy.isPresent() ? SplittingRules.AUTOMATIC
                : rules(rule), metadata, hierarchy);
    }

    private static final String DOC_FORM_TEXT = "text_model";
    private static final String DOC_FORM_HIERARCHICAL = "hierarchical_model";

    private static SplittingRules rules(JsonNode rule) {
        try {
            return ProcessRules.read(rule);
        } catch (IllegalArgumentException e) {
            throw HttpRefusal.invalid(e.getMessage());
        }
    }

    // Wire helpers

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
}
