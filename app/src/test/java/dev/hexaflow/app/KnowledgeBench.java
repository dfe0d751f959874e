package dev.hexaflow.app;

import dev.hexaflow.adapters.clients.model.OpenAiCompatibleEmbeddings;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.adapters.persistence.H2Database;
import dev.hexaflow.adapters.persistence.jdbi.JdbiKnowledgeRepository;
import dev.hexaflow.adapters.persistence.lucene.LuceneKnowledgeIndex;
import dev.hexaflow.app.wiring.KnowledgeModule;
import dev.hexaflow.application.knowledge.port.in.AddDocumentCommand;
import dev.hexaflow.application.knowledge.port.in.CreateKnowledgeBaseCommand;
import dev.hexaflow.application.knowledge.port.in.RetrieveKnowledgeQuery;
import dev.hexaflow.domain.knowledge.IndexingTechnique;
import dev.hexaflow.domain.knowledge.RetrievalSettings;
import dev.hexaflow.domain.knowledge.SearchMethod;
import dev.hexaflow.domain.knowledge.SplittingRules;
import dev.hexaflow.engine.EngineConfiguration;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Knowledge ingest and retrieval on real parts (H2 in memory, Lucene on disk, the fake embeddings server on
 * loopback): chunks per second added keyword-only and with embeddings, then retrieval p50/p95 per method over
 * {@code -Dknowledge.chunks} chunks (100,000 by default), and the index's size per chunk. Not a test (surefire does
 * not pick it up by name); run it with
 * {@code mvn -B -pl app -am test -Dtest=KnowledgeBench -Dsurefire.failIfNoSpecifiedTests=false}.
 */
class KnowledgeBench {

    private static final String[] WORDS = ("leave holiday expense receipt travel laptop password security parking "
            + "bike roof basement salary payroll contract notice training course manager review goal bonus office "
            + "remote meeting calendar printer badge visitor kitchen coffee fire drill insurance pension health "
            + "dentist sick child parent volunteer charity recycling energy heating window desk chair monitor").split(" ");

    @TempDir
    Path dir;

    @Test
    void ingestAndRetrieve() throws Exception {
        int total = Integer.getInteger("knowledge.chunks", 100_000);
        int perDocument = 100;
        try (FakeModelServer model = new FakeModelServer();
                H2Database database = H2Database.openInMemory("bench-" + UUID.randomUUID())) {
            KnowledgeModule knowledge = new KnowledgeModule(database.jdbi(), dir.resolve("knowledge"),
                    EngineConfiguration.fromEnvironment(Map.of()).withLlm(model.baseUrl(), "k")
                            .withEmbeddingModel("embed-bench"), Clock.systemUTC());
            knowledge.bases.create(new CreateKnowledgeBaseCommand(Optional.of("words"), "Words", "",
                    IndexingTechnique.ECONOMY, Optional.empty()));
            knowledge.bases.create(new CreateKnowledgeBaseCommand(Optional.of("vectors"), "Vectors", "",
                    IndexingTechnique.HIGH_QUALITY, Optional.empty()));
            Random random = new Random(7);
            SplittingRules oneChunkALine = SplittingRules.custom("\\n", 500, 0, true, false);
            int embeddedShare = Integer.getInteger("knowledge.embedded", 10);
            long started = System.nanoTime();
            int wordsDocs = total / perDocument;
            for (int d = 0; d < wordsDocs; d++) {
                knowledge.addDocument.add(AddDocumentCommand.text("words", "doc-" + d, document(random, perDocument))
                        .withRules(oneChunkALine));
            }
            double keywordRate = total / ((System.nanoTime() - started) / 1e9);
            int vectorDocs = Math.max(1, wordsDocs / embeddedShare);
            started = System.nanoTime();
            for (int d = 0; d < vectorDocs; d++) {
                knowledge.addDocument.add(AddDocumentCommand.text("vectors", "doc-" + d, document(random,
                        perDocument)).withRules(oneChunkALine));
            }
            double embeddedRate = vectorDocs * perDocument / ((System.nanoTime() - started) / 1e9);
            System.out.printf("BENCH ingest keyword-only: %d chunks, %.0f chunks/s%n", total, keywordRate);
            System.out.printf("BENCH ingest with embeddings over loopback: %d chunks, %.0f chunks/s%n",
                    vectorDocs * perDocument, embeddedRate);
            OpenAiCompatibleEmbeddings embedder = new OpenAiCompatibleEmbeddings(model.baseUrl(), "k", "embed-bench",
                    java.time.Duration.ofSeconds(5), java.time.Duration.ofSeconds(5));
            long[] calls = new long[300];
            for (int i = -50; i < calls.length; i++) {
                long s = System.nanoTime();
                embedder.embed(java.util.List.of("paid leave days"));
                if (i >= 0) {
                    calls[i] = System.nanoTime() - s;
                }
            }
            Arrays.sort(calls);
            System.out.printf("BENCH one query's embeddings call over loopback (part of semantic and hybrid): "
                    + "p50=%.2f ms p95=%.2f ms%n", calls[150] / 1e6, calls[285] / 1e6);
            measure(knowledge, "words", SearchMethod.FULL_TEXT_SEARCH, random, total);
            measure(knowledge, "vectors", SearchMethod.SEMANTIC_SEARCH, random, vectorDocs * perDocument);
            measure(knowledge, "vectors", SearchMethod.HYBRID_SEARCH, random, vectorDocs * perDocument);
            measureRebuilds(new JdbiKnowledgeRepository(database.jdbi()), total + vectorDocs * perDocument);
            knowledge.close();
            long bytes;
            try (Stream<Path> files = Files.walk(dir.resolve("knowledge"))) {
                bytes = files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
            }
            System.out.printf("BENCH index size: %d bytes for %d chunks, %.0f bytes/chunk%n", bytes,
                    total + vectorDocs * perDocument, (double) bytes / (total + vectorDocs * perDocument));
        }
    }

