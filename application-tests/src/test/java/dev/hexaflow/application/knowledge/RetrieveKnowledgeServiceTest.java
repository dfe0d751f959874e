package dev.hexaflow.application.knowledge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.persistence.lucene.LuceneKnowledgeIndex;
import dev.hexaflow.adapters.persistence.memory.InMemoryKnowledgeRepository;
import dev.hexaflow.application.MovableClock;
import dev.hexaflow.application.common.port.out.StorageHealth;
import dev.hexaflow.application.knowledge.port.in.AddDocumentCommand;
import dev.hexaflow.application.knowledge.port.in.CreateKnowledgeBaseCommand;
import dev.hexaflow.application.knowledge.port.in.KnowledgeException;
import dev.hexaflow.application.knowledge.port.in.RerankRequest;
import dev.hexaflow.application.knowledge.port.in.RetrieveKnowledgeQuery;
import dev.hexaflow.application.knowledge.port.in.RetrievedChunk;
import dev.hexaflow.application.knowledge.port.out.StoredChunk;
import dev.hexaflow.application.knowledge.service.AddDocumentService;
import dev.hexaflow.application.knowledge.service.ManageKnowledgeBasesService;
import dev.hexaflow.application.knowledge.service.RetrieveKnowledgeService;
import dev.hexaflow.domain.knowledge.IndexingTechnique;
import dev.hexaflow.domain.knowledge.KnowledgeDocument;
import dev.hexaflow.domain.knowledge.MetadataFilter;
import dev.hexaflow.domain.knowledge.RetrievalSettings;
import dev.hexaflow.domain.knowledge.SearchMethod;
import dev.hexaflow.domain.knowledge.SplittingRules;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Searching knowledge bases on the in-memory repository and the real Lucene index, held in memory. Bases and
 * documents are made through their own use cases; embeddings and the rerank model are fakes ({@link FakeModels}).
 */
class RetrieveKnowledgeServiceTest {

    static final String HANDBOOK = """
            Holidays: every employee has 25 days of paid leave a year, booked in the HR portal.

            Expenses: receipts are uploaded within 30 days; travel is refunded at economy fares.

            Security: laptops lock after 5 minutes, and passwords change every 90 days.
            """;

    private final InMemoryKnowledgeRepository repository = new InMemoryKnowledgeRepository();
    private final LuceneKnowledgeIndex index = LuceneKnowledgeIndex.inMemory();
    private final FakeModels models = new FakeModels();
    private final MovableClock clock = new MovableClock(Instant.parse("2026-03-01T10:00:00Z"));
    private final AtomicInteger ids = new AtomicInteger();
    private final ManageKnowledgeBasesService bases = new ManageKnowledgeBasesService(repository, index,
            models.embeddings, clock, () -> "id-" + ids.incrementAndGet(), StorageHealth.UNWATCHED);
    private final AddDocumentService documents = new AddDocumentService(repository, index, models.embeddings,
            (bytes, extension, mime) -> new String(bytes), clock, () -> "id-" + ids.incrementAndGet(),
            StorageHealth.UNWATCHED);
    private final RetrieveKnowledgeService retrieve = new RetrieveKnowledgeService(repository, index,
            models.embeddings, models.reranker);

    @AfterEach
    void close() {
        index.close();
    }

    private void base(String id, IndexingTechnique technique) {
        bases.create(new CreateKnowledgeBaseCommand(Optional.of(id), "Base " + id, "", technique, Optional.empty()));
    }

    private KnowledgeDocument add(String baseId, String name, String text, Map<String, String> metadata) {
        return documents.add(AddDocumentCommand.text(baseId, name, text)
                .withRules(SplittingRules.custom("\\n\\n", 500, 0, true, false)).withMetadata(metadata));
    }

    private List<RetrievedChunk> search(String baseId, String query, SearchMethod method, int topK,
            Double threshold) {
        return retrieve.retrieve(RetrieveKnowledgeQuery.of(baseId, query, new RetrievalSettings(method, topK,
                Optional.ofNullable(threshold), 0.7, 0.3)));
    }

