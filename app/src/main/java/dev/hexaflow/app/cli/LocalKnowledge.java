package dev.hexaflow.app.cli;

import dev.hexaflow.adapters.clients.model.JinaCompatibleReranker;
import dev.hexaflow.adapters.clients.model.OpenAiCompatibleEmbeddings;
import dev.hexaflow.adapters.persistence.lucene.LuceneKnowledgeIndex;
import dev.hexaflow.adapters.persistence.memory.InMemoryKnowledgeRepository;
import dev.hexaflow.app.config.Configuration;
import dev.hexaflow.app.wiring.KnowledgeModule;
import dev.hexaflow.app.wiring.Storage;
import dev.hexaflow.application.common.port.out.StorageHealth;
import dev.hexaflow.application.knowledge.service.KnowledgeBasesRetriever;
import dev.hexaflow.application.knowledge.service.RetrieveKnowledgeService;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.workflow.port.out.KnowledgeRetriever;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The knowledge bases {@code hexaflow run} and {@code chat} search: those of a stopped server's data dir
 * ({@code --data-dir}), searched as the server searches them; or, without one, none, so that a knowledge-retrieval
 * node finds nothing and the run goes on, as Dify runs a node whose datasets it does not have.
 */
final class LocalKnowledge implements AutoCloseable {

    final KnowledgeRetriever retriever;
    private final boolean fromDataDir;
    /** What was opened, closed in this order (the index before its store). */
    private final List<AutoCloseable> opened;

    private LocalKnowledge(KnowledgeRetriever retriever, boolean fromDataDir, List<AutoCloseable> opened) {
        this.retriever = retriever;
        this.fromDataDir = fromDataDir;
        this.opened = opened;
    }

    /**
     * Opens the data dir's store (a stopped server's: it takes the same lock) and its knowledge index, rebuilt where
     * it is missing; or no bases at all without a data dir.
     *
     * @throws UsageException when the data dir is not a directory
     * @throws dev.hexaflow.app.StartupException when its store cannot be opened (a server is using it)
     */
    static LocalKnowledge open(Optional<Path> dataDir, Map<String, String> environment) {
        if (dataDir.isEmpty()) {
            LuceneKnowledgeIndex index = LuceneKnowledgeIndex.inMemory();
            RetrieveKnowledgeService none = new RetrieveKnowledgeService(new InMemoryKnowledgeRepository(), index,
                    new OpenAiCompatibleEmbeddings(null, null, null, Duration.ofSeconds(1), Duration.ofSeconds(1)),
                    new JinaCompatibleReranker(null, null, null, Duration.ofSeconds(1), Duration.ofSeconds(1)));
            return new LocalKnowledge(new KnowledgeBasesRetriever(none), false, List.of(index::close));
        }
        if (!Files.isDirectory(dataDir.get())) {
            throw new UsageException("--data-dir " + dataDir.get() + " is not a directory: give the data dir of a "
                    + "stopped server (the one hexaflow serve --data-dir DIR keeps), whose knowledge bases "
                    + "hexaflow knowledge list --data-dir DIR shows");
        }
        Configuration config = Configuration.fromEnvironment(environment).withDataDir(dataDir.get());
        Storage storage = Storage.open(config);
        try {
            KnowledgeModule knowledge = new KnowledgeModule(storage.jdbi(), config.dataDir().resolve("knowledge"),
                    config.engine(), Clock.systemUTC(), storage.instance(), StorageHealth.UNWATCHED,
                    config.service().maxChunksPerDocument());
            knowledge.rebuild.rebuildIfStale();
            return new LocalKnowledge(new KnowledgeBasesRetriever(knowledge.retrieve), true,
                    List.of(knowledge, storage));
        } catch (RuntimeException e) {
            storage.close();
            throw e;
        }
    }

    /**
     * The import's warnings on standard error; without a data dir, one more line for each knowledge-retrieval node,
     * saying how to search some bases (every base is missing then, so each warning alone would not say why).
     */
    void warn(Workflow workflow, List<String> warnings, PrintStream err) {
        for (String warning : warnings) {
            err.println("hexaflow: warning: " + warning);
        }
        if (fromDataDir) {
            return;
        }
        for (Node node : workflow.graph().nodes()) {
            if (node.type() == NodeType.KNOWLEDGE_RETRIEVAL) {
                err.println("hexaflow: warning: " + node.label() + " (knowledge-retrieval) finds nothing: with no "
                        + "--data-dir there are no knowledge bases; give --data-dir DIR, a stopped server's data "
                        + "dir, to search its bases");
            }
        }
    }

    @Override
    public void close() {
        RuntimeException failed = null;
        for (AutoCloseable part : opened) {
            try {
                part.close();
            } catch (Exception e) {
                failed = new IllegalStateException("the knowledge bases did not close: " + e.getMessage(), e);
            }
        }
        if (failed != null) {
            throw failed;
        }
    }
}
