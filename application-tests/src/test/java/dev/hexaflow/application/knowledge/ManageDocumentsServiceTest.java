package dev.hexaflow.application.knowledge;

import static dev.hexaflow.application.knowledge.ManageKnowledgeBasesServiceTest.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Listing and deleting documents, and adding, editing and deleting their chunks, seen by keyword searches. */
class ManageDocumentsServiceTest {

    private final KnowledgeBed bed = new KnowledgeBed();
    private final KnowledgeDocument handbook;

    ManageDocumentsServiceTest() {
        bed.base("kb", IndexingTechnique.HIGH_QUALITY);
        handbook = bed.add("kb", "handbook", "Holidays: booked in the portal.\n\nExpenses: refunded monthly.");
    }

    @AfterEach
    void close() {
        bed.close();
    }

    private List<Chunk> chunks() {
        return bed.manage.chunks(handbook.id());
    }

    private static AddChunksCommand adding(String documentId, String... texts) {
        return new AddChunksCommand(documentId, Arrays.stream(texts)
                .map(text -> new NewChunk(text, List.of("kw"))).toList());
    }

    @Test
    void aBasesDocumentsAreListedAndAnUnknownBaseIsNotFound() {
        KnowledgeDocument other = bed.add("kb", "policy", "Security: lock laptops.");

        assertThat(bed.manage.documents("kb")).extracting(KnowledgeDocument::id)
                .containsExactlyInAnyOrder(handbook.id(), other.id());
        assertThat(bed.manage.document(other.id())).contains(other);
        assertRefused(() -> bed.manage.documents("kb-none"), Reason.NOT_FOUND, "Dataset not found.");
    }

    @Test
    void aDeletedDocumentIsGoneFromListsAndSearches() {
        bed.manage.delete(handbook.id());

        assertThat(bed.manage.documents("kb")).isEmpty();
        assertThat(bed.found("kb", "holidays")).isEmpty();
        assertRefused(() -> bed.manage.delete(handbook.id()), Reason.NOT_FOUND, "Document not found.");
    }

    @Test
    void aDeletedChunkIsGoneWhileTheOthersStaySearchable() {
        Chunk holidays = chunks().get(0);

        bed.manage.deleteChunk(handbook.id(), holidays.id());

        assertThat(chunks()).extracting(Chunk::content).containsExactly("Expenses: refunded monthly.");
        assertThat(bed.found("kb", "holidays")).isEmpty();
        assertThat(bed.found("kb", "expenses")).hasSize(1);
        assertRefused(() -> bed.manage.deleteChunk(handbook.id(), holidays.id()), Reason.NOT_FOUND,
                "Segment not found.");
    }

    @Test
    void addedChunksFollowTheLastWithTheirKeywordsAndAreSearchable() {
        List<Chunk> added = bed.manage.addChunks(adding(handbook.id(), "Travel: economy fares.", "Parking: free."));

        assertThat(added).extracting(Chunk::position).containsExactly(3, 4);
        assertThat(added.get(0).keywords()).containsExactly("kw");
        assertThat(chunks()).hasSize(4);
        assertThat(bed.manage.vector(added.get(1).id())).isPresent();
        assertThat(bed.found("kb", "parking")).containsExactly("Parking: free.");
    }

    @Test
    void addingNoChunkABlankOneOrTooManyIsRefusedAndKeepsNone() {
        List<String> tooMany = Collections.nCopies(AddChunksCommand.MAX_CHUNKS + 1, "x");

        assertRefused(() -> bed.manage.addChunks(adding(handbook.id())), Reason.INVALID, "Segments is required");
        assertRefused(() -> bed.manage.addChunks(adding(handbook.id(), "ok", " ")), Reason.INVALID,
                "Content is empty");
        assertRefused(() -> bed.manage.addChunks(adding(handbook.id(), tooMany.toArray(String[]::new))),
                Reason.INVALID, "At most 1000 segments can be created at once, not 1001.");
        assertRefused(() -> bed.manage.addChunks(adding("doc-none", "x")), Reason.NOT_FOUND, "Document not found.");
        assertThat(chunks()).hasSize(2);
    }

