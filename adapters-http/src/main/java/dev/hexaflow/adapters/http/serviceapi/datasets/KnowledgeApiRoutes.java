package dev.hexaflow.adapters.http.serviceapi.datasets;

import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.application.knowledge.port.in.AddDocumentUseCase;
import dev.hexaflow.application.knowledge.port.in.ChangeDocumentStatusUseCase;
import dev.hexaflow.application.knowledge.port.in.ManageDocumentsUseCase;
import dev.hexaflow.application.knowledge.port.in.ManageKnowledgeBasesUseCase;
import dev.hexaflow.application.knowledge.port.in.ManageKnowledgeTagsUseCase;
import dev.hexaflow.application.knowledge.port.in.ManageMetadataUseCase;
import dev.hexaflow.application.knowledge.port.in.RetrieveKnowledgeUseCase;
import io.javalin.config.RoutesConfig;
import java.util.List;

/**
 * Dify's Knowledge (datasets) Service API: datasets ({@link DatasetRoutes}), their documents by text or file
 * ({@link DocumentRoutes}) and their status ({@link DocumentStatusRoutes}), segments ({@link KnowledgeSegmentRoutes}), and retrieval ({@link RetrievalRoutes}), in
 * Dify's shapes ({@link KnowledgeBodies}), codes and messages, behind {@link DatasetKeyAuthentication}. Indexing is
 * done when a document call returns, so a batch's indexing status is final at once: {@code completed}, or
 * {@code error} with the reason. A batch is named by its document's id. A dataset id bound to a base
 * ({@code hexaflow knowledge bind}) names that base.
 */
public final class KnowledgeApiRoutes implements RouteGroup {

    /** In the order they are added: the order Javalin matches them in. */
    private final List<RouteGroup> groups;

    public KnowledgeApiRoutes(ManageKnowledgeBasesUseCase bases, AddDocumentUseCase add,
            ManageDocumentsUseCase documents, RetrieveKnowledgeUseCase retrieve, ManageKnowledgeTagsUseCase tags,
            ManageMetadataUseCase metadata, ChangeDocumentStatusUseCase status) {
        this.groups = List.of(new DatasetRoutes(bases, documents, tags),
                new DocumentRoutes(bases, add, documents, metadata), new KnowledgeSegmentRoutes(bases, documents),
                new RetrievalRoutes(bases, retrieve), new DocumentStatusRoutes(bases, status));
    }

    @Override
    public void addTo(RoutesConfig routes) {
        for (RouteGroup group : groups) {
            group.addTo(routes);
        }
    }
}
