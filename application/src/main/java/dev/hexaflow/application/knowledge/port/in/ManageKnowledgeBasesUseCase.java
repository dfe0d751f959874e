package dev.hexaflow.application.knowledge.port.in;

import dev.hexaflow.domain.knowledge.KnowledgeBase;
import dev.hexaflow.domain.knowledge.RetrievalSettings;
import java.util.List;
import java.util.Optional;

/** Creates, lists, reads and deletes knowledge bases. */
public interface ManageKnowledgeBasesUseCase {

    /**
     * Creates a base: with the configured embedding model when asked for {@code high_quality} and one is configured,
     * keyword-only otherwise.
     *
     * @throws KnowledgeException CONFLICT when a base has the id, INVALID for a bad name
     */
    KnowledgeBase create(CreateKnowledgeBaseCommand command);

    /**
     * Renames the base, changes its description or how it is searched; what is empty is kept.
     *
     * @throws KnowledgeException NOT_FOUND for an unknown base, INVALID for a bad name or description
     */
    KnowledgeBase update(String id, Optional<String> name, Optional<String> description,
            Optional<RetrievalSettings> retrieval);

    List<KnowledgeBase> list();

    Optional<KnowledgeBase> find(String id);

    /** Deletes the base, its documents and chunks; gone from searches at once. */
    void delete(String id);
}
