package dev.hexaflow.application.knowledge;

import static dev.hexaflow.application.knowledge.ManageKnowledgeBasesServiceTest.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.application.common.StorageUnavailableException;
import dev.hexaflow.application.knowledge.port.in.AddChunksCommand;
import dev.hexaflow.application.knowledge.port.in.AddChunksCommand.NewChunk;
import dev.hexaflow.application.knowledge.port.in.AddDocumentCommand;
import dev.hexaflow.application.knowledge.port.in.EditChunkCommand;
import dev.hexaflow.application.knowledge.port.in.KnowledgeException.Reason;
import dev.hexaflow.domain.knowledge.Chunk;
import dev.hexaflow.domain.knowledge.ChildChunk;
import dev.hexaflow.domain.knowledge.IndexingTechnique;
import dev.hexaflow.domain.knowledge.KnowledgeDocument;
import dev.hexaflow.domain.knowledge.ParentChildRules;
import dev.hexaflow.domain.knowledge.SplittingRules;
import dev.hexaflow.domain.knowledge.TextMeasure;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The rules of segments (chunks) and child chunks beyond adding and editing them: which documents take new ones, what
 * a deletion takes along, what an edit keeps, and what a failed embedding or a full store leaves; on the bed.
 */
class KnowledgeSegmentsTest {

    private static final SplittingRules PARAGRAPHS = SplittingRules.custom("\\n\\n", 500, 0, true, false);
    private static final SplittingRules SENTENCES = SplittingRules.custom(". ", 500, 0, true, false);

    private final KnowledgeBed bed = new KnowledgeBed();

    KnowledgeSegmentsTest() {
        bed.base("kb", IndexingTechnique.HIGH_QUALITY);
        bed.base("kw", IndexingTechnique.ECONOMY);
    }

    @AfterEach
    void close() {
        bed.close();
    }

    /** A parent-child document of two paragraphs, their sentences its children. */
    private KnowledgeDocument tree(String baseId) {
        return bed.documents.add(new AddDocumentCommand(baseId, "tree", new AddDocumentCommand.Text(
                "Leave: 25 days. Sick: paid.\n\nTravel: economy. Hotels: three stars."), PARAGRAPHS, Map.of(),
                Optional.of(new ParentChildRules(ParentChildRules.ParentMode.PARAGRAPH, PARAGRAPHS, SENTENCES))));
    }

    private static AddChunksCommand adding(String documentId, String text) {
        return new AddChunksCommand(documentId, List.of(new NewChunk(text, List.of())));
    }

    @Test
    void aDocumentWhoseIndexingFailedOrThatIsDisabledTakesNoNewChunk() {
        bed.embeddingsFail = true;
        KnowledgeDocument failed = bed.add("kb", "failed", "Holidays: booked in the portal.");
        bed.embeddingsFail = false;
        KnowledgeDocument disabled = bed.add("kw", "off", "Parking: free.").withEnabled(false);
        bed.repository.saveDocument(disabled);

        assertRefused(() -> bed.manage.addChunks(adding(failed.id(), "More.")), Reason.NOT_FOUND,
                "Document is not completed.");
        assertRefused(() -> bed.manage.addChunks(adding(disabled.id(), "More.")), Reason.NOT_FOUND,
                "Document is disabled.");
        assertThat(bed.manage.chunks(failed.id())).hasSize(1);
    }

    @Test
    void aChunkAddedToAKeywordOnlyBaseHasNoVectorAndCallsNoModel() {
        KnowledgeDocument notes = bed.add("kw", "notes", "Holidays: booked in the portal.");

        Chunk added = bed.manage.addChunks(adding(notes.id(), "Parking: free for staff.")).get(0);

        assertThat(bed.models.embedded).isZero();
        assertThat(bed.manage.vector(added.id())).isEmpty();
        assertThat(bed.found("kw", "parking")).containsExactly("Parking: free for staff.");
    }

    @Test
    void chunksAddedAfterADeletionFollowTheHighestPositionLeft() {
        KnowledgeDocument notes = bed.add("kw", "notes", "One: a.\n\nTwo: b.\n\nThree: c.");
        List<Chunk> chunks = bed.manage.chunks(notes.id());
        bed.manage.deleteChunk(notes.id(), chunks.get(2).id());
        bed.manage.deleteChunk(notes.id(), chunks.get(0).id());

        Chunk added = bed.manage.addChunks(adding(notes.id(), "Four: d.")).get(0);

        assertThat(added.position()).isEqualTo(3);
        assertThat(bed.manage.chunks(notes.id())).extracting(Chunk::content).containsExactly("Two: b.", "Four: d.");
    }

    @Test
    void anEditedChunkKeepsItsIdPositionAndKeywordsWhileItsCountsFollowTheNewText() {
        KnowledgeDocument notes = bed.add("kw", "notes", "Holidays: booked in the portal.");
        Chunk added = bed.manage.addChunks(new AddChunksCommand(notes.id(), List.of(new NewChunk("Parking: free.",
                List.of("car", "staff"))))).get(0);

        Chunk edited = bed.manage.edit(new EditChunkCommand(notes.id(), added.id(),
                Optional.of("Parking: free for every member of staff."), Optional.empty()));

        assertThat(edited.position()).isEqualTo(added.position());
        assertThat(edited.keywords()).containsExactly("car", "staff");
        assertThat(edited.wordCount()).isEqualTo(TextMeasure.words("Parking: free for every member of staff."));
        assertThat(edited.tokens()).isGreaterThan(added.tokens());
        assertThat(edited.indexNodeHash()).isNotEqualTo(added.indexNodeHash());
    }

