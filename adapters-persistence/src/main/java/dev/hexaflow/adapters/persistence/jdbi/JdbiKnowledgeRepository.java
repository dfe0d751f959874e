package dev.hexaflow.adapters.persistence.jdbi;

import dev.hexaflow.application.knowledge.port.out.KnowledgeRepository;
import dev.hexaflow.application.knowledge.port.out.StoredChildChunk;
import dev.hexaflow.application.knowledge.port.out.StoredChunk;
import dev.hexaflow.domain.knowledge.KnowledgeBase;
import dev.hexaflow.domain.knowledge.KnowledgeDocument;
import dev.hexaflow.domain.knowledge.KnowledgeTag;
import dev.hexaflow.domain.knowledge.MetadataField;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.jdbi.v3.core.Jdbi;

/**
 * Knowledge bases, documents and chunks in {@code knowledge_base}, {@code knowledge_document}, {@code knowledge_chunk},
 * the ids bound to bases in {@code knowledge_alias}, tags in {@code knowledge_tag} and
 * {@code knowledge_tag_binding}, metadata fields in {@code knowledge_metadata_field}, and child chunks in {@code knowledge_child_chunk}.
 * Each kind is kept by a class of its own: {@link JdbiKnowledgeBases} (with the aliases), {@link JdbiKnowledgeTags},
 * {@link JdbiKnowledgeDocuments}, {@link JdbiKnowledgeMetadata} and {@link JdbiKnowledgeChunks} (with the children).
 */
public final class JdbiKnowledgeRepository implements KnowledgeRepository {

    private final JdbiKnowledgeBases bases;
    private final JdbiKnowledgeTags tags;
    private final JdbiKnowledgeDocuments documents;
    private final JdbiKnowledgeMetadata metadata;
    private final JdbiKnowledgeChunks chunks;

    public JdbiKnowledgeRepository(Jdbi jdbi) {
        this(jdbi, null);
    }

    /**
     * @param instanceId the instance that writes here, which each document it saves names, so that the documents an
     *                   instance that died left {@code indexing} can be ended by another
     *                   ({@link #failDocumentsOfLapsedInstances}); null where one instance is alone
     */
    public JdbiKnowledgeRepository(Jdbi jdbi, String instanceId) {
        SqlDialect dialect = SqlDialect.of(jdbi);
        this.bases = new JdbiKnowledgeBases(jdbi, dialect);
        this.tags = new JdbiKnowledgeTags(jdbi, dialect);
        this.documents = new JdbiKnowledgeDocuments(jdbi, dialect, instanceId);
        this.metadata = new JdbiKnowledgeMetadata(jdbi, dialect, documents);
        this.chunks = new JdbiKnowledgeChunks(jdbi, dialect);
    }

    @Override
    public void saveBase(KnowledgeBase base) {
        bases.saveBase(base);
    }

    @Override
    public Optional<KnowledgeBase> findBase(String id) {
        return bases.findBase(id);
    }

    @Override
    public List<KnowledgeBase> bases() {
        return bases.bases();
    }

    @Override
    public void deleteBase(String id) {
        bases.deleteBase(id);
    }

    @Override
    public void saveTag(KnowledgeTag tag) {
        tags.saveTag(tag);
    }

    @Override
    public Optional<KnowledgeTag> findTag(String id) {
        return tags.findTag(id);
    }

    @Override
    public List<KnowledgeTag> tags() {
        return tags.tags();
    }

    @Override
    public void deleteTag(String id) {
        tags.deleteTag(id);
    }

    @Override
    public void bindTag(String tagId, String baseId) {
        tags.bindTag(tagId, baseId);
    }

    @Override
    public void unbindTag(String tagId, String baseId) {
        tags.unbindTag(tagId, baseId);
    }

    @Override
    public List<KnowledgeTag> tagsOf(String baseId) {
        return tags.tagsOf(baseId);
    }

    @Override
    public int tagBindings(String tagId) {
        return tags.tagBindings(tagId);
    }

