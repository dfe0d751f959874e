package dev.hexaflow.workflow.port.out;

import dev.hexaflow.domain.knowledge.ChildChunk;
import dev.hexaflow.domain.knowledge.Chunk;
import dev.hexaflow.domain.knowledge.KnowledgeBase;
import dev.hexaflow.domain.knowledge.KnowledgeDocument;
import dev.hexaflow.domain.knowledge.MetadataFilter;
import dev.hexaflow.domain.knowledge.RetrievalSettings;
import java.util.List;
import java.util.Optional;

/**
 * What the knowledge-retrieval node asks of knowledge bases. The engine owns this port, in its own words, so that it
 * needs nothing of the knowledge context: the server plugs its knowledge bases in, an embedder whatever it searches.
 */
public interface KnowledgeRetriever {

    /**
     * The best chunks of the bases for the search, best first, each base searched by its own method.
     *
     * @throws RetrievalFailure naming what went wrong (a base that is gone, an embeddings endpoint that failed)
     */
    List<Hit> search(Search search);

    /** Whether this id names a base the retriever can search. */
    boolean exists(String baseId);

    /** The base with this id, for its name and description (what a model picks a base by). */
    Optional<KnowledgeBase> base(String baseId);

    /** A search of one or more bases, as a node's settings make it. */
    record Search(List<String> baseIds, String query, Optional<RetrievalSettings> settings, MetadataFilter filter,
            Optional<Rerank> rerank) {

        public Search {
            baseIds = List.copyOf(baseIds);
            settings = settings == null ? Optional.empty() : settings;
            filter = filter == null ? MetadataFilter.NONE : filter;
            rerank = rerank == null ? Optional.empty() : rerank;
        }
    }

    /** The model that orders the hits of several bases, by its provider and name. */
    record Rerank(String provider, String model) {
    }

    /** A chunk found, with its base and document and its score from 0 to 1; a parent chunk with its children. */
    record Hit(KnowledgeBase base, KnowledgeDocument document, Chunk chunk, double score, List<ChildHit> children) {

        public Hit {
            children = children == null ? List.of() : List.copyOf(children);
        }
    }

    /** A child chunk that matched, with its own score. */
    record ChildHit(ChildChunk child, double score) {
    }

    /** A search that could not be made, with the sentence a run's node failure shows. */
    final class RetrievalFailure extends RuntimeException {

        public RetrievalFailure(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
