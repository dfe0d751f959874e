package dev.hexaflow.application.knowledge.service;

import dev.hexaflow.application.common.StorageUnavailableException;
import dev.hexaflow.application.knowledge.port.out.Embeddings;
import dev.hexaflow.application.knowledge.port.out.KnowledgeIndex;
import dev.hexaflow.application.knowledge.port.out.KnowledgeRepository;
import dev.hexaflow.application.knowledge.port.out.StoredChildChunk;
import dev.hexaflow.application.knowledge.port.out.StoredChunk;
import dev.hexaflow.domain.knowledge.KnowledgeBase;
import dev.hexaflow.domain.knowledge.KnowledgeDocument;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Indexes a document from its kept chunks: embeds them when the base has a model, then hands them to the index. It
 * ends {@code completed}, or {@code error} with the reason (its chunks kept for another try), which one warning of
 * the log names with the base and the document.
 */
final class Indexing {

    /** Texts per embeddings call: OpenAI takes up to 2048, smaller batches keep one failure cheap. */
    static final int BATCH = 64;

    private static final System.Logger LOG = System.getLogger(Indexing.class.getName());

    private final KnowledgeRepository repository;
    private final KnowledgeIndex index;
    private final Embeddings embeddings;

    Indexing(KnowledgeRepository repository, KnowledgeIndex index, Embeddings embeddings) {
        this.repository = repository;
        this.index = index;
        this.embeddings = embeddings;
    }

    /**
     * Indexes the document, kept {@code indexing} with its chunks. An embedding that failed ends it {@code error},
     * answered. A store that failed (the index or the database could not be written) ends it {@code error} too, as
     * far as the store still takes that, and is thrown on: the caller is refused with the store's reason.
     */
    KnowledgeDocument index(KnowledgeBase base, KnowledgeDocument document) {
        IndexingInFlight.begin(document.id());
        try {
            return indexKept(base, document);
        } catch (StorageUnavailableException e) {
            fail(base, document, e.getMessage(), e);
            throw e;
        } catch (RuntimeException e) {
            // Not the client's fault and not one it can mend: the reason it reads says so, the log says the rest.
            fail(base, document, "Indexing failed unexpectedly (" + e.getClass().getSimpleName() + "); the "
                    + "server's log says why.", e);
            throw e;
        } finally {
            IndexingInFlight.end(document.id());
        }
    }

    private KnowledgeDocument indexKept(KnowledgeBase base, KnowledgeDocument document) {
        List<StoredChunk> chunks = repository.chunks(document.id());
        List<StoredChildChunk> children = repository.childChunks(document.id());
        if (!base.keywordOnly()) {
            try {
                // A parent is searched through its children: only the searched texts need vectors.
                if (children.isEmpty()) {
                    chunks = embedded(base, chunks);
                    repository.replaceChunks(document.id(), chunks);
                } else {
                    children = embeddedChildren(base, children);
                    repository.replaceChildChunks(document.id(), children);
                }
            } catch (Embeddings.EmbeddingException e) {
                return fail(base, document, e.getMessage(), null);
            }
        }
        KnowledgeDocument completed = document.completed();
        // Completed in the store before the index is told: another instance rebuilds the document from the store
        // when told, and finds it searchable.
        repository.saveDocument(completed);
        index.removeDocument(document.id());
        if (completed.searchable()) {
            index.add(searchable(chunks, children));
        }
        return completed;
    }

    /**
     * Keeps the document {@code error} with the reason and logs it once. When the store cannot keep even that (the
     * failure was its own), the document stays {@code indexing} until the store recovers or the server starts
     * again, both of which end it {@code error}.
     */
    private KnowledgeDocument fail(KnowledgeBase base, KnowledgeDocument document, String reason, Throwable cause) {
        KnowledgeDocument failed = document.failed(reason);
        String kept = "";
        try {
            repository.saveDocument(failed);
        } catch (RuntimeException e) {
            if (cause == null) {
                throw e;
            }
            cause.addSuppressed(e);
            kept = " (not kept yet: the store refused that too; it is once the store recovers)";
        }
        String why = cause == null || cause instanceof StorageUnavailableException ? "" : " [" + cause + "]";
        LOG.log(System.Logger.Level.WARNING, "Document " + document.id() + " (" + document.name() + ") of dataset "
                + base.id() + " ends in error" + kept + ": " + reason + why);
        return failed;
    }

    /** What the index holds of these chunks: each enabled one, or its children when it has some. */
    static List<StoredChunk> searchable(List<StoredChunk> chunks, List<StoredChildChunk> children) {
        Map<String, List<StoredChildChunk>> bySegment = children.stream()
                .collect(Collectors.groupingBy(c -> c.child().segmentId()));
        List<StoredChunk> entries = new ArrayList<>();
        for (StoredChunk chunk : chunks) {
            if (chunk.chunk().enabled()) {
                List<StoredChildChunk> its = bySegment.getOrDefault(chunk.id(), List.of());
                if (its.isEmpty()) {
                    entries.add(chunk);
                } else {
                    its.forEach(child -> entries.add(child.searchable()));
                }
            }
        }
        return entries;
    }

    /** The children with vectors from the base's model. */
    List<StoredChildChunk> embeddedChildren(KnowledgeBase base, List<StoredChildChunk> children) {
        List<StoredChunk> vectors = embedded(base, children.stream().map(StoredChildChunk::searchable).toList());
        List<StoredChildChunk> out = new ArrayList<>(children.size());
        for (int i = 0; i < children.size(); i++) {
            out.add(new StoredChildChunk(children.get(i).child(), vectors.get(i).vector()));
        }
        return out;
    }

    /** The chunks with vectors from the base's model, which must be the one configured now. */
    List<StoredChunk> embedded(KnowledgeBase base, List<StoredChunk> chunks) {
        String model = base.embeddingModel().orElseThrow();
        if (!embeddings.model().map(model::equals).orElse(false)) {
            throw new Embeddings.EmbeddingException("the base's embedding model " + model + " is not the one "
                    + "configured (" + embeddings.model().orElse("none: HEXAFLOW_EMBEDDING_MODEL is not set") + ")",
                    null);
        }
        List<StoredChunk> out = new ArrayList<>(chunks.size());
        for (int from = 0; from < chunks.size(); from += BATCH) {
            List<StoredChunk> batch = chunks.subList(from, Math.min(chunks.size(), from + BATCH));
            List<float[]> vectors = embeddings.embed(batch.stream().map(c -> c.chunk().content()).toList());
            if (vectors.size() != batch.size()) {
                throw new Embeddings.EmbeddingException("the embeddings endpoint answered " + vectors.size()
                        + " vectors for " + batch.size() + " texts", null);
            }
            for (int i = 0; i < batch.size(); i++) {
                out.add(StoredChunk.of(batch.get(i).chunk(), vectors.get(i)));
            }
        }
        return out;
    }
}