    private static void measure(KnowledgeModule knowledge, String base, SearchMethod method, Random random,
            int chunks) {
        int n = 500;
        long[] t = new long[n];
        for (int i = -100; i < n; i++) {
            String query = WORDS[random.nextInt(WORDS.length)] + " " + WORDS[random.nextInt(WORDS.length)];
            long s = System.nanoTime();
            knowledge.retrieve.retrieve(RetrieveKnowledgeQuery.of(base, query, new RetrievalSettings(method, 4,
                    Optional.empty(), 0.7, 0.3)));
            if (i >= 0) {
                t[i] = System.nanoTime() - s;
            }
        }
        Arrays.sort(t);
        System.out.printf("BENCH retrieve %s over %d chunks: p50=%.2f ms p95=%.2f ms%n", method.wireName(), chunks,
                t[n / 2] / 1e6, t[(int) (n * 0.95)] / 1e6);
    }

    /**
     * What another instance's change costs an instance that shares the store: the whole index rebuilt (what it does
     * when it may have missed a change) against one document of 100 chunks rebuilt (what it does when told), in
     * the index in memory that such an instance holds.
     */
    private static void measureRebuilds(JdbiKnowledgeRepository repository, int chunks) {
        try (LuceneKnowledgeIndex index = LuceneKnowledgeIndex.inMemory()) {
            measureRebuilds(index, repository, chunks);
        }
    }

    private static void measureRebuilds(LuceneKnowledgeIndex index, JdbiKnowledgeRepository repository, int chunks) {
        long[] whole = new long[3];
        for (int i = 0; i < whole.length; i++) {
            long s = System.nanoTime();
            index.rebuild(repository);
            whole[i] = System.nanoTime() - s;
        }
        Arrays.sort(whole);
        java.util.List<String> documents = repository.documents("vectors").stream()
                .map(dev.hexaflow.domain.knowledge.KnowledgeDocument::id).toList();
        int n = 200;
        long[] one = new long[n];
        for (int i = -20; i < n; i++) {
            String document = documents.get(Math.floorMod(i, documents.size()));
            long s = System.nanoTime();
            index.rebuildDocument(document, repository);
            if (i >= 0) {
                one[i] = System.nanoTime() - s;
            }
        }
        Arrays.sort(one);
        System.out.printf("BENCH index rebuilt whole, %d chunks: median %.0f ms; one embedded document of 100 chunks "
                + "rebuilt: p50=%.2f ms p95=%.2f ms%n", chunks, whole[1] / 1e6, one[n / 2] / 1e6,
                one[(int) (n * 0.95)] / 1e6);
    }

    private static String document(Random random, int lines) {
        StringBuilder text = new StringBuilder();
        for (int l = 0; l < lines; l++) {
            for (int w = 0; w < 30; w++) {
                text.append(WORDS[random.nextInt(WORDS.length)]).append(w == 29 ? ".\n" : " ");
            }
        }
        return text.toString();
    }
}
