package dev.hexaflow.application.knowledge.port.in;

import dev.hexaflow.domain.knowledge.IndexingTechnique;
import dev.hexaflow.domain.knowledge.RetrievalSettings;
import java.util.Optional;

/**
 * A new base: its id (Dify's dataset id, to serve an imported app's {@code dataset_ids}) or none for a new one, its
 * name and description, whether it should be searched by meaning, and how it is searched.
 */
public record CreateKnowledgeBaseCommand(Optional<String> id, String name, String description,
        IndexingTechnique technique, Optional<RetrievalSettings> retrieval) {

    public CreateKnowledgeBaseCommand {
        id = id == null ? Optional.empty() : id.filter(i -> !i.isBlank());
        technique = technique == null ? IndexingTechnique.HIGH_QUALITY : technique;
        retrieval = retrieval == null ? Optional.empty() : retrieval;
    }

    public static CreateKnowledgeBaseCommand named(String name) {
        return new CreateKnowledgeBaseCommand(Optional.empty(), name, "", IndexingTechnique.HIGH_QUALITY,
                Optional.empty());
    }
}
