package dev.hexaflow.application.knowledge.service;

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
 * Indexes a document from its kept chunks: embeds them when the base has a model (a failure leaves the document
 * {@code error} with the reason, its chunks kept for a retry), then hands them to the index.
 */
final class Indexing {

    /** Texts per embeddings call: OpenAI takes up to 2048, smaller batches keep one failure cheap. */
    static final int BATCH = 64;

    private final KnowledgeRepository repository;
    private final KnowledgeIndex index;
    private final Embeddings embeddings;

    Indexing(KnowledgeRepository repository, KnowledgeIndex index, Embeddings embeddings) {
        this.repository = repository;
        this.index = index;
        this.embeddings = embeddings;
    }

    KnowledgeDocument index(KnowledgeBase base, KnowledgeDocument document) {
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
                KnowledgeDocument failed = document.failed(e.getMessage());
                repository.saveDocument(failed);
                return failed;
            }
        }
        KnowledgeDocument completed = document.completed();
        // Completed in the store before the index is told: another instance rebuilds the document from the store
        // when told, and finds it searchable.
        repository.saveDocument(completed);
        try {
            index.removeDocument(document.id());
            if (completed.enabled()) {
                index.add(searchable(chunks, children));
            }
        } catch (RuntimeException e) {
            // The chunks are kept; the document says it is not searchable yet, and can be retried.
            KnowledgeDocument failed = document.failed("the search index could not be written: " + e.getMessage());
            repository.saveDocument(failed);
            return failed;
        }
        return completed;
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
