package dev.hexaflow.application.knowledge.service;

import dev.hexaflow.application.common.StorageUnavailableException;
import dev.hexaflow.application.common.port.out.StorageHealth;
import dev.hexaflow.application.knowledge.port.in.AddChunksCommand;
import dev.hexaflow.application.knowledge.port.in.EditChunkCommand;
import dev.hexaflow.application.knowledge.port.in.KnowledgeException;
import dev.hexaflow.application.knowledge.port.in.ManageDocumentsUseCase;
import dev.hexaflow.application.knowledge.port.out.Embeddings;
import dev.hexaflow.application.knowledge.port.out.KnowledgeIndex;
import dev.hexaflow.application.knowledge.port.out.KnowledgeRepository;
import dev.hexaflow.application.knowledge.port.out.StoredChildChunk;
import dev.hexaflow.application.knowledge.port.out.StoredChunk;
import dev.hexaflow.domain.knowledge.ChildChunk;
import dev.hexaflow.domain.knowledge.Chunk;
import dev.hexaflow.domain.knowledge.DocumentStatus;
import dev.hexaflow.domain.knowledge.KnowledgeBase;
import dev.hexaflow.domain.knowledge.KnowledgeDocument;
import dev.hexaflow.domain.knowledge.TextMeasure;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Documents and their chunks. The repository changes first and the index after: a search resolves its hits in the
 * repository, so a deleted document is gone from results even before the index forgets it.
 */
public final class ManageDocumentsService implements ManageDocumentsUseCase {

    private final KnowledgeRepository repository;
    private final KnowledgeIndex index;
    private final Indexing indexing;
    private final Supplier<String> ids;
    private final StorageHealth storage;

    /** @param storage new chunks and edits are refused while the store takes no new work (deletions go on) */
    public ManageDocumentsService(KnowledgeRepository repository, KnowledgeIndex index, Embeddings embeddings,
            Supplier<String> ids, StorageHealth storage) {
        this.storage = storage;
        this.repository = repository;
        this.index = index;
        this.indexing = new Indexing(repository, index, embeddings);
        this.ids = ids;
    }

    @Override
    public List<KnowledgeDocument> documents(String baseId) {
        base(baseId);
        return repository.documents(baseId);
    }

    @Override
    public Optional<KnowledgeDocument> document(String documentId) {
        return repository.findDocument(documentId);
    }

    @Override
    public void delete(String documentId) {
        DocumentLocks.run(documentId, () -> {
            editable(documentId);
            repository.deleteDocument(documentId);
            IndexChanges.afterDeletion("deleting document " + documentId, () -> index.removeDocument(documentId));
        });
    }

    @Override
    public List<Chunk> chunks(String documentId) {
        return repository.chunks(documentId).stream().map(StoredChunk::chunk).toList();
    }

    @Override
    public void deleteChunk(String documentId, String chunkId) {
        DocumentLocks.run(documentId, () -> {
            editable(documentId);
            List<StoredChunk> chunks = repository.chunks(documentId);
            List<StoredChunk> kept = chunks.stream().filter(c -> !c.id().equals(chunkId)).toList();
            if (kept.size() == chunks.size()) {
                throw new KnowledgeException(KnowledgeException.Reason.NOT_FOUND, "Segment not found.");
            }
            List<StoredChildChunk> children = repository.childChunks(documentId);
            repository.replaceChunks(documentId, kept);
            repository.replaceChildChunks(documentId, children.stream()
                    .filter(c -> !c.child().segmentId().equals(chunkId)).toList());
            IndexChanges.afterDeletion("deleting segment " + chunkId + " of document " + documentId, () -> {
                index.remove(documentId, chunkId);
                children.stream().filter(c -> c.child().segmentId().equals(chunkId))
                        .forEach(c -> index.remove(documentId, c.id()));
            });
        });
    }

