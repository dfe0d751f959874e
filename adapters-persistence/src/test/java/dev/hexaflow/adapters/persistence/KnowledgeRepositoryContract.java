package dev.hexaflow.adapters.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.application.knowledge.port.out.KnowledgeRepository;
import dev.hexaflow.application.knowledge.port.out.StoredChildChunk;
import dev.hexaflow.application.knowledge.port.out.StoredChunk;
import dev.hexaflow.domain.knowledge.ChildChunk;
import dev.hexaflow.domain.knowledge.Chunk;
import dev.hexaflow.domain.knowledge.DocumentStatus;
import dev.hexaflow.domain.knowledge.KeywordAnalyzer;
import dev.hexaflow.domain.knowledge.KnowledgeBase;
import dev.hexaflow.domain.knowledge.KnowledgeDocument;
import dev.hexaflow.domain.knowledge.KnowledgeTag;
import dev.hexaflow.domain.knowledge.MetadataField;
import dev.hexaflow.domain.knowledge.MetadataType;
import dev.hexaflow.domain.knowledge.RetrievalSettings;
import dev.hexaflow.domain.knowledge.SearchMethod;
import dev.hexaflow.domain.knowledge.TextMeasure;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What every KnowledgeRepository promises. */
abstract class KnowledgeRepositoryContract {

    protected abstract KnowledgeRepository repository();

    static KnowledgeBase base(String id, Instant created) {
        return new KnowledgeBase(id, "Base " + id, "about " + id, Optional.of("embed-1"), new RetrievalSettings(
                SearchMethod.HYBRID_SEARCH, 5, Optional.of(0.25), 0.6, 0.4), created);
    }

    static KnowledgeDocument document(String id, String baseId, String hash, DocumentStatus status) {
        return new KnowledgeDocument(id, baseId, "doc " + id, "text", 12, hash, status,
                status == DocumentStatus.ERROR ? Optional.of("embeddings answered 500") : Optional.empty(), true,
                Map.of("team", "hr"), Instant.parse("2026-11-01T10:00:00Z"));
    }

    static StoredChunk chunk(String id, String documentId, int position, float[] vector) {
        String text = "chunk " + id + " text";
        return StoredChunk.of(new Chunk(id, documentId, "b1", position, text, text.length(), 3, List.of("k"),
                TextMeasure.hash(text), 0, true), vector);
    }

    @Test
    void aBaseIsKeptWholeWithItsRetrievalSettingsAndListedNewestFirst() {
        repository().saveBase(base("b1", Instant.parse("2026-11-01T10:00:00Z")));
        repository().saveBase(base("b2", Instant.parse("2026-11-02T10:00:00Z")));

        assertThat(repository().findBase("b1")).contains(base("b1", Instant.parse("2026-11-01T10:00:00Z")));
        assertThat(repository().bases()).extracting(KnowledgeBase::id).containsExactly("b2", "b1");
        assertThat(repository().findBase("b3")).isEmpty();
    }

    @Test
    void aBaseKeepsItsKeywordAnalyzerAndAChangeOfIt() {
        KnowledgeBase english = new KnowledgeBase("b1", "Base", "", Optional.empty(), new RetrievalSettings(
                SearchMethod.KEYWORD_SEARCH, 3, Optional.empty(), 0.5, 0.5), Instant.EPOCH, KeywordAnalyzer.ENGLISH);
        repository().saveBase(english);
        assertThat(repository().findBase("b1")).contains(english);
        assertThat(repository().findBase("b1").orElseThrow().analyzer()).isEqualTo(KeywordAnalyzer.ENGLISH);

        KnowledgeBase cjk = new KnowledgeBase("b1", "Base", "", Optional.empty(), english.retrieval(), Instant.EPOCH,
                KeywordAnalyzer.CJK);
        repository().saveBase(cjk);
        assertThat(repository().bases()).extracting(KnowledgeBase::analyzer).containsExactly(KeywordAnalyzer.CJK);
    }

    @Test
    void anIdBoundToABaseNamesItUntilUnboundRebindsAndIsUnboundWithTheBase() {
        repository().saveBase(base("b1", Instant.EPOCH));
        repository().saveBase(base("b2", Instant.EPOCH));

        repository().bindAlias("dify-1", "b1");
        assertThat(repository().aliasTarget("dify-1")).contains("b1");
        repository().bindAlias("dify-1", "b2");
        assertThat(repository().aliasTarget("dify-1")).contains("b2");
        assertThat(repository().unbindAlias("dify-1")).isTrue();
        assertThat(repository().unbindAlias("dify-1")).isFalse();
        assertThat(repository().aliasTarget("dify-1")).isEmpty();

        repository().bindAlias("dify-2", "b2");
        repository().deleteBase("b2");
        assertThat(repository().aliasTarget("dify-2")).isEmpty();
    }

