package dev.hexaflow.application.knowledge.port.in;

import dev.hexaflow.domain.knowledge.KnowledgeBase;
import java.util.List;
import java.util.Optional;

/** Searches knowledge bases and answers the best chunks, best first. */
public interface RetrieveKnowledgeUseCase {

    /**
     * @throws KnowledgeException NOT_FOUND naming a base that does not exist; INVALID when the query's vector
     *     cannot be had (the embeddings endpoint failed)
     */
    List<RetrievedChunk> retrieve(RetrieveKnowledgeQuery query);

    /** Whether this id names a base (its own, or one bound to it), so that a workflow naming it can be told at import. */
    boolean exists(String baseId);

    /** The base with this id, for its name and description (what a model picks a base by). */
    Optional<KnowledgeBase> base(String baseId);
}
