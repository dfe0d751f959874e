package dev.hexaflow.application.knowledge.service;

import dev.hexaflow.application.knowledge.port.in.AddChunksCommand;
import dev.hexaflow.application.knowledge.port.in.EditChunkCommand;
import dev.hexaflow.application.knowledge.port.in.KnowledgeException;
import dev.hexaflow.application.knowledge.port.in.ManageDocumentsUseCase;
import dev.hexaflow.application.knowledge.port.out.Embeddings;
import dev.hexaflow.application.knowledge.port.out.KnowledgeIndex;
import dev.hexaflow.application.knowledge.port.out.KnowledgeRepository;
import dev.hexaflow.application.knowledge.port.out.StoredChunk;
import dev.hexaflow.domain.knowledge.Chunk;
import dev.hexaflow.domain.knowledge.KnowledgeBase;
import dev.hexaflow.domain.knowledge.DocumentStatus;
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

    public ManageDocumentsService(KnowledgeRepository repository, KnowledgeIndex index, Embeddings embeddings,
            Supplier<String> ids) {
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
            document(documentId).orElseThrow(() -> new KnowledgeException(KnowledgeException.Reason.NOT_FOUND,
                    "Document not found."));
            repository.deleteDocument(documentId);
            index.removeDocument(documentId);
        });
    }

    @Override
    public List<Chunk> chunks(String documentId) {
        return repository.chunks(documentId).stream().map(StoredChunk::chunk).toList();
    }

    @Override
    public void deleteChunk(String documentId, String chunkId) {
        DocumentLocks.run(documentId, () -> {
            document(documentId).orElseThrow(() -> new KnowledgeException(KnowledgeException.Reason.NOT_FOUND,
                    "Document not found."));
            List<StoredChunk> chunks = repository.chunks(documentId);
            List<StoredChunk> kept = chunks.stream().filter(c -> !c.id().equals(chunkId)).toList();
            if (kept.size() == chunks.size()) {
                throw new KnowledgeException(KnowledgeException.Reason.NOT_FOUND, "Segment not found.");
            }
            repository.replaceChunks(documentId, kept);
            index.remove(chunkId);
        });
    }

    @Override
    public List<Chunk> addChunks(AddChunksCommand command) {
        return DocumentLocks.with(command.documentId(), () -> {
            KnowledgeDocument document = document(command.documentId()).orElseThrow(() ->
                    new KnowledgeException(KnowledgeException.Reason.NOT_FOUND, "Document not found."));
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
            repository.replaceChunks(document.id(), all);
            index.add(added);
            return added.stream().map(StoredChunk::chunk).toList();
        });
    }

    @Override
    public Chunk edit(EditChunkCommand command) {
        return DocumentLocks.with(command.documentId(), () -> {
            KnowledgeDocument document = document(command.documentId()).orElseThrow(() ->
                    new KnowledgeException(KnowledgeException.Reason.NOT_FOUND, "Document not found."));
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
            index.remove(edited.id());
            if (edited.chunk().enabled() && document.searchable()) {
                index.add(List.of(edited));
            }
            return edited.chunk();
        });
    }

    @Override
    public Optional<float[]> vector(String chunkId) {
        return repository.findChunks(List.of(chunkId)).stream().findFirst().flatMap(StoredChunk::vector);
    }

    private KnowledgeBase base(String baseId) {
        return repository.findBase(baseId).orElseThrow(() -> new KnowledgeException(
                KnowledgeException.Reason.NOT_FOUND, "Dataset not found."));
    }
}
