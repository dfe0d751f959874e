package dev.hexaflow.application.knowledge;

import dev.hexaflow.adapters.persistence.lucene.LuceneKnowledgeIndex;
import dev.hexaflow.adapters.persistence.memory.InMemoryKnowledgeRepository;
import dev.hexaflow.application.MovableClock;
import dev.hexaflow.application.common.StorageUnavailableException;
import dev.hexaflow.application.common.port.out.StorageHealth;
import dev.hexaflow.application.knowledge.port.in.AddDocumentCommand;
import dev.hexaflow.application.knowledge.port.in.CreateKnowledgeBaseCommand;
import dev.hexaflow.application.knowledge.port.in.RetrieveKnowledgeQuery;
import dev.hexaflow.application.knowledge.port.out.Embeddings;
import dev.hexaflow.application.knowledge.service.AddDocumentService;
import dev.hexaflow.application.knowledge.service.ManageDocumentsService;
import dev.hexaflow.application.knowledge.service.ManageKnowledgeBasesService;
import dev.hexaflow.application.knowledge.service.RetrieveKnowledgeService;
import dev.hexaflow.domain.knowledge.IndexingTechnique;
import dev.hexaflow.domain.knowledge.KnowledgeDocument;
import dev.hexaflow.domain.knowledge.RetrievalSettings;
import dev.hexaflow.domain.knowledge.SearchMethod;
import dev.hexaflow.domain.knowledge.SplittingRules;
import dev.hexaflow.workflow.port.out.DocumentTextExtractor;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Knowledge in memory: the in-memory repository, Lucene's index held in memory, the fake models, and the use cases
 * that make bases and documents. The embeddings fail while {@link #embeddingsFail} is set, and the store refuses new
 * work while {@link #storageProblem} holds one; the extractor reads a file's bytes as UTF-8 text, and refuses a
 * {@code .bin}.
 */
final class KnowledgeBed implements AutoCloseable {

    final InMemoryKnowledgeRepository repository = new InMemoryKnowledgeRepository();
    final LuceneKnowledgeIndex index = LuceneKnowledgeIndex.inMemory();
    final FakeModels models = new FakeModels();
    final MovableClock clock = new MovableClock(Instant.parse("2026-03-01T10:00:00Z"));
    boolean embeddingsFail;
    Optional<StorageUnavailableException> storageProblem = Optional.empty();
    private final AtomicInteger ids = new AtomicInteger();
    final Embeddings embeddings = new Embeddings() {
        @Override
        public Optional<String> model() {
            return models.embeddings.model();
        }

        @Override
        public List<float[]> embed(List<String> texts) {
            if (embeddingsFail) {
                throw new EmbeddingException("the embeddings endpoint answered 503", null);
            }
            return models.embeddings.embed(texts);
        }
    };
    final StorageHealth storage = () -> storageProblem;
    final DocumentTextExtractor extractor = (bytes, extension, mime) -> {
        if (extension.equals(".bin")) {
            throw new DocumentTextExtractor.ExtractionException("Unsupported file type " + extension, null);
        }
        return new String(bytes, StandardCharsets.UTF_8);
    };
    final ManageKnowledgeBasesService bases = new ManageKnowledgeBasesService(repository, index, embeddings, clock,
            this::nextId, storage);
    final AddDocumentService documents = new AddDocumentService(repository, index, embeddings, extractor, clock,
            this::nextId, storage);
    final ManageDocumentsService manage = new ManageDocumentsService(repository, index, embeddings, this::nextId,
            storage);
    final RetrieveKnowledgeService retrieve = new RetrieveKnowledgeService(repository, index, embeddings,
            models.reranker);

    String nextId() {
        return "id-" + ids.incrementAndGet();
    }

    void base(String id, IndexingTechnique technique) {
        bases.create(new CreateKnowledgeBaseCommand(Optional.of(id), "Base " + id, "", technique, Optional.empty()));
    }

    /** A document of the text, one chunk per paragraph. */
    KnowledgeDocument add(String baseId, String name, String text) {
        return documents.add(AddDocumentCommand.text(baseId, name, text)
                .withRules(SplittingRules.custom("\\n\\n", 500, 0, true, false)));
    }

    /** The contents of the chunks a keyword search of the base finds for the query. */
    List<String> found(String baseId, String query) {
        return retrieve.retrieve(RetrieveKnowledgeQuery.of(baseId, query, new RetrievalSettings(
                SearchMethod.KEYWORD_SEARCH, 10, Optional.empty(), 0.7, 0.3))).stream()
                .map(hit -> hit.chunk().content()).toList();
    }

    @Override
    public void close() {
        index.close();
    }
}