    @Override
    public List<Chunk> addChunks(AddChunksCommand command) {
        StorageRoom.require(storage);
        return DocumentLocks.with(command.documentId(), () -> {
            KnowledgeDocument document = editable(command.documentId());
            if (document.status() != DocumentStatus.COMPLETED) {
                throw new KnowledgeException(KnowledgeException.Reason.NOT_FOUND, "Document is not completed.");
            }
            if (!document.enabled()) {
                throw new KnowledgeException(KnowledgeException.Reason.NOT_FOUND, "Document is disabled.");
            }
            if (command.chunks().isEmpty()) {
                throw new KnowledgeException(KnowledgeException.Reason.INVALID, "Segments is required");
            }
            if (command.chunks().size() > AddChunksCommand.MAX_CHUNKS) {
                throw new KnowledgeException(KnowledgeException.Reason.INVALID, "At most " + AddChunksCommand.MAX_CHUNKS
                        + " segments can be created at once, not " + command.chunks().size() + ".");
            }
            KnowledgeBase base = base(document.baseId());
            List<StoredChunk> kept = repository.chunks(document.id());
            int position = kept.stream().mapToInt(c -> c.chunk().position()).max().orElse(0);
            List<StoredChunk> added = new ArrayList<>();
            for (AddChunksCommand.NewChunk item : command.chunks()) {
                String text = item.content() == null ? "" : item.content();
                if (text.isBlank()) {
                    throw new KnowledgeException(KnowledgeException.Reason.INVALID, "Content is empty");
                }
                added.add(StoredChunk.of(new Chunk(ids.get(), document.id(), base.id(), ++position, text,
                        TextMeasure.words(text), TextMeasure.tokens(text), item.keywords(), TextMeasure.hash(text), 0,
                        true), null));
            }
            if (!base.keywordOnly()) {
                try {
                    added = indexing.embedded(base, added);
                } catch (Embeddings.EmbeddingException e) {
                    throw new KnowledgeException(KnowledgeException.Reason.INVALID, "The segments were not added: "
                            + e.getMessage());
                }
            }
            List<StoredChunk> all = new ArrayList<>(kept);
            all.addAll(added);
            List<StoredChildChunk> children = repository.childChunks(document.id());
            repository.replaceChunks(document.id(), all);
            repository.replaceChildChunks(document.id(), children);
            List<StoredChunk> searchable = added;
            IndexChanges.orUndo("adding " + added.size() + " segments to document " + document.id() + " of dataset "
                    + base.id(), () -> index.add(searchable), () -> {
                        repository.replaceChunks(document.id(), kept);
                        repository.replaceChildChunks(document.id(), children);
                    });
            return added.stream().map(StoredChunk::chunk).toList();
        });
    }

    @Override
    public Chunk edit(EditChunkCommand command) {
        StorageRoom.require(storage);
        return DocumentLocks.with(command.documentId(), () -> {
            KnowledgeDocument document = editable(command.documentId());
            StoredChunk stored = repository.findChunks(List.of(command.chunkId())).stream()
                    .filter(c -> c.chunk().documentId().equals(document.id())).findFirst().orElseThrow(() ->
                            new KnowledgeException(KnowledgeException.Reason.NOT_FOUND, "Segment not found."));
            Chunk chunk = stored.chunk();
            StoredChunk edited = stored;
            if (command.content().isPresent() && !command.content().get().equals(chunk.content())) {
                try {
                    chunk = chunk.withContent(command.content().get());
                } catch (IllegalArgumentException e) {
                    throw new KnowledgeException(KnowledgeException.Reason.INVALID, e.getMessage());
                }
                KnowledgeBase base = base(document.baseId());
                edited = StoredChunk.of(chunk, null);
                if (!base.keywordOnly()) {
                    try {
                        edited = indexing.embedded(base, List.of(edited)).get(0);
                    } catch (Embeddings.EmbeddingException e) {
                        throw new KnowledgeException(KnowledgeException.Reason.INVALID, "The segment was not changed: "
                                + e.getMessage());
                    }
                }
            }
            if (command.enabled().isPresent()) {
                edited = new StoredChunk(edited.chunk().withEnabled(command.enabled().get()), edited.vector());
            }
            repository.saveChunk(edited);
            StoredChunk changed = edited;
            IndexChanges.orUndo("changing segment " + stored.id() + " of document " + document.id() + " of dataset "
                    + document.baseId(), () -> reindex(document, changed), () -> {
                        repository.saveChunk(stored);
                        reindexQuietly(document, stored);
                    });
            return edited.chunk();
        });
    }

    @Override
    public Optional<float[]> vector(String chunkId) {
        return repository.findChunks(List.of(chunkId)).stream().findFirst().flatMap(StoredChunk::vector);
    }

    /** As {@link #reindex}, for an undo: an index that fails again is rebuilt at the next start. */
    private void reindexQuietly(KnowledgeDocument document, StoredChunk chunk) {
        try {
            reindex(document, chunk);
        } catch (StorageUnavailableException e) {
            // The index is out of step with the store, whose count the next start checks.
        }
    }

    /** Puts the chunk back in the index as it is now: itself, or its children when it has some. */
    private void reindex(KnowledgeDocument document, StoredChunk chunk) {
        List<StoredChildChunk> children = childrenOf(document.id(), chunk.id());
        index.remove(document.id(), chunk.id());
        children.forEach(c -> index.remove(document.id(), c.id()));
        if (document.searchable()) {
            index.add(Indexing.searchable(List.of(chunk), children));
        }
    }

    private List<StoredChildChunk> childrenOf(String documentId, String segmentId) {
        return repository.childChunks(documentId).stream().filter(c -> c.child().segmentId().equals(segmentId))
                .toList();
    }

