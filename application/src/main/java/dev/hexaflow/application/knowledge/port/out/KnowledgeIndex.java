package dev.hexaflow.application.knowledge.port.out;

import dev.hexaflow.domain.knowledge.KeywordAnalyzer;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * Searches the chunks of knowledge bases by their words (BM25) and by their vectors (nearest neighbours). It holds
 * only what the repository holds and can be rebuilt from it; a change is searchable as soon as the call returns.
 */
public interface KnowledgeIndex {

    /** A chunk found, with its score: raw BM25 for words, cosine similarity (-1..1) for vectors. */
    record Hit(String chunkId, String documentId, double score) {
    }

    /** Adds these chunks (replacing any with the same id). */
    void add(Collection<StoredChunk> chunks);

    /** Removes one chunk (or child chunk) of the document. */
    void remove(String documentId, String chunkId);

    void removeDocument(String documentId);

    void removeBase(String baseId);

    /**
     * The chunks of the base whose words best match the query's, best first, both read by {@code analyzer}.
     *
     * @param documentIds the documents searched, or null for all of the base's
     */
    List<Hit> byWords(String baseId, KeywordAnalyzer analyzer, String query, Set<String> documentIds, int limit);

    /** The chunks of the base whose vectors are nearest to {@code vector}, best first. */
    List<Hit> byVector(String baseId, float[] vector, Set<String> documentIds, int limit);

    /** Whether it differs from the repository (missing, or holding another number of chunks than {@code kept}). */
    boolean isStale(long kept);

    /** Empties the index and fills it from the repository. */
    void rebuild(KnowledgeRepository repository);

    /**
     * Replaces what the index holds of one document with what the repository holds searchable of it, in one
     * change: a search finds the document as it was or as it is, never half of it.
     */
    void rebuildDocument(String documentId, KnowledgeRepository repository);
}
