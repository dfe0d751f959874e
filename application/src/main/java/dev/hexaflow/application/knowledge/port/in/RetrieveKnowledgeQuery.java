package dev.hexaflow.application.knowledge.port.in;

import dev.hexaflow.domain.knowledge.MetadataFilter;
import dev.hexaflow.domain.knowledge.RetrievalSettings;
import java.util.List;
import java.util.Optional;

/**
 * A search of one or more bases: the query text, the settings (each base's own when empty), the metadata filter its
 * documents must pass, and whether a rerank model should order the hits.
 *
 * @param eachBaseMethod whether each base is searched by its own method, with the top_k, threshold and weights of
 *     {@code settings} (the knowledge-retrieval node's multiple mode, as Dify runs it)
 * @param rerank the rerank model asked for; empty to keep the search's own scores
 */
public record RetrieveKnowledgeQuery(List<String> baseIds, String query, Optional<RetrievalSettings> settings,
        MetadataFilter filter, boolean eachBaseMethod, Optional<RerankRequest> rerank) {

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
        rerank = rerank == null ? Optional.empty() : rerank;
    }

    public RetrieveKnowledgeQuery(List<String> baseIds, String query, Optional<RetrievalSettings> settings,
            MetadataFilter filter, boolean eachBaseMethod) {
        this(baseIds, query, settings, filter, eachBaseMethod, Optional.empty());
    }

    public RetrieveKnowledgeQuery filtered(MetadataFilter other) {
        return new RetrieveKnowledgeQuery(baseIds, query, settings, other, eachBaseMethod, rerank);
    }

    public RetrieveKnowledgeQuery reranked(RerankRequest request) {
        return new RetrieveKnowledgeQuery(baseIds, query, settings, filter, eachBaseMethod, Optional.of(request));
    }

    public static RetrieveKnowledgeQuery of(String baseId, String query, RetrievalSettings settings) {
        return new RetrieveKnowledgeQuery(List.of(baseId), query, Optional.of(settings), MetadataFilter.NONE, false);
    }
}
