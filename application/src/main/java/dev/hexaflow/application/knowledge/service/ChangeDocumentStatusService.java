package dev.hexaflow.application.knowledge.service;

import dev.hexaflow.application.knowledge.port.in.ChangeDocumentStatusUseCase;
import dev.hexaflow.application.knowledge.port.in.KnowledgeException;
import dev.hexaflow.application.knowledge.port.in.KnowledgeException.Reason;
import dev.hexaflow.application.knowledge.port.out.KnowledgeIndex;
import dev.hexaflow.application.knowledge.port.out.KnowledgeRepository;
import dev.hexaflow.domain.knowledge.DocumentStatus;
import dev.hexaflow.domain.knowledge.KnowledgeDocument;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Dify's DocumentService.batch_update_document_status: every named document is checked before any changes (one
 * indexing, or one to disable that never completed, refuses them all), a document already so or unknown is passed
 * over, and each change is kept in the store before the index is told. A disabled document leaves the index; an
 * enabled one that completed goes back with its enabled chunks. Hexaflow keeps no archived documents: each is
 * un-archived already, and {@code archive} is refused rather than pretended.
 */
public final class ChangeDocumentStatusService implements ChangeDocumentStatusUseCase {

    /** Dify's valid actions, in its order: its refusal of another lists them so. */
    private static final List<String> ACTIONS = List.of("enable", "disable", "archive", "un_archive");

    private final KnowledgeRepository repository;
    private final KnowledgeIndex index;

    public ChangeDocumentStatusService(KnowledgeRepository repository, KnowledgeIndex index) {
        this.repository = repository;
        this.index = index;
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
        if (action.equals("archive")) {
            throw invalid("Hexaflow keeps no archived documents: archive is not supported.");
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
        boolean enable = action.equals("enable");
        for (KnowledgeDocument document : changing) {
            DocumentLocks.run(document.id(), () -> repository.findDocument(document.id())
                    .filter(now -> now.enabled() != enable).ifPresent(now -> turn(now, enable)));
        }
    }

    /** Whether the action changes the document, refused when its state does not allow it. */
    private static boolean needsChange(KnowledgeDocument document, String action) {
        if (document.status() == DocumentStatus.INDEXING) {
            throw invalid("Document:" + document.name() + " is being indexed, please try again later");
        }
        return switch (action) {
            case "enable" -> !document.enabled();
            case "disable" -> {
                if (document.status() != DocumentStatus.COMPLETED) {
                    throw invalid("Document: " + document.name() + " is not completed.");
                }
                yield document.enabled();
            }
            default -> false;
        };
    }

    private void turn(KnowledgeDocument document, boolean enable) {
        repository.saveDocument(document.withEnabled(enable));
        String what = (enable ? "enabling" : "disabling") + " document " + document.id() + " of dataset "
                + document.baseId();
        // The index holds afterwards what the store holds searchable of it: all its chunks, or none.
        Runnable rebuild = () -> index.rebuildDocument(document.id(), repository);
        if (enable) {
            IndexChanges.orUndo(what, rebuild, () -> repository.saveDocument(document));
        } else {
            IndexChanges.afterDeletion(what, rebuild);
        }
    }

    private static KnowledgeException invalid(String message) {
        return new KnowledgeException(Reason.INVALID_ACTION, message);
    }
}
