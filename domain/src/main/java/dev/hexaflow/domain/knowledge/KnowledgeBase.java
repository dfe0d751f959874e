package dev.hexaflow.domain.knowledge;

import java.time.Instant;
import java.util.Optional;

/**
 * A knowledge base (Dify's dataset): documents split into chunks, searched by words, and by meaning when it has an
 * embedding model. Without one it is keyword-only, whatever was asked, and says so ({@link #keywordOnly()}).
 *
 * @param id Dify's dataset id when the base serves an imported app's {@code dataset_ids}, or one of Hexaflow's
 * @param embeddingModel the model its chunk vectors come from; empty for a keyword-only base
 * @param analyzer how its keyword search reads words
 */
public record KnowledgeBase(String id, String name, String description, Optional<String> embeddingModel,
        RetrievalSettings retrieval, Instant created, KeywordAnalyzer analyzer) {

    public static final int MAX_NAME = 40;
    public static final int MAX_DESCRIPTION = 400;

    public KnowledgeBase {
        if (id == null || id.isBlank() || id.length() > 64) {
            throw new IllegalArgumentException("id must be 1 to 64 characters");
        }
        if (name == null || name.isBlank() || name.length() > MAX_NAME) {
            throw new IllegalArgumentException("name must be 1 to " + MAX_NAME + " characters");
        }
        description = description == null ? "" : description;
        if (description.length() > MAX_DESCRIPTION) {
            throw new IllegalArgumentException("description must be at most " + MAX_DESCRIPTION + " characters");
        }
        embeddingModel = embeddingModel == null ? Optional.empty() : embeddingModel.filter(m -> !m.isBlank());
        if (retrieval == null || created == null) {
            throw new IllegalArgumentException("retrieval and created must not be null");
        }
        if (embeddingModel.isEmpty() && retrieval.method().needsVectors()) {
            retrieval = retrieval.withMethod(SearchMethod.KEYWORD_SEARCH);
        }
        analyzer = analyzer == null ? KeywordAnalyzer.AUTO : analyzer;
    }

    /** A base whose keyword search reads words by their script ({@link KeywordAnalyzer#AUTO}). */
    public KnowledgeBase(String id, String name, String description, Optional<String> embeddingModel,
            RetrievalSettings retrieval, Instant created) {
        this(id, name, description, embeddingModel, retrieval, created, KeywordAnalyzer.AUTO);
    }

    public boolean keywordOnly() {
        return embeddingModel.isEmpty();
    }

    public IndexingTechnique indexingTechnique() {
        return keywordOnly() ? IndexingTechnique.ECONOMY : IndexingTechnique.HIGH_QUALITY;
    }

    /**
     * The method a search of this base uses when {@code asked}: a keyword-only base answers a search by meaning with
     * its words, as Dify's economy datasets do.
     */
    public SearchMethod methodFor(SearchMethod asked) {
        return keywordOnly() && asked.needsVectors() ? SearchMethod.KEYWORD_SEARCH : asked;
    }
}
