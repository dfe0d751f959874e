package dev.hexaflow.application.knowledge;

import static dev.hexaflow.application.knowledge.ManageKnowledgeBasesServiceTest.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.application.knowledge.port.in.AddChunksCommand;
import dev.hexaflow.application.knowledge.port.in.AddDocumentCommand;
import dev.hexaflow.application.knowledge.port.in.ChangeDocumentStatusUseCase.ChangeDocumentStatusCommand;
import dev.hexaflow.application.knowledge.port.in.EditChunkCommand;
import dev.hexaflow.application.knowledge.port.in.KnowledgeException.Reason;
import dev.hexaflow.application.knowledge.service.ChangeDocumentStatusService;
import dev.hexaflow.domain.knowledge.DocumentStatus;
import dev.hexaflow.domain.knowledge.IndexingTechnique;
import dev.hexaflow.domain.knowledge.KeywordAnalyzer;
import dev.hexaflow.domain.knowledge.KnowledgeDocument;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Dify's batch document status: enable, disable, archive and un-archive many documents at once, and each refusal. */
class ChangeDocumentStatusTest {

    private final KnowledgeBed bed = new KnowledgeBed();
    private final ChangeDocumentStatusService status = new ChangeDocumentStatusService(bed.repository, bed.index,
            bed.clock);
    private final KnowledgeDocument handbook;
    private final KnowledgeDocument policy;

    ChangeDocumentStatusTest() {
        bed.base("kb", IndexingTechnique.ECONOMY);
        handbook = bed.add("kb", "handbook", "Holidays are booked in the portal.");
        policy = bed.add("kb", "policy", "Holidays need a manager's approval.");
    }

    @AfterEach
    void close() {
        bed.close();
    }

    private void change(String action, String... ids) {
        status.change(new ChangeDocumentStatusCommand("kb", action, List.of(ids)));
    }

    private boolean enabled(KnowledgeDocument document) {
        return bed.repository.findDocument(document.id()).orElseThrow().enabled();
    }

    private Set<String> indexed() {
        return Set.copyOf(bed.index.byWords("kb", KeywordAnalyzer.AUTO, "holidays", null, 10).stream()
                .map(hit -> hit.documentId()).toList());
    }

    @Test
    void disabledDocumentsLeaveSearchesAndTheIndexAndComeBackEnabled() {
        change("disable", handbook.id(), policy.id());

        assertThat(enabled(handbook)).isFalse();
        assertThat(enabled(policy)).isFalse();
        assertThat(bed.found("kb", "holidays")).isEmpty();
        assertThat(indexed()).isEmpty();
        assertThat(bed.index.count()).isEqualTo(bed.repository.countSearchableChunks());

        change("enable", handbook.id());

        assertThat(enabled(handbook)).isTrue();
        assertThat(bed.found("kb", "holidays")).containsExactly("Holidays are booked in the portal.");
        assertThat(indexed()).containsExactly(handbook.id());
        assertThat(bed.index.count()).isEqualTo(bed.repository.countSearchableChunks());
    }

    @Test
    void unknownIdsAnotherBasesDocumentsAndDocumentsAlreadySoArePassedOver() {
        bed.base("other", IndexingTechnique.ECONOMY);
        KnowledgeDocument elsewhere = bed.add("other", "elsewhere", "Holidays elsewhere.");

        change("enable", handbook.id(), "no-such-document");
        change("disable", elsewhere.id(), "no-such-document");
        change("disable", handbook.id(), handbook.id());
        change("disable", handbook.id());

        assertThat(enabled(elsewhere)).isTrue();
        assertThat(enabled(handbook)).isFalse();
        assertThat(enabled(policy)).isTrue();
    }

    @Test
    void anActionDifyDoesNotHaveIsRefusedUnlessNoDocumentIsNamed() {
        assertRefused(() -> change("delete", handbook.id()), Reason.INVALID_ACTION,
                "Invalid action: delete. Must be one of ['enable', 'disable', 'archive', 'un_archive']");
        change("delete");

        assertThat(enabled(handbook)).isTrue();
    }