    @Test
    void anEditToTheSameTextCallsNoModelAndABlankTextIsRefused() {
        KnowledgeDocument notes = bed.add("kb", "notes", "Holidays: booked in the portal.");
        Chunk chunk = bed.manage.chunks(notes.id()).get(0);
        int calls = bed.models.embedded;

        bed.manage.edit(new EditChunkCommand(notes.id(), chunk.id(), Optional.of(chunk.content()), Optional.empty()));

        assertThat(bed.models.embedded).isEqualTo(calls);
        assertRefused(() -> bed.manage.edit(new EditChunkCommand(notes.id(), chunk.id(), Optional.of("  "),
                Optional.empty())), Reason.INVALID, "content must not be blank");
        assertThat(bed.manage.chunks(notes.id()).get(0).content()).isEqualTo(chunk.content());
    }

    @Test
    void aStoreWithoutRoomRefusesNewChunksAndEditsButDeletionsGoOn() {
        KnowledgeDocument notes = bed.add("kw", "notes", "Holidays: booked.\n\nParking: free.");
        Chunk first = bed.manage.chunks(notes.id()).get(0);
        bed.storageProblem = Optional.of(new StorageUnavailableException(StorageUnavailableException.Kind.DISK_LOW,
                "The disk is almost full."));

        assertThatThrownBy(() -> bed.manage.addChunks(adding(notes.id(), "More."))).isInstanceOf(
                StorageUnavailableException.class);
        assertThatThrownBy(() -> bed.manage.edit(new EditChunkCommand(notes.id(), first.id(), Optional.of("New."),
                Optional.empty()))).isInstanceOf(StorageUnavailableException.class);
        bed.manage.deleteChunk(notes.id(), first.id());

        assertThat(bed.manage.chunks(notes.id())).extracting(Chunk::content).containsExactly("Parking: free.");
    }

    @Test
    void aDeletedParentTakesItsChildrenOutOfListsAndSearches() {
        KnowledgeDocument tree = tree("kw");
        Chunk leave = bed.manage.chunks(tree.id()).get(0);

        bed.manage.deleteChunk(tree.id(), leave.id());

        assertThat(bed.manage.childChunks(tree.id())).extracting(ChildChunk::segmentId).containsOnly(
                bed.manage.chunks(tree.id()).get(0).id());
        assertThat(bed.found("kw", "sick")).isEmpty();
        assertThat(bed.found("kw", "hotels")).containsExactly("Travel: economy. Hotels: three stars.");
    }

    /** Once a chunk has children it is searched through them alone, as Dify's parent-child retrieval is. */
    @Test
    void aChildAddedToAPlainChunkMakesItFoundByTheChildsWordsOnly() {
        KnowledgeDocument notes = bed.add("kw", "notes", "Holidays: booked in the portal.");
        Chunk holidays = bed.manage.chunks(notes.id()).get(0);

        bed.manage.addChildChunk(notes.id(), holidays.id(), "Vacation requests");

        assertThat(bed.found("kw", "vacation")).containsExactly("Holidays: booked in the portal.");
        assertThat(bed.found("kw", "portal")).isEmpty();
    }

    @Test
    void aBlankChildIsRefusedAndAChildOfAnotherSegmentOrDocumentIsNotFound() {
        KnowledgeDocument tree = tree("kw");
        List<Chunk> parents = bed.manage.chunks(tree.id());
        ChildChunk leaveChild = bed.manage.childChunks(tree.id(), parents.get(0).id()).get(0);

        assertRefused(() -> bed.manage.addChildChunk(tree.id(), parents.get(0).id(), " "), Reason.INVALID,
                "Content is empty");
        assertRefused(() -> bed.manage.editChildChunk(tree.id(), parents.get(0).id(), leaveChild.id(), ""),
                Reason.INVALID, "Content is empty");
        assertRefused(() -> bed.manage.editChildChunk(tree.id(), parents.get(1).id(), leaveChild.id(), "x"),
                Reason.NOT_FOUND, "Child chunk not found.");
        assertRefused(() -> bed.manage.addChildChunk("doc-none", parents.get(0).id(), "x"), Reason.NOT_FOUND,
                "Document not found.");
        assertThat(bed.manage.childChunks(tree.id(), parents.get(0).id())).extracting(ChildChunk::content)
                .containsExactly("Leave: 25 days", "Sick: paid.");
    }

    @Test
    void aChildWhoseEmbeddingFailsIsNeitherAddedNorChanged() {
        KnowledgeDocument tree = tree("kb");
        Chunk parent = bed.manage.chunks(tree.id()).get(0);
        ChildChunk first = bed.manage.childChunks(tree.id(), parent.id()).get(0);
        bed.embeddingsFail = true;

        assertRefused(() -> bed.manage.addChildChunk(tree.id(), parent.id(), "Carry-over: five days."),
                Reason.INVALID, "The child chunk was not added: the embeddings endpoint answered 503");
        assertRefused(() -> bed.manage.editChildChunk(tree.id(), parent.id(), first.id(), "Leave: 30 days"),
                Reason.INVALID, "The child chunk was not changed: the embeddings endpoint answered 503");

        assertThat(bed.manage.childChunks(tree.id(), parent.id())).extracting(ChildChunk::content)
                .containsExactly("Leave: 25 days", "Sick: paid.");
    }
}
