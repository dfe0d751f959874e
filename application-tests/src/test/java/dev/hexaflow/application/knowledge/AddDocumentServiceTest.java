package dev.hexaflow.application.knowledge;

import static dev.hexaflow.application.knowledge.ManageKnowledgeBasesServiceTest.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.application.common.StorageUnavailableException;
import dev.hexaflow.application.knowledge.port.in.AddDocumentCommand;
import dev.hexaflow.application.knowledge.port.in.KnowledgeException;
import dev.hexaflow.application.knowledge.port.in.KnowledgeException.Reason;
import dev.hexaflow.application.knowledge.service.AddDocumentService;
import dev.hexaflow.domain.knowledge.Chunk;
import dev.hexaflow.domain.knowledge.ChildChunk;
import dev.hexaflow.domain.knowledge.DocumentStatus;
import dev.hexaflow.domain.knowledge.IndexingTechnique;
import dev.hexaflow.domain.knowledge.KnowledgeDocument;
import dev.hexaflow.domain.knowledge.ParentChildRules;
import dev.hexaflow.domain.knowledge.SplittingRules;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Adding, replacing and indexing again documents of a base, on the in-memory repository, Lucene's index held in
 * memory and fake embeddings that fail when told to.
 */
class AddDocumentServiceTest {

    private static final String TEXT = "Holidays: booked in the portal.\n\nExpenses: refunded monthly.";

    private final KnowledgeBed bed = new KnowledgeBed();

    AddDocumentServiceTest() {
        bed.base("kb", IndexingTechnique.HIGH_QUALITY);
        bed.base("kw", IndexingTechnique.ECONOMY);
    }

    @AfterEach
    void close() {
        bed.close();
    }

    @Test
    void aDocumentIsSplitKeptEmbeddedAndSearchable() {
        KnowledgeDocument document = bed.add("kb", "handbook", TEXT);

        assertThat(document.status()).isEqualTo(DocumentStatus.COMPLETED);
        assertThat(document.source()).isEqualTo("text");
        assertThat(bed.manage.chunks(document.id())).extracting(Chunk::content)
                .containsExactly("Holidays: booked in the portal.", "Expenses: refunded monthly.");
        assertThat(bed.manage.vector(bed.manage.chunks(document.id()).get(0).id())).isPresent();
        assertThat(bed.found("kb", "expenses")).containsExactly("Expenses: refunded monthly.");
    }

    @Test
    void aKeywordOnlyBaseKeepsNoVectorAndCallsNoModel() {
        KnowledgeDocument document = bed.add("kw", "handbook", TEXT);

        assertThat(bed.models.embedded).isZero();
        assertThat(bed.manage.vector(bed.manage.chunks(document.id()).get(0).id())).isEmpty();
        assertThat(bed.found("kw", "holidays")).containsExactly("Holidays: booked in the portal.");
    }

    @Test
    void theSameContentAddedAgainAnswersTheDocumentAlreadyThere() {
        KnowledgeDocument first = bed.add("kb", "handbook", TEXT);
        int calls = bed.models.embedded;

        KnowledgeDocument again = bed.add("kb", "handbook copy", TEXT);

        assertThat(again.id()).isEqualTo(first.id());
        assertThat(bed.models.embedded).isEqualTo(calls);
        assertThat(bed.manage.documents("kb")).hasSize(1);
    }

    @Test
    void aFailedEmbeddingKeepsTheChunksInErrorAndARetryCompletesIt() {
        bed.embeddingsFail = true;
        KnowledgeDocument failed = bed.add("kb", "handbook", TEXT);
        bed.embeddingsFail = false;

        assertThat(failed.status()).isEqualTo(DocumentStatus.ERROR);
        assertThat(failed.error()).contains("the embeddings endpoint answered 503");
        assertThat(bed.manage.chunks(failed.id())).hasSize(2);
        assertThat(bed.found("kb", "holidays")).isEmpty();
        KnowledgeDocument retried = bed.documents.retry(failed.id());
        assertThat(retried.status()).isEqualTo(DocumentStatus.COMPLETED);
        assertThat(bed.found("kb", "holidays")).hasSize(1);
    }

    @Test
    void theSameContentSentAgainForADocumentInErrorIndexesItAgain() {
        bed.embeddingsFail = true;
        KnowledgeDocument failed = bed.add("kb", "handbook", TEXT);
        bed.embeddingsFail = false;

        KnowledgeDocument again = bed.add("kb", "handbook", TEXT);

        assertThat(again.id()).isEqualTo(failed.id());
        assertThat(again.status()).isEqualTo(DocumentStatus.COMPLETED);
    }

