package dev.hexaflow.application.knowledge.port.in;

import dev.hexaflow.domain.knowledge.KeywordAnalyzer;
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
     * Renames the base, changes its description, how it is searched or how its keyword search reads words; what is
     * empty is kept. A new analyzer holds from the next search, with no re-indexing (the index holds every
     * analyzer's words).
     *
     * @throws KnowledgeException NOT_FOUND for an unknown base, INVALID for a bad name or description
     */
    KnowledgeBase update(String id, Optional<String> name, Optional<String> description,
            Optional<RetrievalSettings> retrieval, Optional<KeywordAnalyzer> analyzer);

    List<KnowledgeBase> list();

    /** The base with this id, or the one this id is bound to ({@link #bind}). */
    Optional<KnowledgeBase> find(String id);

    /**
     * Binds Dify's dataset id to an existing base (given by its id), so that apps whose {@code dataset_ids} name it,
     * and the Knowledge API, reach that base; binding a bound id again moves it.
     *
     * @throws KnowledgeException NOT_FOUND for an unknown base, CONFLICT when a base has the dataset id as its own,
     *     INVALID for an id blank or longer than 64 characters
     */
    void bind(String datasetId, String baseId);

    /** @throws KnowledgeException NOT_FOUND when the id is bound to no base */
    void unbind(String datasetId);

    /** Deletes the base, its documents and chunks; gone from searches at once. */
    void delete(String id);
}
