package dev.hexaflow.application.knowledge.port.out;

import dev.hexaflow.domain.knowledge.KnowledgeBase;
import dev.hexaflow.domain.knowledge.KnowledgeDocument;
import dev.hexaflow.domain.knowledge.KnowledgeTag;
import dev.hexaflow.domain.knowledge.MetadataField;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Keeps knowledge bases, their documents and chunks with their vectors: the source of truth, from which the search
 * index can always be rebuilt. Deleting a base deletes its documents, bound ids, tag bindings and metadata fields;
 * deleting a document deletes its chunks.
 */
public interface KnowledgeRepository {

    void saveBase(KnowledgeBase base);

    Optional<KnowledgeBase> findBase(String id);

    /** Every base, newest first. */
    List<KnowledgeBase> bases();

    void deleteBase(String id);

    /** Binds another id (an imported app's Dify dataset id) to a base, or binds it anew; the base's deletion unbinds it. */
    void bindAlias(String datasetId, String baseId);

    /** Unbinds the id; answers false when it was not bound. */
    boolean unbindAlias(String datasetId);

    /** The id of the base this id is bound to. */
    Optional<String> aliasTarget(String datasetId);

    void saveTag(KnowledgeTag tag);

    Optional<KnowledgeTag> findTag(String id);

    /** Every tag, oldest first. */
    List<KnowledgeTag> tags();

    /** Deletes the tag and its bindings. */
    void deleteTag(String id);

    /** Binds the tag to the base; binding it again changes nothing. */
    void bindTag(String tagId, String baseId);

    void unbindTag(String tagId, String baseId);

    /** The tags bound to the base, oldest first. */
    List<KnowledgeTag> tagsOf(String baseId);

    /** How many bases the tag is bound to. */
    int tagBindings(String tagId);

    void saveDocument(KnowledgeDocument document);

    /** Saves these documents all at once, or none of them. */
    void saveDocuments(List<KnowledgeDocument> documents);

    /** Saves the metadata field, and with it the documents whose values it changed (a rename), all at once. */
    void saveMetadataField(MetadataField field, List<KnowledgeDocument> documents);

    Optional<MetadataField> findMetadataField(String id);

    /** The base's metadata fields, oldest first. */
    List<MetadataField> metadataFields(String baseId);

    /** Deletes the metadata field and saves the documents that lost its value, all at once. */
    void deleteMetadataField(String id, List<KnowledgeDocument> documents);

    /** Whether the base's documents show Dify's built-in metadata fields; off for a new base. */
    boolean builtInMetadataEnabled(String baseId);

    void setBuiltInMetadataEnabled(String baseId, boolean enabled);

    Optional<KnowledgeDocument> findDocument(String id);

    /** The base's documents, oldest first. */
    List<KnowledgeDocument> documents(String baseId);

    /** The base's document with this content hash, if one was added before. */
    Optional<KnowledgeDocument> findDocumentByHash(String baseId, String contentHash);

    void deleteDocument(String id);

    /**
     * Ends the documents still {@code indexing}, but those in {@code spared}, {@code error} with the reason; answers
     * those it ended, as they now are. Two callers at once end each document once.
     */
    List<KnowledgeDocument> failInterruptedDocuments(String reason, Set<String> spared);

    /**
     * As {@link #failInterruptedDocuments} for the documents last written {@code indexing} by an instance that holds
     * no lease renewed at {@code leaseCutoff} (Unix milliseconds) or after, or by no known instance: instances that
     * share the store end the indexing of one that died. Where one instance is alone on its store (in memory), none
     * is another's: it ends none.
     */
    default List<KnowledgeDocument> failDocumentsOfLapsedInstances(String reason, long leaseCutoff) {
        return List.of();
    }

    /** Replaces the document's chunks with these, all at once. */
    void replaceChunks(String documentId, List<StoredChunk> chunks);

    /** Saves one chunk that already exists (an edit). */
    void saveChunk(StoredChunk chunk);

    /** The document's chunks by position. */
    List<StoredChunk> chunks(String documentId);

    /** The chunks with these ids that exist, in no particular order. */
    List<StoredChunk> findChunks(Collection<String> ids);

    /** Counts one more hit for each of these chunks. */
    void countHits(Collection<String> chunkIds);

    /**
     * Replaces the child chunks of the document's chunks with these, all at once (replacing the document's chunks
     * deletes their children).
     */
    void replaceChildChunks(String documentId, List<StoredChildChunk> children);

    /** Saves one child chunk, new or edited. */
    void saveChildChunk(StoredChildChunk child);

    void deleteChildChunk(String id);

    /** The document's child chunks, by their parent's position, then their own. */
    List<StoredChildChunk> childChunks(String documentId);

    /** The child chunks with these ids that exist, in no particular order. */
    List<StoredChildChunk> findChildChunks(Collection<String> ids);

    /**
     * How many entries searches should find: each enabled chunk of an enabled document that completed indexing,
     * counted once for each of its children when it has some (a parent is searched through its children).
     */
    long countSearchableChunks();

    /**
     * Hands each searchable entry to {@code sink} (a chunk without children, or each child of one with some, as
     * {@link StoredChildChunk#searchable()}), a few at a time, so that an index can be rebuilt.
     */
    void forEachSearchableChunk(Consumer<StoredChunk> sink);

    /** The searchable entries of one document, as {@link #forEachSearchableChunk} hands them: none once it is gone. */
    List<StoredChunk> searchableChunks(String documentId);
}