    @Test
    void tagsAreKeptBoundCountedAndGoWithTheirBaseOrTheirDeletion() {
        repository().saveBase(base("b1", Instant.EPOCH));
        repository().saveBase(base("b2", Instant.EPOCH));
        KnowledgeTag hr = new KnowledgeTag("t1", "hr", Instant.parse("2026-11-01T10:00:00Z"));
        KnowledgeTag legal = new KnowledgeTag("t2", "legal", Instant.parse("2026-11-02T10:00:00Z"));
        repository().saveTag(legal);
        repository().saveTag(hr);
        repository().saveTag(hr.renamed("people"));

        repository().bindTag("t1", "b1");
        repository().bindTag("t1", "b1");
        repository().bindTag("t1", "b2");
        repository().bindTag("t2", "b1");

        assertThat(repository().tags()).containsExactly(hr.renamed("people"), legal);
        assertThat(repository().findTag("t1")).contains(hr.renamed("people"));
        assertThat(repository().tagsOf("b1")).extracting(KnowledgeTag::id).containsExactly("t1", "t2");
        assertThat(repository().tagBindings("t1")).isEqualTo(2);
        repository().unbindTag("t1", "b2");
        assertThat(repository().tagBindings("t1")).isEqualTo(1);
        repository().deleteBase("b1");
        assertThat(repository().tagBindings("t1")).isZero();
        repository().bindTag("t2", "b2");
        repository().deleteTag("t2");
        assertThat(repository().findTag("t2")).isEmpty();
        assertThat(repository().tagsOf("b2")).isEmpty();
    }

    @Test
    void aDocumentIsFoundByIdAndByItsContentHashInItsBaseOnly() {
        repository().saveBase(base("b1", Instant.EPOCH));
        repository().saveBase(base("b2", Instant.EPOCH));
        KnowledgeDocument failed = document("d1", "b1", "h1", DocumentStatus.ERROR);
        repository().saveDocument(failed);

        assertThat(repository().findDocument("d1")).contains(failed);
        assertThat(repository().findDocumentByHash("b1", "h1")).contains(failed);
        assertThat(repository().findDocumentByHash("b2", "h1")).isEmpty();
        assertThat(repository().documents("b1")).containsExactly(failed);
    }

    @Test
    void documentsLeftIndexingEndErrorWithTheReasonOnceButThoseSparedAndTheOthersStay() {
        repository().saveBase(base("b1", Instant.EPOCH));
        repository().saveDocument(document("cut", "b1", "h1", DocumentStatus.INDEXING));
        repository().saveDocument(document("going", "b1", "h2", DocumentStatus.INDEXING));
        repository().saveDocument(document("done", "b1", "h3", DocumentStatus.COMPLETED));

        List<KnowledgeDocument> ended = repository().failInterruptedDocuments("the server stopped", Set.of("going"));

        assertThat(ended).extracting(KnowledgeDocument::id).containsExactly("cut");
        assertThat(repository().findDocument("cut")).hasValueSatisfying(d -> {
            assertThat(d.status()).isEqualTo(DocumentStatus.ERROR);
            assertThat(d.error()).contains("the server stopped");
        });
        assertThat(repository().findDocument("going").orElseThrow().status()).isEqualTo(DocumentStatus.INDEXING);
        assertThat(repository().findDocument("done").orElseThrow().status()).isEqualTo(DocumentStatus.COMPLETED);
        assertThat(repository().failInterruptedDocuments("again", Set.of("going"))).as("ended once").isEmpty();
    }

    @Test
    void chunksKeepTheirVectorsAndOnlySearchableOnesAreCountedAndListedForARebuild() {
        repository().saveBase(base("b1", Instant.EPOCH));
        repository().saveDocument(document("d1", "b1", "h1", DocumentStatus.COMPLETED));
        repository().saveDocument(document("d2", "b1", "h2", DocumentStatus.ERROR));
        repository().replaceChunks("d1", List.of(chunk("c1", "d1", 1, new float[] {1f, 0.5f}),
                chunk("c2", "d1", 2, null)));
        repository().replaceChunks("d2", List.of(chunk("c3", "d2", 1, null)));
        StoredChunk off = chunk("c2", "d1", 2, null);
        repository().saveChunk(new StoredChunk(off.chunk().withEnabled(false), off.vector()));

        StoredChunk first = repository().chunks("d1").get(0);
        assertThat(first.chunk()).isEqualTo(chunk("c1", "d1", 1, null).chunk());
        assertThat(first.vector()).hasValueSatisfying(v -> assertThat(v).containsExactly(1f, 0.5f));
        assertThat(repository().countSearchableChunks()).isEqualTo(1);
        List<String> rebuilt = new ArrayList<>();
        repository().forEachSearchableChunk(c -> rebuilt.add(c.id()));
        assertThat(rebuilt).containsExactly("c1");
        assertThat(repository().searchableChunks("d1")).extracting(StoredChunk::id).as("one document's")
                .containsExactly("c1");
        assertThat(repository().searchableChunks("d2")).as("a document not completed").isEmpty();
        assertThat(repository().searchableChunks("nope")).isEmpty();
    }

