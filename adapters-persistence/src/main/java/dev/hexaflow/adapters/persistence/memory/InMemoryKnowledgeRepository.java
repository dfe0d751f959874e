package dev.hexaflow.adapters.persistence.memory;

import dev.hexaflow.application.knowledge.port.out.KnowledgeRepository;
import dev.hexaflow.application.knowledge.port.out.StoredChildChunk;
import dev.hexaflow.application.knowledge.port.out.StoredChunk;
import dev.hexaflow.domain.knowledge.Chunk;
import dev.hexaflow.domain.knowledge.DocumentStatus;
import dev.hexaflow.domain.knowledge.KnowledgeBase;
import dev.hexaflow.domain.knowledge.KnowledgeTag;
import dev.hexaflow.domain.knowledge.KnowledgeDocument;
import dev.hexaflow.domain.knowledge.MetadataField;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/** Knowledge bases, documents and chunks in memory, for tests and a server without a database. */
public final class InMemoryKnowledgeRepository implements KnowledgeRepository {

    private final Map<String, KnowledgeBase> bases = new LinkedHashMap<>();
    private final Map<String, String> aliases = new LinkedHashMap<>();
    private final Map<String, KnowledgeTag> tags = new LinkedHashMap<>();
    /** Tag id and base id, joined by a newline. */
    private final java.util.Set<String> tagBindings = new java.util.LinkedHashSet<>();
    private final Map<String, KnowledgeDocument> documents = new LinkedHashMap<>();
    private final Map<String, StoredChunk> chunks = new LinkedHashMap<>();
    private final Map<String, StoredChildChunk> children = new LinkedHashMap<>();
    private final Map<String, MetadataField> metadataFields = new LinkedHashMap<>();
    private final java.util.Set<String> builtInMetadata = new java.util.HashSet<>();

    @Override
    public synchronized void saveBase(KnowledgeBase base) {
        bases.put(base.id(), base);
    }

    @Override
    public synchronized Optional<KnowledgeBase> findBase(String id) {
        return Optional.ofNullable(bases.get(id));
    }

    @Override
    public synchronized List<KnowledgeBase> bases() {
        return bases.values().stream().sorted(Comparator.comparing(KnowledgeBase::created)
                .thenComparing(KnowledgeBase::id).reversed()).toList();
    }

    @Override
    public synchronized void deleteBase(String id) {
        bases.remove(id);
        metadataFields.values().removeIf(f -> f.baseId().equals(id));
        builtInMetadata.remove(id);
        aliases.values().removeIf(id::equals);
        tagBindings.removeIf(binding -> binding.endsWith("\n" + id));
        documents.values().stream().filter(d -> d.baseId().equals(id)).map(KnowledgeDocument::id).toList()
                .forEach(this::deleteDocument);
    }

    @Override
    public synchronized void saveDocuments(List<KnowledgeDocument> all) {
        all.forEach(this::saveDocument);
    }

    @Override
    public synchronized void saveMetadataField(MetadataField field, List<KnowledgeDocument> changed) {
        metadataFields.put(field.id(), field);
        saveDocuments(changed);
    }

    @Override
    public synchronized Optional<MetadataField> findMetadataField(String id) {
        return Optional.ofNullable(metadataFields.get(id));
    }

    @Override
    public synchronized List<MetadataField> metadataFields(String baseId) {
        return metadataFields.values().stream().filter(f -> f.baseId().equals(baseId))
                .sorted(Comparator.comparing(MetadataField::created).thenComparing(MetadataField::id)).toList();
    }

    @Override
    public synchronized void deleteMetadataField(String id, List<KnowledgeDocument> changed) {
        metadataFields.remove(id);
        saveDocuments(changed);
    }

    @Override
    public synchronized boolean builtInMetadataEnabled(String baseId) {
        return builtInMetadata.contains(baseId);
    }

    @Override
    public synchronized void setBuiltInMetadataEnabled(String baseId, boolean enabled) {
        if (enabled) {
            builtInMetadata.add(baseId);
        } else {
            builtInMetadata.remove(baseId);
        }
    }

    @Override
    public synchronized void saveTag(KnowledgeTag tag) {
        tags.put(tag.id(), tag);
    }

    @Override
    public synchronized Optional<KnowledgeTag> findTag(String id) {
        return Optional.ofNullable(tags.get(id));
    }

    @Override
    public synchronized List<KnowledgeTag> tags() {
        return tags.values().stream().sorted(Comparator.comparing(KnowledgeTag::created)
                .thenComparing(KnowledgeTag::id)).toList();
    }

    @Override
    public synchronized void deleteTag(String id) {
        tags.remove(id);
        tagBindings.removeIf(binding -> binding.startsWith(id + "\n"));
    }

    @Override
    public synchronized void bindTag(String tagId, String baseId) {
        tagBindings.add(tagId + "\n" + baseId);
    }

    @Override
    public synchronized void unbindTag(String tagId, String baseId) {
        tagBindings.remove(tagId + "\n" + baseId);
    }

    @Override
    public synchronized List<KnowledgeTag> tagsOf(String baseId) {
        return tags().stream().filter(tag -> tagBindings.contains(tag.id() + "\n" + baseId)).toList();
    }

    @Override
    public synchronized int tagBindings(String tagId) {
        return (int) tagBindings.stream().filter(binding -> binding.startsWith(tagId + "\n")).count();
    }

    @Override
    public synchronized void bindAlias(String datasetId, String baseId) {
        aliases.put(datasetId, baseId);
    }

    @Override
    public synchronized boolean unbindAlias(String datasetId) {
        return aliases.remove(datasetId) != null;
    }