    @Override
    public void bindAlias(String datasetId, String baseId) {
        bases.bindAlias(datasetId, baseId);
    }

    @Override
    public boolean unbindAlias(String datasetId) {
        return bases.unbindAlias(datasetId);
    }

    @Override
    public Optional<String> aliasTarget(String datasetId) {
        return bases.aliasTarget(datasetId);
    }

    @Override
    public void saveDocument(KnowledgeDocument d) {
        documents.saveDocument(d);
    }

    @Override
    public void saveDocuments(List<KnowledgeDocument> documents) {
        this.documents.saveDocuments(documents);
    }

    @Override
    public void saveMetadataField(MetadataField field, List<KnowledgeDocument> documents) {
        metadata.saveMetadataField(field, documents);
    }

    @Override
    public Optional<MetadataField> findMetadataField(String id) {
        return metadata.findMetadataField(id);
    }

    @Override
    public List<MetadataField> metadataFields(String baseId) {
        return metadata.metadataFields(baseId);
    }

    @Override
    public void deleteMetadataField(String id, List<KnowledgeDocument> documents) {
        metadata.deleteMetadataField(id, documents);
    }

    @Override
    public boolean builtInMetadataEnabled(String baseId) {
        return metadata.builtInMetadataEnabled(baseId);
    }

    @Override
    public void setBuiltInMetadataEnabled(String baseId, boolean enabled) {
        metadata.setBuiltInMetadataEnabled(baseId, enabled);
    }

    @Override
    public Optional<KnowledgeDocument> findDocument(String id) {
        return documents.findDocument(id);
    }

    @Override
    public List<KnowledgeDocument> documents(String baseId) {
        return documents.documents(baseId);
    }

    @Override
    public Optional<KnowledgeDocument> findDocumentByHash(String baseId, String contentHash) {
        return documents.findDocumentByHash(baseId, contentHash);
    }

    @Override
    public List<KnowledgeDocument> failInterruptedDocuments(String reason, Set<String> spared) {
        return documents.failInterruptedDocuments(reason, spared);
    }

    @Override
    public List<KnowledgeDocument> failDocumentsOfLapsedInstances(String reason, long leaseCutoff) {
        return documents.failDocumentsOfLapsedInstances(reason, leaseCutoff);
    }

    @Override
    public void deleteDocument(String id) {
        documents.deleteDocument(id);
    }

    @Override
    public void replaceChunks(String documentId, List<StoredChunk> chunks) {
        this.chunks.replaceChunks(documentId, chunks);
    }

    @Override
    public void saveChunk(StoredChunk chunk) {
        chunks.saveChunk(chunk);
    }

    @Override
    public List<StoredChunk> chunks(String documentId) {
        return chunks.chunks(documentId);
    }

    @Override
    public List<StoredChunk> findChunks(Collection<String> ids) {
        return chunks.findChunks(ids);
    }

    @Override
    public void countHits(Collection<String> chunkIds) {
        chunks.countHits(chunkIds);
    }

    @Override
    public long countSearchableChunks() {
        return chunks.countSearchableChunks();
    }

    @Override
    public void forEachSearchableChunk(Consumer<StoredChunk> sink) {
        chunks.forEachSearchableChunk(sink);
    }

    @Override
    public List<StoredChunk> searchableChunks(String documentId) {
        return chunks.searchableChunks(documentId);
    }

    @Override
    public void replaceChildChunks(String documentId, List<StoredChildChunk> children) {
        chunks.replaceChildChunks(documentId, children);
    }

    @Override
    public void saveChildChunk(StoredChildChunk child) {
        chunks.saveChildChunk(child);
    }

    @Override
    public void deleteChildChunk(String id) {
        chunks.deleteChildChunk(id);
    }

    @Override
    public List<StoredChildChunk> childChunks(String documentId) {
        return chunks.childChunks(documentId);
    }

    @Override
    public List<StoredChildChunk> findChildChunks(Collection<String> ids) {
        return chunks.findChildChunks(ids);
    }
}
