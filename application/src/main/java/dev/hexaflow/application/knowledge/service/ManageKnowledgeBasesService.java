package dev.hexaflow.application.knowledge.service;

import dev.hexaflow.application.common.port.out.StorageHealth;
import dev.hexaflow.application.knowledge.port.in.CreateKnowledgeBaseCommand;
import dev.hexaflow.application.knowledge.port.in.KnowledgeException;
import dev.hexaflow.application.knowledge.port.in.ManageKnowledgeBasesUseCase;
import dev.hexaflow.application.knowledge.port.out.Embeddings;
import dev.hexaflow.application.knowledge.port.out.KnowledgeIndex;
import dev.hexaflow.application.knowledge.port.out.KnowledgeRepository;
import dev.hexaflow.domain.knowledge.IndexingTechnique;
import dev.hexaflow.domain.knowledge.KeywordAnalyzer;
import dev.hexaflow.domain.knowledge.KnowledgeBase;
import dev.hexaflow.domain.knowledge.RetrievalSettings;
import dev.hexaflow.domain.knowledge.SearchMethod;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/** Knowledge bases: a base searched by meaning takes the configured embedding model, or is keyword-only. */
public final class ManageKnowledgeBasesService implements ManageKnowledgeBasesUseCase {

    /** The longest base id, and so the longest id bound to one. */
    private static final int MAX_ID = 64;

    private final KnowledgeRepository repository;
    private final KnowledgeIndex index;
    private final Embeddings embeddings;
    private final Clock clock;
    private final Supplier<String> ids;
    private final StorageHealth storage;

    /** @param storage a new base is refused while the store takes no new work */
    public ManageKnowledgeBasesService(KnowledgeRepository repository, KnowledgeIndex index, Embeddings embeddings,
            Clock clock, Supplier<String> ids, StorageHealth storage) {
        this.storage = storage;
        this.repository = repository;
        this.index = index;
        this.embeddings = embeddings;
        this.clock = clock;
        this.ids = ids;
    }

    @Override
    public KnowledgeBase create(CreateKnowledgeBaseCommand command) {
        StorageRoom.require(storage);
        String id = command.id().orElseGet(ids);
        if (repository.findBase(id).isPresent()) {
            throw new KnowledgeException(KnowledgeException.Reason.CONFLICT, "A knowledge base with id " + id
                    + " exists already.");
        }
        // A base under a bound id would silently take the apps that id serves from the base it is bound to.
        if (repository.aliasTarget(id).isPresent()) {
            throw new KnowledgeException(KnowledgeException.Reason.CONFLICT, "The id " + id + " is bound to the "
                    + "knowledge base " + repository.aliasTarget(id).get() + "; unbind it first.");
        }
        Optional<String> model = command.technique() == IndexingTechnique.HIGH_QUALITY ? embeddings.model()
                : Optional.empty();
        RetrievalSettings retrieval = command.retrieval().orElseGet(() -> RetrievalSettings.defaults(
                model.isPresent() ? SearchMethod.SEMANTIC_SEARCH : SearchMethod.KEYWORD_SEARCH));
        KnowledgeBase base;
        try {
            base = new KnowledgeBase(id, command.name(), command.description(), model, retrieval, clock.instant(),
                    command.analyzer());
        } catch (IllegalArgumentException e) {
            throw new KnowledgeException(KnowledgeException.Reason.INVALID, e.getMessage());
        }
        repository.saveBase(base);
        return base;
    }

    @Override
    public KnowledgeBase update(String id, Optional<String> name, Optional<String> description,
            Optional<RetrievalSettings> retrieval, Optional<KeywordAnalyzer> analyzer) {
        KnowledgeBase base = repository.findBase(id).orElseThrow(() -> new KnowledgeException(
                KnowledgeException.Reason.NOT_FOUND, "Dataset not found."));
        KnowledgeBase updated;
        try {
            updated = new KnowledgeBase(id, name.orElse(base.name()), description.orElse(base.description()),
                    base.embeddingModel(), retrieval.orElse(base.retrieval()), base.created(),
                    analyzer.orElse(base.analyzer()));
        } catch (IllegalArgumentException e) {
            throw new KnowledgeException(KnowledgeException.Reason.INVALID, e.getMessage());
        }
        repository.saveBase(updated);
        return updated;
    }

    @Override
    public List<KnowledgeBase> list() {
        return repository.bases();
    }

    @Override
    public Optional<KnowledgeBase> find(String id) {
        return Aliases.resolve(repository, id);
    }

    @Override
    public void bind(String datasetId, String baseId) {
        if (datasetId == null || datasetId.isBlank() || datasetId.length() > MAX_ID) {
            throw new KnowledgeException(KnowledgeException.Reason.INVALID, "dataset_id must be 1 to " + MAX_ID
                    + " characters.");
        }
        KnowledgeBase base = repository.findBase(baseId).orElseThrow(() -> new KnowledgeException(
                KnowledgeException.Reason.NOT_FOUND, "Dataset not found."));
        if (repository.findBase(datasetId).isPresent()) {
            throw new KnowledgeException(KnowledgeException.Reason.CONFLICT, "A knowledge base has the id "
                    + datasetId + " as its own; it cannot be bound to another.");
        }
        repository.bindAlias(datasetId, base.id());
    }

    @Override
    public void unbind(String datasetId) {
        if (!repository.unbindAlias(datasetId)) {
            throw new KnowledgeException(KnowledgeException.Reason.NOT_FOUND, "The id " + datasetId
                    + " is bound to no knowledge base.");
        }
    }

    @Override
    public void delete(String id) {
        if (repository.findBase(id).isEmpty()) {
            throw new KnowledgeException(KnowledgeException.Reason.NOT_FOUND, "Dataset not found.");
        }
        repository.deleteBase(id);
        IndexChanges.afterDeletion("deleting dataset " + id, () -> index.removeBase(id));
    }
}