    private static List<String> heads(List<RetrievedChunk> hits) {
        return hits.stream().map(hit -> hit.chunk().content().substring(0, hit.chunk().content().indexOf(':')))
                .toList();
    }

    private static List<String> reversed(List<String> list) {
        List<String> copy = new java.util.ArrayList<>(list);
        java.util.Collections.reverse(copy);
        return copy;
    }

    @Test
    void aWordsSearchAnswersTheBestChunkFirstScoredOneAndTopKCutsTheRest() {
        base("hr", IndexingTechnique.ECONOMY);
        add("hr", "handbook.md", HANDBOOK, Map.of());

        List<RetrievedChunk> all = search("hr", "paid leave days", SearchMethod.FULL_TEXT_SEARCH, 10, null);
        List<RetrievedChunk> two = search("hr", "paid leave days", SearchMethod.FULL_TEXT_SEARCH, 2, null);

        // "days" is in every paragraph; "paid leave" only in the first.
        assertThat(heads(all)).hasSize(3).startsWith("Holidays");
        assertThat(all.get(0).score()).isEqualTo(1.0);
        assertThat(all).extracting(RetrievedChunk::score).isSortedAccordingTo((a, b) -> Double.compare(b, a));
        assertThat(all.get(1).score()).isBetween(0.0, 0.99);
        assertThat(two).extracting(hit -> hit.chunk().id())
                .containsExactly(all.get(0).chunk().id(), all.get(1).chunk().id());
        assertThat(models.embedded).as("a words-only base is never embedded").isZero();
    }

    @Test
    void theScoreThresholdDropsWhatScoresBelowItAndAnswersAreCountedAsHits() {
        base("hr", IndexingTechnique.ECONOMY);
        KnowledgeDocument handbook = add("hr", "handbook.md", HANDBOOK, Map.of());

        List<RetrievedChunk> kept = search("hr", "paid leave days", SearchMethod.KEYWORD_SEARCH, 10, 0.99);

        assertThat(heads(kept)).containsExactly("Holidays");
        assertThat(repository.chunks(handbook.id())).extracting(StoredChunk::chunk)
                .extracting(chunk -> chunk.content().substring(0, 8) + "=" + chunk.hitCount())
                .containsExactly("Holidays=1", "Expenses=0", "Security=0");
        assertThat(search("hr", "   ", SearchMethod.KEYWORD_SEARCH, 10, null)).isEmpty();
    }

    @Test
    void anUnknownDatasetIsRefusedEvenBesideAKnownOne() {
        base("hr", IndexingTechnique.ECONOMY);
        add("hr", "handbook.md", HANDBOOK, Map.of());
        RetrieveKnowledgeQuery both = new RetrieveKnowledgeQuery(List.of("hr", "nope"), "days", Optional.empty(),
                MetadataFilter.NONE, false);

        assertThatThrownBy(() -> retrieve.retrieve(both)).isInstanceOfSatisfying(KnowledgeException.class, e -> {
            assertThat(e.reason()).isEqualTo(KnowledgeException.Reason.NOT_FOUND);
            assertThat(e.getMessage()).isEqualTo("Dataset not found: nope");
        });
        assertThat(retrieve.exists("nope")).isFalse();
        assertThat(repository.chunks(repository.documents("hr").get(0).id()))
                .allSatisfy(stored -> assertThat(stored.chunk().hitCount()).isZero());
    }

    @Test
    void anIdBoundToABaseSearchesItAndTwoIdsOfOneBaseSearchItOnce() {
        base("hr", IndexingTechnique.ECONOMY);
        add("hr", "handbook.md", HANDBOOK, Map.of());
        repository.bindAlias("dify-dataset", "hr");

        List<RetrievedChunk> hits = retrieve.retrieve(new RetrieveKnowledgeQuery(List.of("hr", "dify-dataset"),
                "days", Optional.of(RetrievalSettings.defaults(SearchMethod.KEYWORD_SEARCH)), MetadataFilter.NONE,
                false));

        assertThat(retrieve.exists("dify-dataset")).isTrue();
        assertThat(retrieve.base("dify-dataset")).hasValueSatisfying(b -> assertThat(b.id()).isEqualTo("hr"));
        assertThat(hits).hasSize(3).extracting(hit -> hit.chunk().id()).doesNotHaveDuplicates();
    }