    @Override
    public List<ChildChunk> childChunks(String documentId) {
        return repository.childChunks(documentId).stream().map(StoredChildChunk::child).toList();
    }

    @Override
    public List<ChildChunk> childChunks(String documentId, String segmentId) {
        StoredChunk parent = segment(documentId, segmentId);
        return childrenOf(documentId, parent.id()).stream().map(StoredChildChunk::child).toList();
    }

    @Override
    public ChildChunk addChildChunk(String documentId, String segmentId, String content) {
        StorageRoom.require(storage);
        return DocumentLocks.with(documentId, () -> {
            StoredChunk parent = segment(documentId, segmentId);
            KnowledgeDocument document = editable(documentId);
            int position = childrenOf(documentId, parent.id()).stream().mapToInt(c -> c.child().position()).max()
                    .orElse(0);
            StoredChildChunk child = embedded(document, StoredChildChunk.of(childChunk(() -> new ChildChunk(
                    ids.get(), parent.id(), documentId, parent.chunk().baseId(), position + 1, content)), null),
                    "added");
            repository.saveChildChunk(child);
            IndexChanges.orUndo("adding a child chunk to segment " + parent.id() + " of document " + documentId,
                    () -> reindex(document, parent), () -> {
                        repository.deleteChildChunk(child.id());
                        reindexQuietly(document, parent);
                    });
            return child.child();
        });
    }

    @Override
    public ChildChunk editChildChunk(String documentId, String segmentId, String childId, String content) {
        StorageRoom.require(storage);
        return DocumentLocks.with(documentId, () -> {
            StoredChunk parent = segment(documentId, segmentId);
            KnowledgeDocument document = editable(documentId);
            StoredChildChunk current = child(documentId, parent.id(), childId);
            StoredChildChunk edited = embedded(document, StoredChildChunk.of(childChunk(() ->
                    current.child().withContent(content)), null), "changed");
            repository.saveChildChunk(edited);
            IndexChanges.orUndo("changing child chunk " + childId + " of document " + documentId,
                    () -> reindex(document, parent), () -> {
                        repository.saveChildChunk(current);
                        reindexQuietly(document, parent);
                    });
            return edited.child();
        });
    }

    @Override
    public void deleteChildChunk(String documentId, String segmentId, String childId) {
        DocumentLocks.run(documentId, () -> {
            StoredChunk parent = segment(documentId, segmentId);
            KnowledgeDocument document = editable(documentId);
            repository.deleteChildChunk(child(documentId, parent.id(), childId).id());
            IndexChanges.afterDeletion("deleting child chunk " + childId + " of document " + documentId, () -> {
                index.remove(documentId, childId);
                reindex(document, parent);
            });
        });
    }

    /** The document, refused when unknown or archived (Dify's archived_document_immutable). */
    private KnowledgeDocument editable(String documentId) {
        KnowledgeDocument document = document(documentId).orElseThrow(() -> new KnowledgeException(
                KnowledgeException.Reason.NOT_FOUND, "Document not found."));
        if (document.archived()) {
            throw KnowledgeException.archived();
        }
        return document;
    }

    private StoredChunk segment(String documentId, String segmentId) {
        document(documentId).orElseThrow(() -> new KnowledgeException(KnowledgeException.Reason.NOT_FOUND,
                "Document not found."));
        return repository.findChunks(List.of(segmentId)).stream()
                .filter(c -> c.chunk().documentId().equals(documentId)).findFirst().orElseThrow(() ->
                        new KnowledgeException(KnowledgeException.Reason.NOT_FOUND, "Segment not found."));
    }

    private StoredChildChunk child(String documentId, String segmentId, String childId) {
        return childrenOf(documentId, segmentId).stream().filter(c -> c.id().equals(childId)).findFirst()
                .orElseThrow(() -> new KnowledgeException(KnowledgeException.Reason.NOT_FOUND,
                        "Child chunk not found."));
    }

    private StoredChildChunk embedded(KnowledgeDocument document, StoredChildChunk child, String verb) {
        KnowledgeBase base = base(document.baseId());
        if (base.keywordOnly()) {
            return child;
        }
        try {
            return indexing.embeddedChildren(base, List.of(child)).get(0);
        } catch (Embeddings.EmbeddingException e) {
            throw new KnowledgeException(KnowledgeException.Reason.INVALID, "The child chunk was not " + verb + ": "
                    + e.getMessage());
        }
    }

    private static ChildChunk childChunk(Supplier<ChildChunk> child) {
        try {
            return child.get();
        } catch (IllegalArgumentException e) {
            throw new KnowledgeException(KnowledgeException.Reason.INVALID, e.getMessage());
        }
    }

    private KnowledgeBase base(String baseId) {
        return repository.findBase(baseId).orElseThrow(() -> new KnowledgeException(
                KnowledgeException.Reason.NOT_FOUND, "Dataset not found."));
    }
}
