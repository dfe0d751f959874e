package dev.hexaflow.app.wiring;

import dev.hexaflow.adapters.clients.model.JinaCompatibleReranker;
import dev.hexaflow.adapters.clients.model.OpenAiCompatibleEmbeddings;
import dev.hexaflow.adapters.nodes.document.PdfBoxDocumentTextExtractor;
import dev.hexaflow.adapters.persistence.jdbi.JdbiDatasetKeyRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiKnowledgeRepository;
import dev.hexaflow.adapters.persistence.lucene.LuceneKnowledgeIndex;
import dev.hexaflow.adapters.persistence.lucene.LuceneSharedKnowledgeIndex;
import dev.hexaflow.app.adapters.SecureRandomSecretGenerator;
import dev.hexaflow.application.common.port.out.StorageHealth;
import dev.hexaflow.application.knowledge.port.in.AddDocumentUseCase;
import dev.hexaflow.application.knowledge.port.in.ChangeDocumentStatusUseCase;
import dev.hexaflow.application.knowledge.port.in.CloseInterruptedIndexingUseCase;
import dev.hexaflow.application.knowledge.port.in.ManageDatasetKeysUseCase;
import dev.hexaflow.application.knowledge.port.in.ManageDocumentsUseCase;
import dev.hexaflow.application.knowledge.port.in.ManageKnowledgeBasesUseCase;
import dev.hexaflow.application.knowledge.port.in.ManageKnowledgeTagsUseCase;
import dev.hexaflow.application.knowledge.port.in.ManageMetadataUseCase;
import dev.hexaflow.application.knowledge.port.in.RebuildKnowledgeIndexUseCase;
import dev.hexaflow.application.knowledge.port.in.RetrieveKnowledgeUseCase;
import dev.hexaflow.application.knowledge.port.out.Embeddings;
import dev.hexaflow.application.knowledge.port.out.KnowledgeIndex;
import dev.hexaflow.application.knowledge.service.AddDocumentService;
import dev.hexaflow.application.knowledge.service.ChangeDocumentStatusService;
import dev.hexaflow.application.knowledge.service.CloseInterruptedIndexingService;
import dev.hexaflow.application.knowledge.service.ManageDatasetKeysService;
import dev.hexaflow.application.knowledge.service.ManageDocumentsService;
import dev.hexaflow.application.knowledge.service.ManageKnowledgeBasesService;
import dev.hexaflow.application.knowledge.service.ManageKnowledgeTagsService;
import dev.hexaflow.application.knowledge.service.ManageMetadataService;
import dev.hexaflow.application.knowledge.service.RebuildKnowledgeIndexService;
import dev.hexaflow.application.knowledge.service.RetrieveKnowledgeService;
import dev.hexaflow.domain.id.TimeOrderedIds;
import dev.hexaflow.domain.knowledge.ChunkBudget;
import dev.hexaflow.engine.EngineConfiguration;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.jdbi.v3.core.Jdbi;

/**
 * Knowledge bases: kept in the database, searched through the Lucene index in {@code <data dir>/knowledge/}, which
 * {@link #rebuild} rebuilds from the database when it is missing or out of step (at start, once the database is
 * migrated); embedded at the model endpoint's
 * {@code /embeddings} with HEXAFLOW_EMBEDDING_MODEL, keyword-only without it; reranked, where a search asks, at its
 * {@code /rerank} with HEXAFLOW_RERANK_MODEL.
 */
public final class KnowledgeModule implements AutoCloseable {

    public final ManageKnowledgeBasesUseCase bases;
    public final AddDocumentUseCase addDocument;
    public final ManageDocumentsUseCase documents;
    public final RetrieveKnowledgeUseCase retrieve;
    public final RebuildKnowledgeIndexUseCase rebuild;
    public final ManageDatasetKeysUseCase keys;
    public final ManageKnowledgeTagsUseCase tags;
    public final ManageMetadataUseCase metadata;
    public final CloseInterruptedIndexingUseCase interrupted;
    public final ChangeDocumentStatusUseCase documentStatus;
    private final LuceneKnowledgeIndex lucene;
    private final AutoCloseable shared;

    public KnowledgeModule(Jdbi jdbi, Path indexDirectory, EngineConfiguration engine, Clock clock) {
        this(jdbi, indexDirectory, engine, clock, Instance.alone(), StorageHealth.UNWATCHED,
                ChunkBudget.DEFAULT_MAX_CHUNKS);
    }

    public KnowledgeModule(Jdbi jdbi, Path indexDirectory, EngineConfiguration engine, Clock clock, Instance instance) {
        this(jdbi, indexDirectory, engine, clock, instance, StorageHealth.UNWATCHED, ChunkBudget.DEFAULT_MAX_CHUNKS);
    }

    /**
     * @param instance             where instances share the store, each holds its index in memory (one Lucene index
     *                             takes one writer), rebuilt from the store at start and whenever another instance
     *                             changes its own
     * @param storage              knowledge writes are refused while the store takes no new work, as runs and
     *                             uploads are
     * @param maxChunksPerDocument the most chunks one document's split may make (HEXAFLOW_MAX_CHUNKS_PER_DOCUMENT)
     */
    public KnowledgeModule(Jdbi jdbi, Path indexDirectory, EngineConfiguration engine, Clock clock, Instance instance,
            StorageHealth storage, int maxChunksPerDocument) {
        JdbiKnowledgeRepository repository = new JdbiKnowledgeRepository(jdbi, instance.id());
        Embeddings embeddings = new OpenAiCompatibleEmbeddings(engine.llmBaseUrl().orElse(null),
                engine.llmApiKey().orElse(null), engine.embeddingModel().orElse(null), Duration.ofSeconds(10),
                Duration.ofSeconds(120));
        this.lucene = instance.shared() ? LuceneKnowledgeIndex.inMemory() : new LuceneKnowledgeIndex(indexDirectory);
        KnowledgeIndex index = lucene;
        if (instance.shared()) {
            LuceneSharedKnowledgeIndex told = new LuceneSharedKnowledgeIndex(lucene, repository, instance.signals());
            index = told;
            shared = told;
        } else {
            shared = () -> { };
        }
        TimeOrderedIds ids = new TimeOrderedIds();
        this.bases = new ManageKnowledgeBasesService(repository, index, embeddings, clock, ids, storage);
        this.addDocument = new AddDocumentService(repository, index, embeddings,
                new PdfBoxDocumentTextExtractor(engine.documents()), clock, ids, storage, maxChunksPerDocument);
        this.documents = new ManageDocumentsService(repository, index, embeddings, ids, storage);
        this.documentStatus = new ChangeDocumentStatusService(repository, index);
        this.interrupted = new CloseInterruptedIndexingService(repository);
        this.retrieve = new RetrieveKnowledgeService(repository, index, embeddings, new JinaCompatibleReranker(
                engine.llmBaseUrl().orElse(null), engine.llmApiKey().orElse(null), engine.rerankModel().orElse(null),
                Duration.ofSeconds(10), Duration.ofSeconds(60)));
        this.rebuild = new RebuildKnowledgeIndexService(repository, index);
        this.tags = new ManageKnowledgeTagsService(repository, clock, ids);
        this.metadata = new ManageMetadataService(repository, clock, ids);
        this.keys = new ManageDatasetKeysService(new JdbiDatasetKeyRepository(jdbi), new SecureRandomSecretGenerator(),
                clock);
    }

    @Override
    public void close() {
        try {
            shared.close();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        } finally {
            lucene.close();
        }
    }
}
