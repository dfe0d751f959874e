package dev.hexaflow.adapters.http.serviceapi.datasets;

import static dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeRequests.json;
import static dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeRequests.object;
import static dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeRequests.text;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.http.serviceapi.datasets.DatasetKeyAuthentication.DatasetAccess;
import dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeBodies.CountedTagBody;
import dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeBodies.DatasetTags;
import dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeBodies.NamedTag;
import dev.hexaflow.adapters.http.support.HttpRefusal;
import dev.hexaflow.application.knowledge.port.in.ManageKnowledgeTagsUseCase;
import dev.hexaflow.domain.knowledge.KnowledgeTag;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.ArrayList;
import java.util.List;

/**
 * Dify's knowledge tags on the Knowledge API: list, create, rename and delete tags, bind them to datasets and unbind
 * them, and a dataset's tags. Added before {@link KnowledgeApiRoutes}, since {@code /v1/datasets/tags} would
 * otherwise be read as a dataset named "tags".
 */
public final class KnowledgeTagRoutes implements RouteGroup {

    private static final String TAGS = "/v1/datasets/tags";

    private final ManageKnowledgeTagsUseCase tags;

    public KnowledgeTagRoutes(ManageKnowledgeTagsUseCase tags) {
        this.tags = tags;
    }

    @Override
    public void addTo(RoutesConfig routes) {
        routes.get(TAGS, ctx -> json(ctx, 200, tags.list().stream().map(CountedTagBody::of).toList()),
                DatasetAccess.DATASETS);
        routes.post(TAGS, ctx -> json(ctx, 200, CountedTagBody.of(tags.create(name(object(ctx))))),
                DatasetAccess.DATASETS);
        routes.patch(TAGS, this::rename, DatasetAccess.DATASETS);
        routes.delete(TAGS, ctx -> {
            tags.delete(required(object(ctx), "tag_id"));
            ctx.status(204);
        }, DatasetAccess.DATASETS);
        routes.post(TAGS + "/binding", this::bind, DatasetAccess.DATASETS);
        routes.post(TAGS + "/unbinding", ctx -> {
            JsonNode body = object(ctx);
            tags.unbind(required(body, "tag_id"), required(body, "target_id"));
            ctx.status(204);
        }, DatasetAccess.DATASETS);
        routes.get("/v1/datasets/{id}/tags", this::datasetTags, DatasetAccess.DATASETS);
    }

    private void rename(Context ctx) {
        JsonNode body = object(ctx);
        json(ctx, 200, CountedTagBody.of(tags.rename(required(body, "tag_id"), name(body))));
    }

    /** {@code {"tag_ids": [...], "target_id"}}: every tag bound to the dataset, or none when one is unknown. */
    private void bind(Context ctx) {
        JsonNode body = object(ctx);
        JsonNode ids = body.path("tag_ids");
        if (!ids.isMissingNode() && !ids.isNull() && !ids.isArray()) {
            throw HttpRefusal.invalid("tag_ids must be a list of tag ids.");
        }
        List<String> tagIds = new ArrayList<>();
        ids.forEach(id -> tagIds.add(id.asText()));
        tags.bind(tagIds, required(body, "target_id"));
        ctx.status(204);
    }

    private void datasetTags(Context ctx) {
        List<KnowledgeTag> bound = tags.tagsOf(ctx.pathParam("id"));
        json(ctx, 200, new DatasetTags(bound.stream().map(t -> new NamedTag(t.id(), t.name())).toList(),
                bound.size()));
    }

    private static String name(JsonNode body) {
        String name = text(body, "name").orElse("");
        if (name.isBlank() || name.length() > KnowledgeTag.MAX_NAME) {
            throw HttpRefusal.invalid("Tag name must be between 1 to " + KnowledgeTag.MAX_NAME + " characters.");
        }
        return name;
    }

    private static String required(JsonNode body, String field) {
        return text(body, field).filter(v -> !v.isBlank())
                .orElseThrow(() -> HttpRefusal.invalid(field + " is required."));
    }
}
