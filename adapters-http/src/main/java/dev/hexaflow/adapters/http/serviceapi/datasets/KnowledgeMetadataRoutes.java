package dev.hexaflow.adapters.http.serviceapi.datasets;

import static dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeRequests.json;
import static dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeRequests.object;
import static dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeRequests.text;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.http.serviceapi.datasets.DatasetKeyAuthentication.DatasetAccess;
import dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeBodies.BuiltInFields;
import dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeBodies.MetadataFieldBody;
import dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeBodies.MetadataList;
import dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeBodies.Result;
import dev.hexaflow.adapters.http.support.HttpRefusal;
import dev.hexaflow.application.knowledge.port.in.ManageMetadataUseCase;
import dev.hexaflow.application.knowledge.port.in.SetDocumentMetadataCommand.DocumentValues;
import dev.hexaflow.application.knowledge.port.in.SetDocumentMetadataCommand.Value;
import dev.hexaflow.application.knowledge.port.in.SetDocumentMetadataCommand;
import dev.hexaflow.domain.knowledge.MetadataType;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.ArrayList;
import java.util.List;

/**
 * Dify's metadata routes on the Knowledge API: a dataset's metadata fields (create, list with their document counts,
 * rename, delete), its built-in fields (list, enable, disable), and its documents' values, set in one batch. Added
 * before {@link KnowledgeApiRoutes}, since {@code /documents/metadata} would otherwise be read as a document.
 */
public final class KnowledgeMetadataRoutes implements RouteGroup {

    private static final String METADATA = "/v1/datasets/{id}/metadata";

    private final ManageMetadataUseCase metadata;

    public KnowledgeMetadataRoutes(ManageMetadataUseCase metadata) {
        this.metadata = metadata;
    }

    @Override
    public void addTo(RoutesConfig routes) {
        routes.post(METADATA, this::create, DatasetAccess.DATASETS);
        routes.get(METADATA, ctx -> json(ctx, 200, MetadataList.of(metadata.fields(ctx.pathParam("id")))),
                DatasetAccess.DATASETS);
        routes.get(METADATA + "/built-in", ctx -> {
            metadata.fields(ctx.pathParam("id"));
            json(ctx, 200, BuiltInFields.ALL);
        }, DatasetAccess.DATASETS);
        routes.post(METADATA + "/built-in/{action}", this::builtIn, DatasetAccess.DATASETS);
        routes.patch(METADATA + "/{metadata}", ctx -> json(ctx, 200, MetadataFieldBody.of(metadata.rename(
                ctx.pathParam("id"), ctx.pathParam("metadata"), name(object(ctx))))), DatasetAccess.DATASETS);
        routes.delete(METADATA + "/{metadata}", ctx -> {
            metadata.delete(ctx.pathParam("id"), ctx.pathParam("metadata"));
            ctx.status(204);
        }, DatasetAccess.DATASETS);
        routes.post("/v1/datasets/{id}/documents/metadata", this::setValues, DatasetAccess.DATASETS);
    }

    /** {@code {"type": "string"|"number"|"time", "name"}}: 201 with the field. */
    private void create(Context ctx) {
        JsonNode body = object(ctx);
        String type = text(body, "type").orElse("");
        MetadataType known = MetadataType.fromWireName(type).orElseThrow(() ->
                HttpRefusal.invalid("type must be string, number or time."));
        json(ctx, 201, MetadataFieldBody.of(metadata.create(ctx.pathParam("id"), name(body), known)));
    }

    private void builtIn(Context ctx) {
        boolean enable = switch (ctx.pathParam("action")) {
            case "enable" -> true;
            case "disable" -> false;
            default -> throw HttpRefusal.invalid("action must be enable or disable.");
        };
        metadata.enableBuiltIn(ctx.pathParam("id"), enable);
        json(ctx, 200, Result.SUCCESS);
    }

    /** {@code {"operation_data": [{"document_id", "metadata_list": [{"id", "name", "value"}]}]}}. */
    private void setValues(Context ctx) {
        JsonNode operations = object(ctx).path("operation_data");
        if (!operations.isArray()) {
            throw HttpRefusal.invalid("operation_data must be a list.");
        }
        List<DocumentValues> all = new ArrayList<>();
        for (JsonNode operation : operations) {
            if (!operation.isObject()) {
                throw HttpRefusal.invalid("Each operation must be an object with document_id and metadata_list.");
            }
            String documentId = text(operation, "document_id").orElseThrow(() ->
                    HttpRefusal.invalid("document_id is required."));
            JsonNode list = operation.path("metadata_list");
            if (!list.isArray()) {
                throw HttpRefusal.invalid("metadata_list must be a list.");
            }
            List<Value> values = new ArrayList<>();
            for (JsonNode item : list) {
                if (!item.isObject()) {
                    throw HttpRefusal.invalid("Each metadata must be an object with id, name and value.");
                }
                JsonNode value = item.path("value");
                if (!value.isMissingNode() && !value.isNull() && !value.isValueNode()) {
                    throw HttpRefusal.invalid("value must be a string or a number.");
                }
                values.add(new Value(text(item, "id").orElseThrow(() -> HttpRefusal.invalid("id is required.")),
                        text(item, "name").orElseThrow(() -> HttpRefusal.invalid("name is required.")),
                        value.isMissingNode() || value.isNull() ? null : value.asText()));
            }
            all.add(new DocumentValues(documentId, values));
        }
        metadata.setDocumentMetadata(new SetDocumentMetadataCommand(ctx.pathParam("id"), all));
        json(ctx, 200, Result.SUCCESS);
    }

    private static String name(JsonNode body) {
        return text(body, "name").orElseThrow(() -> HttpRefusal.invalid("name is required."));
    }
}
