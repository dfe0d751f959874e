package dev.hexaflow.application.knowledge.port.in;

import java.util.List;

/** Searches knowledge bases and answers the best chunks, best first. */
public interface RetrieveKnowledgeUseCase {

    /**
     * @throws KnowledgeException NOT_FOUND naming a base that does not exist; INVALID when the query's vector
     *     cannot be had (the embeddings endpoint failed)
     */
    List<RetrievedChunk> retrieve(RetrieveKnowledgeQuery query);

    /** Whether a base with this id exists, so that a workflow naming it can be told at import. */
    boolean exists(String baseId);
}