    @Test
    void hitsAreCountedAndChunksReplacedWhole() {
        repository().saveBase(base("b1", Instant.EPOCH));
        repository().saveDocument(document("d1", "b1", "h1", DocumentStatus.COMPLETED));
        repository().replaceChunks("d1", List.of(chunk("c1", "d1", 1, null), chunk("c2", "d1", 2, null)));

        repository().countHits(List.of("c1"));
        repository().countHits(List.of("c1", "c2"));

        assertThat(repository().findChunks(List.of("c1", "c2", "nope"))).extracting(c -> c.chunk().hitCount())
                .containsExactlyInAnyOrder(2L, 1L);
        repository().replaceChunks("d1", List.of(chunk("c9", "d1", 1, null)));
        assertThat(repository().chunks("d1")).extracting(StoredChunk::id).containsExactly("c9");
    }

    @Test
    void deletingABaseDeletesItsDocumentsAndTheirChunks() {
        repository().saveBase(base("b1", Instant.EPOCH));
        repository().saveDocument(document("d1", "b1", "h1", DocumentStatus.COMPLETED));
        repository().replaceChunks("d1", List.of(chunk("c1", "d1", 1, null)));

        repository().deleteBase("b1");

        assertThat(repository().findBase("b1")).isEmpty();
        assertThat(repository().findDocument("d1")).isEmpty();
        assertThat(repository().findChunks(List.of("c1"))).isEmpty();
        assertThat(repository().countSearchableChunks()).isZero();
    }

    @Test
    void metadataFieldsAreKeptOldestFirstWithTheDocumentsTheyChangeAndGoWithTheirBase() {
        repository().saveBase(base("b1", Instant.EPOCH));
        repository().saveBase(base("b2", Instant.EPOCH));
        repository().saveDocument(document("d1", "b1", "h1", DocumentStatus.COMPLETED));
        MetadataField audience = new MetadataField("m1", "b1", "audience", MetadataType.STRING,
                Instant.parse("2026-11-01T10:00:00Z"));
        MetadataField level = new MetadataField("m2", "b1", "level", MetadataType.NUMBER,
                Instant.parse("2026-11-02T10:00:00Z"));

        repository().saveMetadataField(level, List.of());
        repository().saveMetadataField(audience, List.of(repository().findDocument("d1").orElseThrow()
                .withMetadata(Map.of("audience", "staff"))));
        repository().saveMetadataField(new MetadataField("m3", "b2", "other", MetadataType.TIME, Instant.EPOCH),
                List.of());

        assertThat(repository().metadataFields("b1")).containsExactly(audience, level);
        assertThat(repository().findMetadataField("m2")).contains(level);
        assertThat(repository().findDocument("d1").orElseThrow().metadata()).isEqualTo(Map.of("audience", "staff"));

        repository().saveMetadataField(audience.renamed("team"), List.of());
        repository().deleteMetadataField("m2", List.of(repository().findDocument("d1").orElseThrow()
                .withMetadata(Map.of())));
        assertThat(repository().metadataFields("b1")).extracting(MetadataField::name).containsExactly("team");
        assertThat(repository().findDocument("d1").orElseThrow().metadata()).isEmpty();

        repository().deleteBase("b1");
        assertThat(repository().metadataFields("b1")).isEmpty();
        assertThat(repository().findMetadataField("m1")).isEmpty();
        assertThat(repository().metadataFields("b2")).hasSize(1);
    }

    @Test
    void builtInMetadataIsOffForANewBaseAndStaysAsSet() {
        repository().saveBase(base("b1", Instant.EPOCH));
        assertThat(repository().builtInMetadataEnabled("b1")).isFalse();

        repository().setBuiltInMetadataEnabled("b1", true);
        repository().saveBase(base("b1", Instant.EPOCH));
        assertThat(repository().builtInMetadataEnabled("b1")).as("saving the base again keeps it").isTrue();

        repository().setBuiltInMetadataEnabled("b1", false);
        assertThat(repository().builtInMetadataEnabled("b1")).isFalse();
    }

