package dev.hexaflow.adapters.http.serviceapi.datasets;

import static dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeRequests.json;
import static dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeRequests.object;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.http.serviceapi.datasets.DatasetKeyAuthentication.DatasetAccess;
import dev.hexaflow.adapters.http.support.HttpRefusal;
import dev.hexaflow.application.knowledge.port.in.ChangeDocumentStatusUseCase.ChangeDocumentStatusCommand;
import dev.hexaflow.application.knowledge.port.in.ChangeDocumentStatusUseCase;
import dev.hexaflow.application.knowledge.port.in.ManageKnowledgeBasesUseCase;
import dev.hexaflow.domain.knowledge.KnowledgeBase;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Dify's {@code PATCH /v1/datasets/{dataset_id}/documents/status/{action}} with {@code {"document_ids": [...]}}:
 * {@code enable}, {@code disable}, {@code archive} or {@code un_archive} many documents at once, answered
 * {@code {"result": "success"}}.
 */
final class DocumentStatusRoutes implements RouteGroup {

    private final ManageKnowledgeBasesUseCase bases;
    private final ChangeDocumentStatusUseCase status;

    DocumentStatusRoutes(ManageKnowledgeBasesUseCase bases, ChangeDocumentStatusUseCase status) {
        this.bases = bases;
        this.status = status;
    }

    @Override
    public void addTo(RoutesConfig routes) {
        routes.patch("/v1/datasets/{id}/documents/status/{action}", this::change, DatasetAccess.DATASETS);
    }

    private void change(Context ctx) {
        KnowledgeBase base = bases.find(ctx.pathParam("id")).orElseThrow(() ->
                HttpRefusal.notFound("Dataset not found."));
        status.change(new ChangeDocumentStatusCommand(base.id(), ctx.pathParam("action"), ids(object(ctx))));
        json(ctx, 200, Map.of("result", "success"));
    }

    /** The body's {@code document_ids}, none when it has none, as Dify reads them. */
    private static List<String> ids(JsonNode body) {
        JsonNode ids = body.path("document_ids");
        if (ids.isMissingNode() || ids.isNull()) {
            return List.of();
        }
        if (!ids.isArray()) {
            throw HttpRefusal.invalid("document_ids must be a list of document ids.");
        }
        List<String> read = new ArrayList<>();
        for (JsonNode id : ids) {
            if (!id.isTextual()) {
                throw HttpRefusal.invalid("document_ids must be a list of document ids.");
            }
            read.add(id.asText());
        }
        return read;
    }
}
