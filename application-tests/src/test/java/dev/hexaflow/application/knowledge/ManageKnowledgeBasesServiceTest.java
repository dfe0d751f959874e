package dev.hexaflow.application.knowledge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.application.common.StorageUnavailableException;
import dev.hexaflow.application.knowledge.port.in.CreateKnowledgeBaseCommand;
import dev.hexaflow.application.knowledge.port.in.KnowledgeException;
import dev.hexaflow.application.knowledge.port.in.KnowledgeException.Reason;
import dev.hexaflow.domain.knowledge.IndexingTechnique;
import dev.hexaflow.domain.knowledge.KnowledgeBase;
import dev.hexaflow.domain.knowledge.RetrievalSettings;
import dev.hexaflow.domain.knowledge.SearchMethod;
import java.util.Optional;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Creating, changing, binding and deleting knowledge bases, on the in-memory repository and Lucene's index. */
class ManageKnowledgeBasesServiceTest {

    private final KnowledgeBed bed = new KnowledgeBed();

    @AfterEach
    void close() {
        bed.close();
    }

    private KnowledgeBase create(String id, String name, IndexingTechnique technique) {
        return bed.bases.create(new CreateKnowledgeBaseCommand(Optional.ofNullable(id), name, "", technique,
                Optional.empty()));
    }

    @Test
    void aHighQualityBaseTakesTheEmbeddingModelAndIsSearchedByMeaning() {
        KnowledgeBase base = create("kb-1", "Handbook", IndexingTechnique.HIGH_QUALITY);

        assertThat(base.embeddingModel()).contains("embed-fake");
        assertThat(base.retrieval().method()).isEqualTo(SearchMethod.SEMANTIC_SEARCH);
        assertThat(base.created()).isEqualTo(bed.clock.instant());
        assertThat(bed.bases.find("kb-1")).contains(base);
    }

    @Test
    void anEconomyBaseIsKeywordOnlyAndSearchedByKeyword() {
        KnowledgeBase base = create("kb-1", "Handbook", IndexingTechnique.ECONOMY);

        assertThat(base.keywordOnly()).isTrue();
        assertThat(base.retrieval().method()).isEqualTo(SearchMethod.KEYWORD_SEARCH);
    }

    @Test
    void aBaseWithoutAnIdIsGivenANewOne() {
        KnowledgeBase base = create(null, "Handbook", IndexingTechnique.ECONOMY);
        KnowledgeBase other = create(" ", "Other", IndexingTechnique.ECONOMY);

        assertThat(base.id()).startsWith("id-").isNotEqualTo(other.id());
        assertThat(bed.bases.list()).extracting(KnowledgeBase::id).containsExactlyInAnyOrder(base.id(), other.id());
    }

    @Test
    void aTakenIdABadNameOrAStoreWithoutRoomIsRefusedAndNothingIsKept() {
        create("kb-1", "Handbook", IndexingTechnique.ECONOMY);

        assertRefused(() -> create("kb-1", "Again", IndexingTechnique.ECONOMY), Reason.CONFLICT,
                "A knowledge base with id kb-1 exists already.");
        assertRefused(() -> create("kb-2", "n".repeat(41), IndexingTechnique.ECONOMY), Reason.INVALID,
                "name must be 1 to 40 characters");
        bed.storageProblem = Optional.of(new StorageUnavailableException(StorageUnavailableException.Kind.DISK_LOW,
                "The disk is almost full."));
        assertThatThrownBy(() -> create("kb-3", "Full", IndexingTechnique.ECONOMY))
                .isInstanceOf(StorageUnavailableException.class).hasMessage("The disk is almost full.");

        assertThat(bed.bases.list()).extracting(KnowledgeBase::id).containsExactly("kb-1");
    }

    @Test
    void anUpdateChangesOnlyWhatItGives() {
        create("kb-1", "Handbook", IndexingTechnique.ECONOMY);
        RetrievalSettings full = new RetrievalSettings(SearchMethod.FULL_TEXT_SEARCH, 7, Optional.empty(), 0.7,
                0.3);

        KnowledgeBase renamed = bed.bases.update("kb-1", Optional.of("Manual"), Optional.empty(), Optional.empty(),
                Optional.empty());
        KnowledgeBase retuned = bed.bases.update("kb-1", Optional.empty(), Optional.of("All of it"),
                Optional.of(full), Optional.empty());

        assertThat(renamed.name()).isEqualTo("Manual");
        assertThat(retuned.name()).isEqualTo("Manual");
        assertThat(retuned.description()).isEqualTo("All of it");
        assertThat(retuned.retrieval()).isEqualTo(full);
        assertThat(bed.bases.find("kb-1")).contains(retuned);
    }