    @Test
    void chunksWhoseEmbeddingFailsAreNotAdded() {
        bed.embeddingsFail = true;

        assertRefused(() -> bed.manage.addChunks(adding(handbook.id(), "Travel: economy.")), Reason.INVALID,
                "The segments were not added: the embeddings endpoint answered 503");
        assertThat(chunks()).hasSize(2);
    }

    @Test
    void anEditedChunkIsFoundByItsNewTextOnly() {
        Chunk holidays = chunks().get(0);

        Chunk edited = bed.manage.edit(new EditChunkCommand(handbook.id(), holidays.id(),
                Optional.of("Vacation: booked by email."), Optional.empty()));

        assertThat(edited.id()).isEqualTo(holidays.id());
        assertThat(edited.content()).isEqualTo("Vacation: booked by email.");
        assertThat(bed.found("kb", "holidays")).isEmpty();
        assertThat(bed.found("kb", "vacation")).containsExactly("Vacation: booked by email.");
    }

    @Test
    void aDisabledChunkIsKeptButNotFoundUntilEnabledAgain() {
        Chunk holidays = chunks().get(0);

        bed.manage.edit(new EditChunkCommand(handbook.id(), holidays.id(), Optional.empty(), Optional.of(false)));
        assertThat(bed.found("kb", "holidays")).isEmpty();
        assertThat(chunks().get(0).enabled()).isFalse();
        bed.manage.edit(new EditChunkCommand(handbook.id(), holidays.id(), Optional.empty(), Optional.of(true)));

        assertThat(bed.found("kb", "holidays")).hasSize(1);
    }

    @Test
    void anEditOfAnotherDocumentsChunkIsNotFoundAndAFailedEmbeddingChangesNothing() {
        KnowledgeDocument other = bed.add("kb", "policy", "Security: lock laptops.");
        Chunk holidays = chunks().get(0);

        assertRefused(() -> bed.manage.edit(new EditChunkCommand(other.id(), holidays.id(), Optional.of("x"),
                Optional.empty())), Reason.NOT_FOUND, "Segment not found.");
        bed.embeddingsFail = true;
        assertRefused(() -> bed.manage.edit(new EditChunkCommand(handbook.id(), holidays.id(), Optional.of("New."),
                Optional.empty())), Reason.INVALID, "The segment was not changed: the embeddings endpoint answered 503");
        assertThat(chunks().get(0).content()).isEqualTo(holidays.content());
    }

    @Test
    void childChunksAreAddedEditedAndDeletedUnderTheirParent() {
        SplittingRules paragraphs = SplittingRules.custom("\\n\\n", 500, 0, true, false);
        KnowledgeDocument doc = bed.documents.add(new AddDocumentCommand("kb", "tree", new AddDocumentCommand.Text(
                "Leave: 25 days."), paragraphs, Map.of(), Optional.of(new ParentChildRules(
                ParentChildRules.ParentMode.PARAGRAPH, paragraphs, paragraphs))));
        Chunk parent = bed.manage.chunks(doc.id()).get(0);

        ChildChunk added = bed.manage.addChildChunk(doc.id(), parent.id(), "Carry-over: five days.");
        ChildChunk edited = bed.manage.editChildChunk(doc.id(), parent.id(), added.id(), "Carry-over: ten days.");

        assertThat(added.position()).isEqualTo(2);
        assertThat(bed.manage.childChunks(doc.id(), parent.id())).extracting(ChildChunk::content)
                .containsExactly("Leave: 25 days.", "Carry-over: ten days.");
        assertThat(edited.id()).isEqualTo(added.id());
        bed.manage.deleteChildChunk(doc.id(), parent.id(), added.id());
        assertThat(bed.manage.childChunks(doc.id())).hasSize(1);
        assertRefused(() -> bed.manage.deleteChildChunk(doc.id(), parent.id(), added.id()), Reason.NOT_FOUND,
                "Child chunk not found.");
        assertRefused(() -> bed.manage.childChunks(doc.id(), "seg-none"), Reason.NOT_FOUND, "Segment not found.");
    }
}
