package dev.hexaflow.application.knowledge.port.in;

import dev.hexaflow.domain.knowledge.KnowledgeDocument;

/**
 * Adds a document to a base: split, kept, embedded when the base has a model, and indexed. Each call is new work,
 * refused with a {@link dev.hexaflow.application.common.StorageUnavailableException} while the store takes none (its
 * disk nearly full, or writes to it failing); one whose index or database could not be written is refused so too,
 * its document left {@code error} with the reason as far as the store still takes that.
 */
public interface AddDocumentUseCase {

    /**
     * Adds the document and answers it {@code completed}, or {@code error} with the reason when embedding failed
     * (its chunks are kept, and {@link #retry} indexes it again). The same content added again to the same base
     * answers the document already there, indexed again first when it is in {@code error}.
     *
     * @throws KnowledgeException NOT_FOUND for an unknown base, INVALID for a file that cannot be read, no text, or
     *     rules that would split it into more chunks than one document may have (nothing is kept then)
     */
    KnowledgeDocument add(AddDocumentCommand command);

    /**
     * Replaces a document's text (Dify's update-by-text): the same document, split again into new chunks, which
     * searches find in place of the old ones when this returns.
     *
     * @throws KnowledgeException NOT_FOUND for a document not in the command's base, INVALID as for {@link #add}
     */
    KnowledgeDocument replace(String documentId, AddDocumentCommand command);

    /** Embeds and indexes a document again, from its kept chunks: for one whose embedding failed. */
    KnowledgeDocument retry(String documentId);
}
