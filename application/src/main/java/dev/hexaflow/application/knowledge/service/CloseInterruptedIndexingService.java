package dev.hexaflow.application.knowledge.service;

import dev.hexaflow.application.knowledge.port.in.CloseInterruptedIndexingUseCase;
import dev.hexaflow.application.knowledge.port.out.KnowledgeRepository;
import dev.hexaflow.domain.knowledge.KnowledgeDocument;
import java.util.List;

/** Ends in the store the indexing nobody is doing any more, and logs each document it ends. */
public final class CloseInterruptedIndexingService implements CloseInterruptedIndexingUseCase {

    private static final System.Logger LOG = System.getLogger(CloseInterruptedIndexingService.class.getName());

    private final KnowledgeRepository repository;

    public CloseInterruptedIndexingService(KnowledgeRepository repository) {
        this.repository = repository;
    }

    @Override
    public int closeInterrupted(String reason) {
        return logged(repository.failInterruptedDocuments(reason, IndexingInFlight.now()));
    }

    @Override
    public int closeOfLapsedInstances(long leaseCutoff) {
        return logged(repository.failDocumentsOfLapsedInstances(INSTANCE_LAPSED, leaseCutoff));
    }

    private static int logged(List<KnowledgeDocument> ended) {
        for (KnowledgeDocument document : ended) {
            LOG.log(System.Logger.Level.WARNING, "Document " + document.id() + " (" + document.name() + ") of "
                    + "dataset " + document.baseId() + " ends in error: " + document.error().orElse(""));
        }
        return ended.size();
    }
}
