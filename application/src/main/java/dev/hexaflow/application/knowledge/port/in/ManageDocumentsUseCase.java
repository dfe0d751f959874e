package dev.hexaflow.application.knowledge.port.in;

import dev.hexaflow.domain.knowledge.ChildChunk;
import dev.hexaflow.domain.knowledge.Chunk;
import dev.hexaflow.domain.knowledge.KnowledgeDocument;
import java.util.List;
import java.util.Optional;

/**
 * Lists and deletes a base's documents, and lists and edits their chunks and child chunks. Adding and editing
 * chunks is new work, refused with a {@link dev.hexaflow.application.common.StorageUnavailableException} while the
 * store takes none, or when the index cannot take the change (which is then undone); deletions go on.
 */
public interface ManageDocumentsUseCase {

    /** @throws KnowledgeException NOT_FOUND for an unknown base */
    List<KnowledgeDocument> documents(String baseId);

    Optional<KnowledgeDocument> document(String documentId);

    /** Deletes the document and its chunks: gone from searches when this returns. */
    void delete(String documentId);

    /** The document's chunks by position. */
    List<Chunk> chunks(String documentId);

    /**
     * Deletes one chunk of the document: gone from searches when this returns.
     *
     * @throws KnowledgeException NOT_FOUND for an unknown document or a chunk it does not have
     */
    void deleteChunk(String documentId, String chunkId);

    /**
     * Adds chunks after the document's last, embedded when its base has a model and searchable when this returns;
     * none is kept when one cannot be embedded.
     *
     * @throws KnowledgeException NOT_FOUND for an unknown document, or one not completed or disabled; INVALID for no
     *     chunk, more than {@link AddChunksCommand#MAX_CHUNKS}, a blank text, or an embedding that failed
     */
    List<Chunk> addChunks(AddChunksCommand command);

    /** Edits a chunk, embedded and indexed again when its text changed. */
    Chunk edit(EditChunkCommand command);

    /** The chunk's vector as kept, empty when it has none (a keyword-only base, or an embedding that failed). */
    Optional<float[]> vector(String chunkId);

    /** The document's child chunks, by their parent's position and their own; none for a {@code text_model} one. */
    List<ChildChunk> childChunks(String documentId);

    /**
     * The children of one chunk of the document.
     *
     * @throws KnowledgeException NOT_FOUND for an unknown document or a chunk it does not have
     */
    List<ChildChunk> childChunks(String documentId, String segmentId);

    /**
     * Adds a child after the chunk's last, embedded when its base has a model and searchable when this returns; the
     * chunk is searched through its children from then on.
     *
     * @throws KnowledgeException NOT_FOUND as for {@link #childChunks(String, String)}; INVALID for a blank text or
     *     an embedding that failed (nothing is kept then)
     */
    ChildChunk addChildChunk(String documentId, String segmentId, String content);

    /** Changes a child's text, embedded and indexed again. Errors as for {@link #addChildChunk}, and NOT_FOUND. */
    ChildChunk editChildChunk(String documentId, String segmentId, String childId, String content);

    /** Deletes a child: gone from searches when this returns. @throws KnowledgeException NOT_FOUND */
    void deleteChildChunk(String documentId, String segmentId, String childId);
}
