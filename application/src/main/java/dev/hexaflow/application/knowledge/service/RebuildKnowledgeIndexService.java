package dev.hexaflow.application.knowledge.service;

import dev.hexaflow.application.knowledge.port.in.RebuildKnowledgeIndexUseCase;
import dev.hexaflow.application.knowledge.port.out.KnowledgeIndex;
import dev.hexaflow.application.knowledge.port.out.KnowledgeRepository;

/** Rebuilds the search index from the repository when the two differ, as at a start after the index was lost. */
public final class RebuildKnowledgeIndexService implements RebuildKnowledgeIndexUseCase {

    private final KnowledgeRepository repository;
    private final KnowledgeIndex index;

    public RebuildKnowledgeIndexService(KnowledgeRepository repository, KnowledgeIndex index) {
        this.repository = repository;
        this.index = index;
    }

    @Override
    public boolean rebuildIfStale() {
        if (!index.isStale(repository.countSearchableChunks())) {
            return false;
        }
        index.rebuild(repository);
        return true;
    }
}