    @Test
    void anUpdateOfAnUnknownBaseOrWithATooLongDescriptionIsRefused() {
        create("kb-1", "Handbook", IndexingTechnique.ECONOMY);

        assertRefused(() -> bed.bases.update("kb-9", Optional.of("x"), Optional.empty(), Optional.empty(),
                Optional.empty()),
                Reason.NOT_FOUND, "Dataset not found.");
        assertRefused(() -> bed.bases.update("kb-1", Optional.empty(), Optional.of("d".repeat(401)),
                Optional.empty(), Optional.empty()), Reason.INVALID, "description must be at most 400 characters");
        assertThat(bed.bases.find("kb-1").orElseThrow().description()).isEmpty();
    }

    @Test
    void aBoundIdFindsItsBaseAndMovesWhenBoundAgainUntilUnbound() {
        create("kb-1", "One", IndexingTechnique.ECONOMY);
        create("kb-2", "Two", IndexingTechnique.ECONOMY);

        bed.bases.bind("dify-ds", "kb-1");
        assertThat(bed.bases.find("dify-ds").orElseThrow().id()).isEqualTo("kb-1");
        bed.bases.bind("dify-ds", "kb-2");
        assertThat(bed.bases.find("dify-ds").orElseThrow().id()).isEqualTo("kb-2");
        bed.bases.unbind("dify-ds");

        assertThat(bed.bases.find("dify-ds")).isEmpty();
        assertRefused(() -> bed.bases.unbind("dify-ds"), Reason.NOT_FOUND,
                "The id dify-ds is bound to no knowledge base.");
    }

    @Test
    void bindingRefusesABadIdAnUnknownBaseAndABasesOwnIdAndCreationRefusesABoundId() {
        create("kb-1", "One", IndexingTechnique.ECONOMY);
        create("kb-2", "Two", IndexingTechnique.ECONOMY);
        bed.bases.bind("dify-ds", "kb-1");

        assertRefused(() -> bed.bases.bind(" ", "kb-1"), Reason.INVALID, "dataset_id must be 1 to 64 characters.");
        assertRefused(() -> bed.bases.bind("x".repeat(65), "kb-1"), Reason.INVALID,
                "dataset_id must be 1 to 64 characters.");
        assertRefused(() -> bed.bases.bind("other", "kb-9"), Reason.NOT_FOUND, "Dataset not found.");
        assertRefused(() -> bed.bases.bind("kb-2", "kb-1"), Reason.CONFLICT,
                "A knowledge base has the id kb-2 as its own; it cannot be bound to another.");
        assertRefused(() -> create("dify-ds", "Three", IndexingTechnique.ECONOMY), Reason.CONFLICT,
                "The id dify-ds is bound to the knowledge base kb-1; unbind it first.");
    }

    @Test
    void aDeletedBaseIsGoneWithItsDocumentsFromListsAndSearches() {
        create("kb-1", "One", IndexingTechnique.ECONOMY);
        create("kb-2", "Two", IndexingTechnique.ECONOMY);
        bed.add("kb-1", "notes", "Holidays are booked in the portal.");
        bed.add("kb-2", "notes", "Holidays are booked by email.");

        bed.bases.delete("kb-1");

        assertThat(bed.bases.list()).extracting(KnowledgeBase::id).containsExactly("kb-2");
        assertThat(bed.found("kb-2", "holidays")).containsExactly("Holidays are booked by email.");
        assertRefused(() -> bed.bases.delete("kb-1"), Reason.NOT_FOUND, "Dataset not found.");
    }

    static void assertRefused(ThrowingCallable call, Reason reason, String message) {
        assertThatThrownBy(call).isInstanceOfSatisfying(KnowledgeException.class, e -> {
            assertThat(e.reason()).isEqualTo(reason);
            assertThat(e.getMessage()).isEqualTo(message);
        });
    }
}
