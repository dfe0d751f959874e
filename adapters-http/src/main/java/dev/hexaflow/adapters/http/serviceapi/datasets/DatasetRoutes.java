package dev.hexaflow.adapters.http.serviceapi.datasets;

import static dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeRequests.analyzer;
import static dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeRequests.json;
import static dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeRequests.object;
import static dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeRequests.positive;
import static dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeRequests.settings;
import static dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeRequests.technique;
import static dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeRequests.text;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.http.serviceapi.datasets.DatasetKeyAuthentication.DatasetAccess;
import dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeBodies.DatasetBody;
import dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeBodies.Page;
import dev.hexaflow.adapters.http.support.HttpRefusal;
import dev.hexaflow.application.knowledge.port.in.CreateKnowledgeBaseCommand;
import dev.hexaflow.application.knowledge.port.in.ManageDocumentsUseCase;
import dev.hexaflow.application.knowledge.port.in.ManageKnowledgeBasesUseCase;
import dev.hexaflow.application.knowledge.port.in.ManageKnowledgeTagsUseCase;
import dev.hexaflow.domain.knowledge.IndexingTechnique;
import dev.hexaflow.domain.knowledge.KeywordAnalyzer;
import dev.hexaflow.domain.knowledge.KnowledgeBase;
import dev.hexaflow.domain.knowledge.KnowledgeTag;
import dev.hexaflow.domain.knowledge.RetrievalSettings;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The Knowledge API's datasets: listed (by keyword and tags, a page at a time), created, read, updated and deleted,
 * in Dify's shapes. {@link KnowledgeApiRoutes} adds them with the rest of the API.
 */
final class DatasetRoutes implements RouteGroup {

    private static final String PREFIX = "/v1/datasets";

    private final ManageKnowledgeBasesUseCase bases;
    private final ManageDocumentsUseCase documents;
    private final ManageKnowledgeTagsUseCase tags;

    DatasetRoutes(ManageKnowledgeBasesUseCase bases, ManageDocumentsUseCase documents,
            ManageKnowledgeTagsUseCase tags) {
        this.bases = bases;
        this.documents = documents;
        this.tags = tags;
    }

    @Override
    public void addTo(RoutesConfig routes) {
        routes.get(PREFIX, this::listBases, DatasetAccess.DATASETS);
        routes.post(PREFIX, this::createBase, DatasetAccess.DATASETS);
        routes.get(PREFIX + "/{id}", ctx -> json(ctx, 200, dataset(existing(bases, ctx))), DatasetAccess.DATASETS);
        routes.patch(PREFIX + "/{id}", this::updateBase, DatasetAccess.DATASETS);
        routes.delete(PREFIX + "/{id}", this::deleteBase, DatasetAccess.DATASETS);
    }

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
                technique, retrieval, analyzer(body).orElse(KeywordAnalyzer.AUTO)));
        json(ctx, 200, dataset(created));
    }

    private void updateBase(Context ctx) {
        KnowledgeBase current = existing(bases, ctx);
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
                settings(body.path("retrieval_model"), Optional.of(current.retrieval())), analyzer(body));
        json(ctx, 200, dataset(updated));
    }

    private void deleteBase(Context ctx) {
        bases.delete(existing(bases, ctx).id());
        ctx.status(204);
    }

    /** The dataset the path names, or 404. */
    static KnowledgeBase existing(ManageKnowledgeBasesUseCase bases, Context ctx) {
        return bases.find(ctx.pathParam("id")).orElseThrow(() -> HttpRefusal.notFound("Dataset not found."));
    }

    private DatasetBody dataset(KnowledgeBase base) {
        return DatasetBody.of(base, documents.documents(base.id()), tags.tagsOf(base.id()));
    }
}