    @Test
    void anArchivedDocumentLeavesSearchesAndTheIndexIsDatedAndComesBackUnArchived() {
        change("archive", handbook.id(), "no-such-document");

        KnowledgeDocument archived = bed.repository.findDocument(handbook.id()).orElseThrow();
        assertThat(archived.archived()).isTrue();
        assertThat(archived.archivedAt()).contains(bed.clock.instant());
        assertThat(archived.enabled()).as("archiving leaves enabled as it was").isTrue();
        assertThat(bed.found("kb", "holidays")).containsExactly("Holidays need a manager's approval.");
        assertThat(indexed()).containsExactly(policy.id());
        assertThat(bed.index.count()).isEqualTo(bed.repository.countSearchableChunks());

        change("enable", handbook.id());
        assertThat(indexed()).as("enabled but still archived").containsExactly(policy.id());

        change("un_archive", handbook.id(), policy.id());

        assertThat(bed.repository.findDocument(handbook.id()).orElseThrow().archived()).isFalse();
        assertThat(bed.repository.findDocument(policy.id()).orElseThrow().archived()).isFalse();
        assertThat(bed.found("kb", "holidays")).hasSize(2);
        assertThat(indexed()).containsExactlyInAnyOrder(handbook.id(), policy.id());
    }

    @Test
    void aDisabledDocumentUnArchivedStaysOutOfSearchesAndArchivingTwiceKeepsTheFirstTime() {
        change("disable", handbook.id());
        change("archive", handbook.id());
        Instant first = bed.repository.findDocument(handbook.id()).orElseThrow().archivedAt().orElseThrow();
        bed.clock.advance(Duration.ofMinutes(5));
        change("archive", handbook.id());
        assertThat(bed.repository.findDocument(handbook.id()).orElseThrow().archivedAt()).contains(first);

        change("un_archive", handbook.id());

        assertThat(enabled(handbook)).isFalse();
        assertThat(indexed()).containsExactly(policy.id());
    }

    @Test
    void anArchivedDocumentRefusesEditsOfItsTextItsSegmentsAndItsDeletion() {
        String chunk = bed.manage.chunks(handbook.id()).get(0).id();
        change("archive", handbook.id());

        assertRefused(() -> bed.documents.replace(handbook.id(), AddDocumentCommand.text("kb", "handbook",
                "New text.")), Reason.ARCHIVED, "The archived document is not editable.");
        assertRefused(() -> bed.manage.addChunks(new AddChunksCommand(handbook.id(), List.of(
                new AddChunksCommand.NewChunk("More.", List.of())))), Reason.ARCHIVED,
                "The archived document is not editable.");
        assertRefused(() -> bed.manage.edit(new EditChunkCommand(handbook.id(), chunk, Optional.of("Changed."),
                Optional.empty())), Reason.ARCHIVED, "The archived document is not editable.");
        assertRefused(() -> bed.manage.deleteChunk(handbook.id(), chunk), Reason.ARCHIVED,
                "The archived document is not editable.");
        assertRefused(() -> bed.manage.delete(handbook.id()), Reason.ARCHIVED,
                "The archived document is not editable.");
        assertThat(bed.manage.chunks(handbook.id())).extracting(c -> c.content())
                .containsExactly("Holidays are booked in the portal.");

        change("un_archive", handbook.id());
        bed.manage.edit(new EditChunkCommand(handbook.id(), chunk, Optional.of("Holidays are changed."),
                Optional.empty()));
        assertThat(bed.found("kb", "changed")).containsExactly("Holidays are changed.");
    }

    @Test
    void aDocumentThatDidNotCompleteCannotBeDisabledAndNoDocumentOfTheRequestChanges() {
        bed.base("deep", IndexingTechnique.HIGH_QUALITY);
        KnowledgeDocument kept = bed.add("deep", "kept", "Kept and indexed.");
        bed.embeddingsFail = true;
        KnowledgeDocument failed = bed.add("deep", "failed", "Never embedded.");
        assertThat(failed.status()).isEqualTo(DocumentStatus.ERROR);

        assertRefused(() -> status.change(new ChangeDocumentStatusCommand("deep", "disable",
                List.of(kept.id(), failed.id()))), Reason.INVALID_ACTION, "Document: failed is not completed.");

        assertThat(enabled(kept)).isTrue();
        status.change(new ChangeDocumentStatusCommand("deep", "disable", List.of(kept.id())));
        assertThat(enabled(kept)).isFalse();
    }

    @Test
    void aDocumentStillIndexingRefusesEveryAction() {
        KnowledgeDocument indexing = bed.repository.findDocument(handbook.id()).orElseThrow().reindexing();
        bed.repository.saveDocument(indexing);

        assertRefused(() -> change("enable", handbook.id()), Reason.INVALID_ACTION,
                "Document:handbook is being indexed, please try again later");
        assertRefused(() -> change("disable", policy.id(), handbook.id()), Reason.INVALID_ACTION,
                "Document:handbook is being indexed, please try again later");
        assertThat(enabled(policy)).isTrue();
    }

    @Test
    void anUnknownBaseIsNotFoundEvenWithNoDocumentNamed() {
        assertRefused(() -> status.change(new ChangeDocumentStatusCommand("kb-none", "enable", List.of())),
                Reason.NOT_FOUND, "Dataset not found.");
    }
}
