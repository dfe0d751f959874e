package dev.hexaflow.application.knowledge.service;

import dev.hexaflow.application.knowledge.port.in.KnowledgeException;
import dev.hexaflow.application.knowledge.port.in.RerankRequest;
import dev.hexaflow.application.knowledge.port.in.RetrieveKnowledgeQuery;
import dev.hexaflow.application.knowledge.port.in.RetrieveKnowledgeUseCase;
import dev.hexaflow.application.knowledge.port.in.RetrievedChunk;
import dev.hexaflow.domain.knowledge.KnowledgeBase;
import dev.hexaflow.workflow.port.out.KnowledgeRetriever;
import java.util.List;
import java.util.Optional;

/**
 * The server's knowledge bases as the engine's knowledge-retrieval node sees them: the engine's search put to the
 * knowledge context's use case, so that neither knows the other.
 */
public final class KnowledgeBasesRetriever implements KnowledgeRetriever {

    private final RetrieveKnowledgeUseCase retrieve;

    public KnowledgeBasesRetriever(RetrieveKnowledgeUseCase retrieve) {
        this.retrieve = retrieve;
    }

    @Override
    public List<Hit> search(Search search) {
        RetrieveKnowledgeQuery query = new RetrieveKnowledgeQuery(search.baseIds(), search.query(), search.settings(),
                search.filter(), true, search.rerank().map(r -> new RerankRequest(r.provider(), r.model())));
        try {
            return retrieve.retrieve(query).stream().map(KnowledgeBasesRetriever::hit).toList();
        } catch (KnowledgeException e) {
            throw new RetrievalFailure(e.getMessage(), e);
        }
    }

    @Override
    public boolean exists(String baseId) {
        return retrieve.exists(baseId);
    }

    @Override
    public Optional<KnowledgeBase> base(String baseId) {
        return retrieve.base(baseId);
    }

    private static Hit hit(RetrievedChunk found) {
        return new Hit(found.base(), found.document(), found.chunk(), found.score(), found.children().stream()
                .map(child -> new ChildHit(child.child(), child.score())).toList());
    }
}
