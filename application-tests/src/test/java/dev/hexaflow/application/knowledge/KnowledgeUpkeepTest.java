package dev.hexaflow.application.knowledge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.adapters.persistence.lucene.LuceneKnowledgeIndex;
import dev.hexaflow.application.knowledge.port.in.CloseInterruptedIndexingUseCase;
import dev.hexaflow.application.knowledge.port.in.RetrieveKnowledgeQuery;
import dev.hexaflow.application.knowledge.service.CloseInterruptedIndexingService;
import dev.hexaflow.application.knowledge.service.RebuildKnowledgeIndexService;
import dev.hexaflow.application.knowledge.service.RetrieveKnowledgeService;
import dev.hexaflow.domain.knowledge.DocumentStatus;
import dev.hexaflow.domain.knowledge.IndexingTechnique;
import dev.hexaflow.domain.knowledge.KnowledgeDocument;
import dev.hexaflow.domain.knowledge.RetrievalSettings;
import dev.hexaflow.domain.knowledge.SearchMethod;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What a start does for knowledge: rebuilding a lost index from the kept chunks, and ending the indexing a stop
 * left unfinished; on the in-memory repository and Lucene's in-memory index.
 */
class KnowledgeUpkeepTest {

    private final KnowledgeBed bed = new KnowledgeBed();
    /** An index that lost everything, as after its directory was deleted. */
    private final LuceneKnowledgeIndex lost = LuceneKnowledgeIndex.inMemory();

    KnowledgeUpkeepTest() {
        bed.base("kb", IndexingTechnique.ECONOMY);
        bed.add("kb", "handbook", "Holidays: booked in the portal.\n\nExpenses: refunded monthly.");
    }

    @AfterEach
    void close() {
        lost.close();
        bed.close();
    }

    /** An index held in memory was found on no disk, so the first start rebuilds it; it is in step from then on. */
    @Test
    void aRebuiltIndexHoldsEachChunkOnceAndIsLeftAloneAfterwards() {
        RebuildKnowledgeIndexService rebuild = new RebuildKnowledgeIndexService(bed.repository, bed.index);

        assertThat(rebuild.rebuildIfStale()).isTrue();
        assertThat(rebuild.rebuildIfStale()).isFalse();

        assertThat(bed.found("kb", "holidays")).containsExactly("Holidays: booked in the portal.");
    }

    @Test
    void aLostIndexIsRebuiltFromTheKeptChunksOnceAndSearchesFindThemAgain() {
        RebuildKnowledgeIndexService rebuild = new RebuildKnowledgeIndexService(bed.repository, lost);
        RetrieveKnowledgeService search = new RetrieveKnowledgeService(bed.repository, lost, bed.embeddings,
                bed.models.reranker);
        RetrieveKnowledgeQuery expenses = RetrieveKnowledgeQuery.of("kb", "expenses", new RetrievalSettings(
                SearchMethod.KEYWORD_SEARCH, 10, Optional.empty(), 0.7, 0.3));

        assertThat(search.retrieve(expenses)).isEmpty();
        assertThat(rebuild.rebuildIfStale()).isTrue();
        assertThat(rebuild.rebuildIfStale()).isFalse();

        assertThat(search.retrieve(expenses)).extracting(hit -> hit.chunk().content())
                .containsExactly("Expenses: refunded monthly.");
    }

    @Test
    void aDocumentLeftIndexingEndsInErrorWithTheReasonWhileCompletedOnesStay() {
        KnowledgeDocument interrupted = new KnowledgeDocument("doc-left", "kb", "left", "text", 3, "hash-left",
                DocumentStatus.INDEXING, Optional.empty(), true, Map.of(), bed.clock.instant());
        bed.repository.saveDocument(interrupted);
        CloseInterruptedIndexingService close = new CloseInterruptedIndexingService(bed.repository);

        int closed = close.closeInterrupted(CloseInterruptedIndexingUseCase.STOPPED);

        assertThat(closed).isEqualTo(1);
        KnowledgeDocument ended = bed.manage.document("doc-left").orElseThrow();
        assertThat(ended.status()).isEqualTo(DocumentStatus.ERROR);
        assertThat(ended.error()).contains(CloseInterruptedIndexingUseCase.STOPPED);
        assertThat(bed.manage.documents("kb")).filteredOn(d -> !d.id().equals("doc-left"))
                .extracting(KnowledgeDocument::status).containsOnly(DocumentStatus.COMPLETED);
        assertThat(close.closeInterrupted(CloseInterruptedIndexingUseCase.STOPPED)).isZero();
    }

    @Test
    void aDocumentEndedByACloseIsIndexedAgainByARetry() {
        bed.repository.saveDocument(new KnowledgeDocument("doc-left", "kb", "left", "text", 3, "hash-left",
                DocumentStatus.INDEXING, Optional.empty(), true, Map.of(), bed.clock.instant()));
        new CloseInterruptedIndexingService(bed.repository).closeInterrupted(CloseInterruptedIndexingUseCase.STOPPED);

        KnowledgeDocument retried = bed.documents.retry("doc-left");

        assertThat(retried.status()).isEqualTo(DocumentStatus.COMPLETED);
        assertThat(retried.error()).isEmpty();
    }
}