    @Test
    void aReplacedDocumentKeepsItsIdAndSearchesFindOnlyItsNewText() {
        KnowledgeDocument document = bed.add("kb", "handbook", TEXT);

        KnowledgeDocument replaced = bed.documents.replace(document.id(), AddDocumentCommand.text("kb", "handbook",
                "Travel: economy fares only."));

        assertThat(replaced.id()).isEqualTo(document.id());
        assertThat(replaced.created()).isEqualTo(document.created());
        assertThat(bed.found("kb", "holidays")).isEmpty();
        assertThat(bed.found("kb", "travel")).containsExactly("Travel: economy fares only.");
    }

    @Test
    void aReplaceInAnotherBaseOrOfAnUnknownDocumentIsNotFound() {
        KnowledgeDocument document = bed.add("kb", "handbook", TEXT);

        assertRefused(() -> bed.documents.replace(document.id(), AddDocumentCommand.text("kw", "h", "x")),
                Reason.NOT_FOUND, "Document not found.");
        assertRefused(() -> bed.documents.retry("doc-none"), Reason.NOT_FOUND, "Document not found.");
    }

    @Test
    void aFilesTextComesFromTheExtractorAndAnUnreadableFileIsRefused() {
        KnowledgeDocument document = bed.documents.add(new AddDocumentCommand("kw", "notes.txt",
                new AddDocumentCommand.File("Security: lock laptops.".getBytes(StandardCharsets.UTF_8), ".txt",
                        "text/plain"), SplittingRules.AUTOMATIC, Map.of()));

        assertThat(document.source()).isEqualTo("upload_file");
        assertThat(bed.found("kw", "laptops")).containsExactly("Security: lock laptops.");
        assertRefused(() -> bed.documents.add(new AddDocumentCommand("kw", "blob.bin", new AddDocumentCommand.File(
                new byte[] {1}, ".bin", "application/octet-stream"), null, null)), Reason.INVALID,
                "Unsupported file type .bin");
    }

    @Test
    void anUnknownBaseOrABlankTextIsRefusedAndNothingIsKept() {
        assertRefused(() -> bed.add("kb-none", "x", "text"), Reason.NOT_FOUND, "Dataset does not exist.");
        assertRefused(() -> bed.add("kb", "empty", "  \n "), Reason.INVALID, "The document empty has no text.");

        assertThat(bed.manage.documents("kb")).isEmpty();
    }

    @Test
    void aSplitPastTheChunkBudgetIsRefusedBeforeAnythingIsKept() {
        AddDocumentService small = new AddDocumentService(bed.repository, bed.index, bed.embeddings, bed.extractor,
                bed.clock, bed::nextId, bed.storage, 2);

        assertThatThrownBy(() -> small.add(AddDocumentCommand.text("kb", "long", "a\n\nb\n\nc")
                .withRules(SplittingRules.custom("\\n\\n", 500, 0, true, false))))
                .isInstanceOfSatisfying(KnowledgeException.class,
                        e -> assertThat(e.reason()).isEqualTo(Reason.INVALID));
        assertThat(bed.manage.documents("kb")).isEmpty();
        assertThat(bed.models.embedded).isZero();
    }

    @Test
    void aStoreWithoutRoomRefusesANewDocument() {
        bed.storageProblem = Optional.of(new StorageUnavailableException(StorageUnavailableException.Kind.DISK_LOW,
                "The disk is almost full."));

        assertThatThrownBy(() -> bed.add("kb", "handbook", TEXT)).isInstanceOf(StorageUnavailableException.class);
        assertThat(bed.manage.documents("kb")).isEmpty();
    }

    @Test
    void aParentChildDocumentIsSearchedThroughItsChildren() {
        SplittingRules paragraphs = SplittingRules.custom("\\n\\n", 500, 0, true, false);
        SplittingRules sentences = SplittingRules.custom(". ", 200, 0, true, false);
        KnowledgeDocument document = bed.documents.add(new AddDocumentCommand("kb", "handbook", new AddDocumentCommand
                .Text("Leave: 25 days. Sick: paid.\n\nTravel: economy."), paragraphs, Map.of(), Optional.of(
                new ParentChildRules(ParentChildRules.ParentMode.PARAGRAPH, paragraphs, sentences))));

        assertThat(bed.manage.chunks(document.id())).hasSize(2);
        assertThat(bed.manage.childChunks(document.id())).extracting(ChildChunk::content).hasSizeGreaterThan(2)
                .anyMatch(text -> text.startsWith("Sick"));
        assertThat(bed.found("kb", "sick")).containsExactly("Leave: 25 days. Sick: paid.");
    }
}
