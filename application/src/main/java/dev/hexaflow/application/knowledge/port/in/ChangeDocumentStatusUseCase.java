package dev.hexaflow.application.knowledge.port.in;

import java.util.LinkedHashSet;
import java.util.List;

/**
 * Turns a base's documents on or off for searches, many at once, as Dify's {@code PATCH
 * /v1/datasets/{dataset_id}/documents/status/{action}} does.
 */
public interface ChangeDocumentStatusUseCase {

    /**
     * Applies the action to the named documents of the base: each checked first, then each changed, so that a
     * refusal changes none. A document already so, or not of the base, is passed over, as Dify does.
     *
     * @throws KnowledgeException NOT_FOUND for an unknown base; INVALID_ACTION for an action Dify does not have,
     *     a document still indexing, or one to disable that did not complete
     */
    void change(ChangeDocumentStatusCommand command);

    /** @param documentIds each once, in the order given; none changes nothing (any action, as Dify) */
    record ChangeDocumentStatusCommand(String baseId, String action, List<String> documentIds) {

        public ChangeDocumentStatusCommand {
            documentIds = documentIds == null ? List.of() : List.copyOf(new LinkedHashSet<>(documentIds));
        }
    }
}