    @Test
    void documentsAreSavedTogether() {
        repository().saveBase(base("b1", Instant.EPOCH));
        repository().saveDocument(document("d1", "b1", "h1", DocumentStatus.COMPLETED));
        repository().saveDocument(document("d2", "b1", "h2", DocumentStatus.COMPLETED));

        repository().saveDocuments(List.of(repository().findDocument("d1").orElseThrow()
                .withMetadata(Map.of("team", "a")), repository().findDocument("d2").orElseThrow()
                .withMetadata(Map.of("team", "b"))));

        assertThat(repository().documents("b1")).extracting(d -> d.metadata().get("team")).containsExactly("a", "b");
    }

    static StoredChildChunk child(String id, String segmentId, int position, float[] vector) {
        return StoredChildChunk.of(new ChildChunk(id, segmentId, "d1", "b1", position, "child " + id), vector);
    }

    @Test
    void aChunkWithChildrenIsSearchedThroughThemAndReplacingTheChunksDropsThem() {
        repository().saveBase(base("b1", Instant.EPOCH));
        repository().saveDocument(document("d1", "b1", "h1", DocumentStatus.COMPLETED));
        repository().replaceChunks("d1", List.of(chunk("c1", "d1", 1, null), chunk("c2", "d1", 2, null)));

        repository().replaceChildChunks("d1", List.of(child("k2", "c2", 1, new float[] {1, 0}),
                child("k1", "c1", 1, null), child("k3", "c2", 2, null)));
        repository().saveChildChunk(child("k4", "c2", 3, null));
        repository().deleteChildChunk("k3");

        assertThat(repository().childChunks("d1")).extracting(StoredChildChunk::id).containsExactly("k1", "k2", "k4");
        assertThat(repository().findChildChunks(List.of("k2", "nope")).get(0).vector().orElseThrow())
                .containsExactly(1, 0);
        assertThat(repository().countSearchableChunks()).isEqualTo(3);
        List<String> searched = new ArrayList<>();
        repository().forEachSearchableChunk(c -> searched.add(c.id()));
        assertThat(searched).containsExactlyInAnyOrder("k1", "k2", "k4");
        assertThat(repository().searchableChunks("d1")).extracting(StoredChunk::id).as("one document's, by children")
                .containsExactlyInAnyOrder("k1", "k2", "k4");

        repository().replaceChunks("d1", List.of(chunk("c1", "d1", 1, null)));
        assertThat(repository().childChunks("d1")).isEmpty();
        assertThat(repository().countSearchableChunks()).isEqualTo(1);
    }

    @Test
    void anArchivedDocumentIsKeptWithItsTimeAndItsChunksAreNotSearchableUntilUnArchived() {
        repository().saveBase(base("b1", Instant.EPOCH));
        KnowledgeDocument kept = document("d1", "b1", "h1", DocumentStatus.COMPLETED);
        repository().saveDocument(kept);
        repository().saveDocument(document("d2", "b1", "h2", DocumentStatus.COMPLETED));
        repository().replaceChunks("d1", List.of(chunk("c1", "d1", 1, null)));
        repository().replaceChunks("d2", List.of(chunk("c2", "d2", 1, null)));
        repository().replaceChildChunks("d2", List.of(StoredChildChunk.of(new ChildChunk("k1", "c2", "d2", "b1", 1,
                "child"), null)));
        KnowledgeDocument archived = kept.withArchivedAt(Optional.of(Instant.parse("2026-11-02T08:30:00Z")));

        repository().saveDocument(archived);
        repository().saveDocument(repository().findDocument("d2").orElseThrow()
                .withArchivedAt(Optional.of(Instant.parse("2026-11-02T08:31:00Z"))));

        assertThat(repository().findDocument("d1")).contains(archived);
        assertThat(repository().documents("b1")).extracting(KnowledgeDocument::archived).containsExactly(true, true);
        assertThat(repository().countSearchableChunks()).isZero();
        List<String> searched = new ArrayList<>();
        repository().forEachSearchableChunk(c -> searched.add(c.id()));
        assertThat(searched).isEmpty();
        assertThat(repository().searchableChunks("d2")).as("children of an archived document").isEmpty();

        repository().saveDocument(archived.withArchivedAt(Optional.empty()));

        assertThat(repository().findDocument("d1")).contains(kept);
        assertThat(repository().searchableChunks("d1")).extracting(StoredChunk::id).containsExactly("c1");
        assertThat(repository().countSearchableChunks()).isEqualTo(1);
    }
}