    @Test
    void aMeaningSearchScoresByCosineAndEmbedsTheQueryOnce() {
        base("hr", IndexingTechnique.HIGH_QUALITY);
        add("hr", "handbook.md", HANDBOOK, Map.of());
        int afterIndexing = models.embedded;

        List<RetrievedChunk> hits = search("hr", "laptops passwords security", SearchMethod.SEMANTIC_SEARCH, 3,
                null);

        assertThat(repository.findBase("hr").orElseThrow().retrieval().method())
                .isEqualTo(SearchMethod.SEMANTIC_SEARCH);
        assertThat(heads(hits)).first().isEqualTo("Security");
        assertThat(hits.get(0).score()).isBetween(0.3, 1.0);
        assertThat(hits.get(0).score()).isGreaterThan(hits.get(1).score());
        assertThat(models.embedded - afterIndexing).isEqualTo(1);
    }

    @Test
    void aMetadataFilterSearchesOnlyTheDocumentsItKeeps() {
        base("hr", IndexingTechnique.ECONOMY);
        add("hr", "handbook.md", HANDBOOK, Map.of("team", "hr"));
        add("hr", "it.md", "Laptops: every laptop has 90 days of warranty.", Map.of("team", "it"));
        MetadataFilter itOnly = MetadataFilter.of("and", List.of(new MetadataFilter.Condition("team",
                MetadataFilter.Operator.IS, "it")));

        List<RetrievedChunk> unfiltered = search("hr", "days", SearchMethod.KEYWORD_SEARCH, 10, null);
        List<RetrievedChunk> filtered = retrieve.retrieve(RetrieveKnowledgeQuery.of("hr", "days",
                RetrievalSettings.defaults(SearchMethod.KEYWORD_SEARCH)).filtered(itOnly));

        assertThat(unfiltered).hasSize(4);
        assertThat(filtered).extracting(hit -> hit.document().name()).containsExactly("it.md");
    }

    @Test
    void aRerankModelRescoresTheHitsAndWithoutOneOrWhenItFailsTheSearchScoresStand() {
        base("hr", IndexingTechnique.ECONOMY);
        add("hr", "handbook.md", HANDBOOK, Map.of());
        RetrieveKnowledgeQuery asked = RetrieveKnowledgeQuery.of("hr", "paid leave days",
                RetrievalSettings.defaults(SearchMethod.KEYWORD_SEARCH)).reranked(new RerankRequest("jina", "r1"));
        List<RetrievedChunk> searched = search("hr", "paid leave days", SearchMethod.KEYWORD_SEARCH, 4, null);

        List<RetrievedChunk> unconfigured = retrieve.retrieve(asked);
        models.rerankModel = Optional.of("r1");
        List<RetrievedChunk> reranked = retrieve.retrieve(asked);
        models.rerankFails = true;
        List<RetrievedChunk> failed = retrieve.retrieve(asked);

        assertThat(unconfigured).extracting(RetrievedChunk::score)
                .containsExactlyElementsOf(searched.stream().map(RetrievedChunk::score).toList());
        // The fake ranks the texts in reverse of the order it got them, best last.
        assertThat(heads(reranked)).containsExactlyElementsOf(reversed(heads(searched)));
        assertThat(reranked).extracting(RetrievedChunk::score).containsExactly(0.9, 0.8, 0.7);
        assertThat(models.reranked).containsExactly("paid leave days", "paid leave days");
        assertThat(heads(failed)).containsExactlyElementsOf(heads(searched));
    }
}