    @Override
    public synchronized Optional<String> aliasTarget(String datasetId) {
        return Optional.ofNullable(aliases.get(datasetId));
    }

    @Override
    public synchronized void saveDocument(KnowledgeDocument document) {
        documents.put(document.id(), document);
    }

    @Override
    public synchronized Optional<KnowledgeDocument> findDocument(String id) {
        return Optional.ofNullable(documents.get(id));
    }

    @Override
    public synchronized List<KnowledgeDocument> documents(String baseId) {
        return documents.values().stream().filter(d -> d.baseId().equals(baseId))
                .sorted(Comparator.comparing(KnowledgeDocument::created).thenComparing(KnowledgeDocument::id))
                .toList();
    }

    @Override
    public synchronized Optional<KnowledgeDocument> findDocumentByHash(String baseId, String contentHash) {
        return documents(baseId).stream().filter(d -> d.contentHash().equals(contentHash)).findFirst();
    }

    @Override
    public synchronized List<KnowledgeDocument> failInterruptedDocuments(String reason, Set<String> spared) {
        List<KnowledgeDocument> ended = new ArrayList<>();
        for (KnowledgeDocument document : List.copyOf(documents.values())) {
            if (document.status() == DocumentStatus.INDEXING && !spared.contains(document.id())) {
                KnowledgeDocument failed = document.failed(reason);
                documents.put(failed.id(), failed);
                ended.add(failed);
            }
        }
        return ended;
    }

    @Override
    public synchronized void deleteDocument(String id) {
        documents.remove(id);
        chunks.values().removeIf(c -> c.chunk().documentId().equals(id));
        children.values().removeIf(c -> c.child().documentId().equals(id));
    }

    @Override
    public synchronized void replaceChunks(String documentId, List<StoredChunk> replacement) {
        chunks.values().removeIf(c -> c.chunk().documentId().equals(documentId));
        children.values().removeIf(c -> c.child().documentId().equals(documentId));
        replacement.forEach(c -> chunks.put(c.id(), c));
    }

    @Override
    public synchronized void replaceChildChunks(String documentId, List<StoredChildChunk> replacement) {
        children.values().removeIf(c -> c.child().documentId().equals(documentId));
        replacement.forEach(c -> children.put(c.id(), c));
    }

    @Override
    public synchronized void saveChildChunk(StoredChildChunk child) {
        children.put(child.id(), child);
    }

    @Override
    public synchronized void deleteChildChunk(String id) {
        children.remove(id);
    }

    @Override
    public synchronized List<StoredChildChunk> childChunks(String documentId) {
        Map<String, Integer> positions = new java.util.HashMap<>();
        chunks(documentId).forEach(c -> positions.put(c.id(), c.chunk().position()));
        return children.values().stream().filter(c -> c.child().documentId().equals(documentId))
                .filter(c -> positions.containsKey(c.child().segmentId()))
                .sorted(Comparator.<StoredChildChunk>comparingInt(c -> positions.get(c.child().segmentId()))
                        .thenComparingInt(c -> c.child().position())).toList();
    }

    @Override
    public synchronized List<StoredChildChunk> findChildChunks(Collection<String> ids) {
        return ids.stream().distinct().map(children::get).filter(java.util.Objects::nonNull).toList();
    }

    @Override
    public synchronized void saveChunk(StoredChunk chunk) {
        chunks.put(chunk.id(), chunk);
    }

    @Override
    public synchronized List<StoredChunk> chunks(String documentId) {
        return chunks.values().stream().filter(c -> c.chunk().documentId().equals(documentId))
                .sorted(Comparator.comparingInt(c -> c.chunk().position())).toList();
    }

    @Override
    public synchronized List<StoredChunk> findChunks(Collection<String> ids) {
        return ids.stream().distinct().map(chunks::get).filter(java.util.Objects::nonNull).toList();
    }

    @Override
    public synchronized void countHits(Collection<String> chunkIds) {
        for (String id : chunkIds) {
            StoredChunk stored = chunks.get(id);
            if (stored != null) {
                Chunk c = stored.chunk();
                chunks.put(id, new StoredChunk(new Chunk(c.id(), c.documentId(), c.baseId(), c.position(),
                        c.content(), c.wordCount(), c.tokens(), c.keywords(), c.indexNodeHash(), c.hitCount() + 1,
                        c.enabled()), stored.vector()));
            }
        }
    }

    @Override
    public synchronized long countSearchableChunks() {
        return searchable().size();
    }

    @Override
    public void forEachSearchableChunk(Consumer<StoredChunk> sink) {
        searchable().forEach(sink);
    }

    @Override
    public List<StoredChunk> searchableChunks(String documentId) {
        return searchable().stream().filter(c -> c.chunk().documentId().equals(documentId)).toList();
    }

    private synchronized List<StoredChunk> searchable() {
        List<StoredChunk> found = new ArrayList<>();
        Map<String, List<StoredChildChunk>> bySegment = new java.util.HashMap<>();
        children.values().forEach(c -> bySegment.computeIfAbsent(c.child().segmentId(), k -> new ArrayList<>())
                .add(c));
        for (StoredChunk c : chunks.values()) {
            KnowledgeDocument d = documents.get(c.chunk().documentId());
            if (c.chunk().enabled() && d != null && d.searchable()) {
                List<StoredChildChunk> its = bySegment.getOrDefault(c.id(), List.of());
                if (its.isEmpty()) {
                    found.add(c);
                } else {
                    its.forEach(child -> found.add(child.searchable()));
                }
            }
        }
        return found;
    }
}
