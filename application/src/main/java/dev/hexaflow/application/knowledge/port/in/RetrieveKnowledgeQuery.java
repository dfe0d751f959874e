package dev.hexaflow.application.knowledge.port.in;

import dev.hexaflow.domain.knowledge.MetadataFilter;
import dev.hexaflow.domain.knowledge.RetrievalSettings;
import java.util.List;
import java.util.Optional;

/**
 * A search of one or more bases: the query text, the settings (each base's own when empty), and the metadata
 * filter its documents must pass.
 *
 * @param eachBaseMethod whether each base is searched by its own method, with the top_k, threshold and weights of
 *     {@code settings} (the knowledge-retrieval node's multiple mode, as Dify runs it)
 */
public record RetrieveKnowledgeQuery(List<String> baseIds, String query, Optional<RetrievalSettings> settings,
        MetadataFilter filter, boolean eachBaseMethod) {

    public RetrieveKnowledgeQuery {
        if (baseIds == null || baseIds.isEmpty()) {
            throw new IllegalArgumentException("baseIds must name at least one base");
        }
        baseIds = List.copyOf(baseIds);
        if (query == null) {
            throw new IllegalArgumentException("query must not be null");
        }
        settings = settings == null ? Optional.empty() : settings;
        filter = filter == null ? MetadataFilter.NONE : filter;
    }

    public RetrieveKnowledgeQuery filtered(MetadataFilter other) {
        return new RetrieveKnowledgeQuery(baseIds, query, settings, other, eachBaseMethod);
    }

    public static RetrieveKnowledgeQuery of(String baseId, String query, RetrievalSettings settings) {
        return new RetrieveKnowledgeQuery(List.of(baseId), query, Optional.of(settings), MetadataFilter.NONE, false);
    }
}
