package dev.hexaflow.application.knowledge.service;

import dev.hexaflow.application.knowledge.port.in.ChangeDocumentStatusUseCase;
import dev.hexaflow.application.knowledge.port.in.KnowledgeException;
import dev.hexaflow.application.knowledge.port.in.KnowledgeException.Reason;
import dev.hexaflow.application.knowledge.port.out.KnowledgeIndex;
import dev.hexaflow.application.knowledge.port.out.KnowledgeRepository;
import dev.hexaflow.domain.knowledge.DocumentStatus;
import dev.hexaflow.domain.knowledge.KnowledgeDocument;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Dify's DocumentService.batch_update_document_status: every named document is checked before any changes (one
 * indexing, or one to disable that never completed, refuses them all), a document already so or unknown is passed
 * over, and each change is kept in the store before the index is told. A disabled document leaves the index; an
 * enabled one that completed goes back with its enabled chunks. An archived document leaves the index as a disabled
 * one does (Dify's archived_at; its archived_by is a console account, which a dataset key is not), and refuses edits
 * until it is un-archived, when it goes back if it is enabled.
 */
public final class ChangeDocumentStatusService implements ChangeDocumentStatusUseCase {

    /** Dify's valid actions, in its order: its refusal of another lists them so. */
    private static final List<String> ACTIONS = List.of("enable", "disable", "archive", "un_archive");

    private final KnowledgeRepository repository;
    private final KnowledgeIndex index;
    private final Clock clock;

    public ChangeDocumentStatusService(KnowledgeRepository repository, KnowledgeIndex index) {
        this(repository, index, Clock.systemUTC());
    }

    /** With the clock that dates an archiving. */
    public ChangeDocumentStatusService(KnowledgeRepository repository, KnowledgeIndex index, Clock clock) {
        this.repository = repository;
        this.index = index;
        this.clock = clock;
    }

    @Override
    public void change(ChangeDocumentStatusCommand command) {
        repository.findBase(command.baseId()).orElseThrow(() -> new KnowledgeException(Reason.NOT_FOUND,
                "Dataset not found."));
        if (command.documentIds().isEmpty()) {
            return;
        }
        String action = command.action();
        if (!ACTIONS.contains(action)) {
            throw invalid("Invalid action: " + action + ". Must be one of ['enable', 'disable', 'archive', "
                    + "'un_archive']");
        }
        Map<String, KnowledgeDocument> ofBase = repository.documents(command.baseId()).stream()
                .collect(Collectors.toMap(KnowledgeDocument::id, Function.identity()));
        List<KnowledgeDocument> changing = new ArrayList<>();
        for (String id : command.documentIds()) {
            KnowledgeDocument document = ofBase.get(id);
            if (document != null && needsChange(document, action)) {
                changing.add(document);
            }
        }
        Instant now = clock.instant();
        for (KnowledgeDocument document : changing) {
            DocumentLocks.run(document.id(), () -> repository.findDocument(document.id())
                    .filter(current -> differs(current, action))
                    .ifPresent(current -> turn(current, changed(current, action, now), action)));
        }
    }

    private static KnowledgeDocument changed(KnowledgeDocument document, String action, Instant now) {
        return switch (action) {
            case "enable" -> document.withEnabled(true);
            case "disable" -> document.withEnabled(false);
            case "archive" -> document.withArchivedAt(Optional.of(now));
            default -> document.withArchivedAt(Optional.empty());
        };
    }

    /** Whether the action changes the document, refused when its state does not allow it. */
    private static boolean needsChange(KnowledgeDocument document, String action) {
        if (document.status() == DocumentStatus.INDEXING) {
            throw invalid("Document:" + document.name() + " is being indexed, please try again later");
        }
        if (action.equals("disable") && document.status() != DocumentStatus.COMPLETED) {
            throw invalid("Document: " + document.name() + " is not completed.");
        }
        return differs(document, action);
    }

    /** Whether the document is not yet as the action leaves it. */
    private static boolean differs(KnowledgeDocument document, String action) {
        return switch (action) {
            case "enable" -> !document.enabled();
            case "disable" -> document.enabled();
            case "archive" -> !document.archived();
            default -> document.archived();
        };
    }

    private void turn(KnowledgeDocument document, KnowledgeDocument changed, String action) {
        repository.saveDocument(changed);
        String what = action + " of document " + document.id() + " of dataset " + document.baseId();
        // The index holds afterwards what the store holds searchable of it: all its chunks, or none.
        Runnable rebuild = () -> index.rebuildDocument(document.id(), repository);
        if (changed.searchable()) {
            IndexChanges.orUndo(what, rebuild, () -> repository.saveDocument(document));
        } else {
            IndexChanges.afterDeletion(what, rebuild);
        }
    }

    private static KnowledgeException invalid(String message) {
        return new KnowledgeException(Reason.INVALID_ACTION, message);
    }
}
