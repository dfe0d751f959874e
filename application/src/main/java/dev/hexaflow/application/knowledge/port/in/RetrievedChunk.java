package dev.hexaflow.application.knowledge.port.in;

import dev.hexaflow.domain.knowledge.ChildChunk;
import dev.hexaflow.domain.knowledge.Chunk;
import dev.hexaflow.domain.knowledge.KnowledgeBase;
import dev.hexaflow.domain.knowledge.KnowledgeDocument;
import java.util.List;

/**
 * A chunk a search found, with its base and document, and its score from 0 to 1. A parent chunk is found through its
 * children: {@code children} are those that matched, best first, and its score is the best of theirs.
 */
public record RetrievedChunk(KnowledgeBase base, KnowledgeDocument document, Chunk chunk, double score,
        List<ChildHit> children) {

    public RetrievedChunk {
        children = children == null ? List.of() : List.copyOf(children);
    }

    public RetrievedChunk(KnowledgeBase base, KnowledgeDocument document, Chunk chunk, double score) {
        this(base, document, chunk, score, List.of());
    }

    public RetrievedChunk withScore(double other) {
        return new RetrievedChunk(base, document, chunk, other, children);
    }

    /** A child chunk that matched, with its own score. */
    public record ChildHit(ChildChunk child, double score) {
    }
}
