package dev.hexaflow.application.knowledge.port.in;

import dev.hexaflow.domain.knowledge.IndexingTechnique;
import dev.hexaflow.domain.knowledge.KeywordAnalyzer;
import dev.hexaflow.domain.knowledge.RetrievalSettings;
import java.util.Optional;

/**
 * A new base: its id (Dify's dataset id, to serve an imported app's {@code dataset_ids}) or none for a new one, its
 * name and description, whether it should be searched by meaning, how it is searched, and how its keyword search
 * reads words.
 */
public record CreateKnowledgeBaseCommand(Optional<String> id, String name, String description,
        IndexingTechnique technique, Optional<RetrievalSettings> retrieval, KeywordAnalyzer analyzer) {

    public CreateKnowledgeBaseCommand {
        id = id == null ? Optional.empty() : id.filter(i -> !i.isBlank());
        technique = technique == null ? IndexingTechnique.HIGH_QUALITY : technique;
        retrieval = retrieval == null ? Optional.empty() : retrieval;
        analyzer = analyzer == null ? KeywordAnalyzer.AUTO : analyzer;
    }

    /** A base whose keyword search reads words by their script ({@link KeywordAnalyzer#AUTO}). */
    public CreateKnowledgeBaseCommand(Optional<String> id, String name, String description,
            IndexingTechnique technique, Optional<RetrievalSettings> retrieval) {
        this(id, name, description, technique, retrieval, KeywordAnalyzer.AUTO);
    }

    public static CreateKnowledgeBaseCommand named(String name) {
        return new CreateKnowledgeBaseCommand(Optional.empty(), name, "", IndexingTechnique.HIGH_QUALITY,
                Optional.empty());
    }
}
