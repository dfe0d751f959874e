package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.adapters.persistence.H2Database;
import dev.hexaflow.app.wiring.KnowledgeModule;
import dev.hexaflow.application.knowledge.port.in.AddDocumentCommand;
import dev.hexaflow.application.knowledge.port.in.CreateKnowledgeBaseCommand;
import dev.hexaflow.application.knowledge.port.in.EditChunkCommand;
import dev.hexaflow.application.knowledge.port.in.KnowledgeException;
import dev.hexaflow.application.knowledge.port.in.RetrieveKnowledgeQuery;
import dev.hexaflow.application.knowledge.port.in.RetrievedChunk;
import dev.hexaflow.domain.knowledge.DocumentStatus;
import dev.hexaflow.domain.knowledge.IndexingTechnique;
import dev.hexaflow.domain.knowledge.KnowledgeBase;
import dev.hexaflow.domain.knowledge.KnowledgeDocument;
import dev.hexaflow.domain.knowledge.MetadataFilter;
import dev.hexaflow.domain.knowledge.ParentChildRules;
import dev.hexaflow.domain.knowledge.RetrievalSettings;
import dev.hexaflow.domain.knowledge.SearchMethod;
import dev.hexaflow.domain.knowledge.SplittingRules;
import dev.hexaflow.engine.EngineConfiguration;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Knowledge bases on real parts: H2, Lucene in a temporary directory, and embeddings from the fake OpenAI-compatible
 * server on loopback (a hashed bag of words per text, so near texts have near vectors).
 */
class KnowledgeSearchTest {

    static final String HANDBOOK = """
            Holidays: every employee has 25 days of paid leave a year, booked in the HR portal.

            Expenses: receipts are uploaded within 30 days; travel is refunded at economy fares.

            Security: laptops lock after 5 minutes, and passwords change every 90 days.
            """;

    @TempDir
    Path dir;
    private FakeModelServer model;
    private H2Database database;
    private KnowledgeModule knowledge;
    /** Whether the last module opened rebuilt its index, as a start does. */
    private boolean rebuiltAtStart;

    @BeforeEach
    void open() {
        model = new FakeModelServer();
        database = H2Database.openInMemory("knowledge-" + UUID.randomUUID());
        knowledge = module();
    }

    @AfterEach
    void close() {
        knowledge.close();
        database.close();
        model.close();
    }

    private KnowledgeModule module() {
        EngineConfiguration engine = EngineConfiguration.fromEnvironment(Map.of()).withLlm(model.baseUrl(), "sk-t")
                .withEmbeddingModel("embed-test");
        KnowledgeModule opened = new KnowledgeModule(database.jdbi(), dir.resolve("knowledge"), engine,
                Clock.systemUTC());
        rebuiltAtStart = opened.rebuild.rebuildIfStale();
        return opened;
    }

    private KnowledgeBase base(String id) {
        return knowledge.bases.create(new CreateKnowledgeBaseCommand(Optional.of(id), "Base " + id, "",
                IndexingTechnique.HIGH_QUALITY, Optional.empty()));
    }

    private KnowledgeDocument add(String baseId, String name, String text) {
        return knowledge.addDocument.add(AddDocumentCommand.text(baseId, name, text)
                .withRules(SplittingRules.custom("\\n\\n", 500, 0, true, false)));
    }

    private List<RetrievedChunk> search(String baseId, String query, SearchMethod method, int topK,
            Double threshold) {
        return knowledge.retrieve.retrieve(RetrieveKnowledgeQuery.of(baseId, query, new RetrievalSettings(method,
                topK, Optional.ofNullable(threshold), 0.7, 0.3)));
    }

    private static List<String> contents(List<RetrievedChunk> hits) {
        return hits.stream().map(hit -> hit.chunk().content()).toList();
    }

    @Test
    void aDocumentIsSplitKeptEmbeddedAndFoundByItsWords() {
        base("hr");

        KnowledgeDocument doc = add("hr", "handbook.md", HANDBOOK);
        List<RetrievedChunk> hits = search("hr", "how many days of paid leave", SearchMethod.FULL_TEXT_SEARCH, 1,
                null);

        assertThat(doc.status()).isEqualTo(DocumentStatus.COMPLETED);
        assertThat(knowledge.documents.chunks(doc.id())).hasSize(3);
        assertThat(knowledge.documents.vector(knowledge.documents.chunks(doc.id()).get(0).id()))
                .hasValueSatisfying(v -> assertThat(v).hasSize(FakeModelServer.DIMENSIONS));
        assertThat(contents(hits)).singleElement().asString().startsWith("Holidays:");
        assertThat(hits.get(0).score()).isEqualTo(1.0);
    }

    @Test
    void chineseTextIsFoundByItsWords() {
        base("zh");
        add("zh", "手册.txt", """
                年假：每位员工每年享有二十五天带薪年假。

                报销：发票须在三十天内上传，差旅按经济舱报销。

                安全：笔记本电脑五分钟后自动锁定。
                """);

        List<RetrievedChunk> hits = search("zh", "差旅报销", SearchMethod.KEYWORD_SEARCH, 1, null);

        assertThat(contents(hits)).singleElement().asString().startsWith("报销");
    }

    @Test
    void aQueryOfMoreWordsThanLuceneTakesInOneQueryStillFindsByItsFirstThousand() {
        base("zh");
        add("zh", "手册.txt", "年假：每位员工每年享有二十五天带薪年假。\n\n报销：发票须在三十天内上传。\n");
        StringBuilder query = new StringBuilder("带薪年假");
        for (int i = 0; i < 1500; i++) {
            query.append(" word").append(i);
        }

        List<RetrievedChunk> hits = search("zh", query.toString(), SearchMethod.KEYWORD_SEARCH, 1, null);

        assertThat(contents(hits)).singleElement().asString().startsWith("年假");
    }

    @Test
    void semanticAndHybridSearchesRankByTheDeterministicVectors() {
        base("hr");
        add("hr", "handbook.md", HANDBOOK);

        List<RetrievedChunk> semantic = search("hr", "laptops lock passwords change", SearchMethod.SEMANTIC_SEARCH,
                3, null);
        List<RetrievedChunk> hybrid = search("hr", "receipts uploaded travel refunded", SearchMethod.HYBRID_SEARCH,
                3, null);

        assertThat(contents(semantic).get(0)).startsWith("Security:");
        assertThat(semantic).isSortedAccordingTo(Comparator.comparingDouble(RetrievedChunk::score).reversed());
        assertThat(semantic.get(0).score()).isBetween(0.0, 1.0).isGreaterThan(semantic.get(2).score());
        assertThat(contents(hybrid).get(0)).startsWith("Expenses:");
        assertThat(hybrid.get(0).score()).isGreaterThan(hybrid.get(hybrid.size() - 1).score());
    }

    @Test
    void theThresholdAndTopKCutTheResults() {
        base("hr");
        add("hr", "handbook.md", HANDBOOK);

        List<RetrievedChunk> all = search("hr", "days", SearchMethod.HYBRID_SEARCH, 10, null);
        List<RetrievedChunk> top = search("hr", "days", SearchMethod.HYBRID_SEARCH, 2, null);
        double cut = (all.get(0).score() + all.get(all.size() - 1).score()) / 2;
        List<RetrievedChunk> kept = search("hr", "days", SearchMethod.HYBRID_SEARCH, 10, cut);

        assertThat(all).hasSize(3);
        assertThat(top).hasSize(2);
        assertThat(kept).isNotEmpty().hasSizeLessThan(3).allSatisfy(hit -> assertThat(hit.score())
                .isGreaterThanOrEqualTo(cut));
    }

    @Test
    void aMetadataFilterKeepsOnlyTheDocumentsThatPassIt() {
        base("hr");
        knowledge.addDocument.add(AddDocumentCommand.text("hr", "uk.md", "Paid leave is 25 days in the UK office.")
                .withMetadata(Map.of("country", "uk")));
        knowledge.addDocument.add(AddDocumentCommand.text("hr", "fr.md", "Paid leave is 30 days in the FR office.")
                .withMetadata(Map.of("country", "fr")));
        MetadataFilter france = MetadataFilter.of("and", List.of(new MetadataFilter.Condition("country",
                MetadataFilter.Operator.IS, "fr")));

        List<RetrievedChunk> hits = knowledge.retrieve.retrieve(RetrieveKnowledgeQuery.of("hr", "paid leave days",
                RetrievalSettings.defaults(SearchMethod.HYBRID_SEARCH)).filtered(france));

        assertThat(hits).extracting(hit -> hit.document().name()).containsExactly("fr.md");
    }

    @Test
    void aDeletedDocumentIsGoneFromResultsAtOnce() {
        base("hr");
        KnowledgeDocument doc = add("hr", "handbook.md", HANDBOOK);
        assertThat(search("hr", "paid leave", SearchMethod.HYBRID_SEARCH, 3, null)).isNotEmpty();

        knowledge.documents.delete(doc.id());

        assertThat(search("hr", "paid leave", SearchMethod.HYBRID_SEARCH, 3, null)).isEmpty();
        assertThat(search("hr", "paid leave", SearchMethod.FULL_TEXT_SEARCH, 3, null)).isEmpty();
    }

    @Test
    void aDeletedIndexIsRebuiltFromTheDatabaseAtTheNextStartWithTheSameResults() throws Exception {
        base("hr");
        add("hr", "handbook.md", HANDBOOK);
        List<String> before = contents(search("hr", "passwords and receipts", SearchMethod.HYBRID_SEARCH, 3, null));
        knowledge.close();
        try (Stream<Path> files = Files.walk(dir.resolve("knowledge"))) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }

        knowledge = module();

        assertThat(rebuiltAtStart).isTrue();
        assertThat(contents(search("hr", "passwords and receipts", SearchMethod.HYBRID_SEARCH, 3, null)))
                .isEqualTo(before);
        knowledge.close();
        knowledge = module();
        assertThat(rebuiltAtStart).as("an index in step is kept").isFalse();
    }

    @Test
    void aParentChildDocumentsChildrenAreEmbeddedRebuiltIntoADeletedIndexAndStillAnswerTheirParent()
            throws Exception {
        base("hr");
        ParentChildRules rules = new ParentChildRules(ParentChildRules.ParentMode.PARAGRAPH,
                SplittingRules.custom("\\n\\n", 500, 0, true, false), SplittingRules.custom("\\n", 50, 0, true, false));
        KnowledgeDocument doc = knowledge.addDocument.add(new AddDocumentCommand("hr", "rules.md",
                new AddDocumentCommand.Text("Leave\nPaid leave is 25 days.\nIt expires in March.\n\nParking\n"
                        + "Bikes go to the basement."), SplittingRules.AUTOMATIC, Map.of(), Optional.of(rules)));
        List<RetrievedChunk> before = search("hr", "expires March", SearchMethod.HYBRID_SEARCH, 1, null);
        knowledge.close();
        try (Stream<Path> files = Files.walk(dir.resolve("knowledge"))) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }

        knowledge = module();
        List<RetrievedChunk> after = search("hr", "expires March", SearchMethod.HYBRID_SEARCH, 1, null);

        assertThat(knowledge.documents.childChunks(doc.id())).hasSize(5);
        assertThat(contents(before)).containsExactly("Leave\nPaid leave is 25 days.\nIt expires in March.");
        assertThat(before.get(0).children().get(0).child().content()).isEqualTo("It expires in March.");
        assertThat(rebuiltAtStart).isTrue();
        assertThat(contents(after)).isEqualTo(contents(before));
        assertThat(after.get(0).children()).extracting(c -> c.child().content()).first()
                .isEqualTo("It expires in March.");
        assertThat(after.get(0).score()).isEqualTo(after.get(0).children().get(0).score());
    }

    @Test
    void aFailedEmbeddingCallLeavesTheDocumentInErrorWithItsChunksAndARetryIndexesIt() {
        base("hr");
        model.failEmbeddings(500);

        KnowledgeDocument failed = add("hr", "handbook.md", HANDBOOK);

        assertThat(failed.status()).isEqualTo(DocumentStatus.ERROR);
        assertThat(failed.error()).hasValueSatisfying(e -> assertThat(e).contains("500", "embeddings are down"));
        assertThat(knowledge.documents.chunks(failed.id())).hasSize(3);
        assertThat(search("hr", "paid leave", SearchMethod.FULL_TEXT_SEARCH, 3, null)).isEmpty();

        model.failEmbeddings(0);
        KnowledgeDocument retried = knowledge.addDocument.retry(failed.id());

        assertThat(retried.status()).isEqualTo(DocumentStatus.COMPLETED);
        assertThat(contents(search("hr", "paid leave", SearchMethod.SEMANTIC_SEARCH, 1, null)).get(0))
                .startsWith("Holidays:");
    }

    @Test
    void theSameContentAddedAgainIsTheSameDocument() {
        base("hr");
        KnowledgeDocument first = add("hr", "handbook.md", HANDBOOK);
        int calls = model.embeddingRequests().size();

        KnowledgeDocument again = add("hr", "handbook.md", HANDBOOK);

        assertThat(again.id()).isEqualTo(first.id());
        assertThat(model.embeddingRequests()).hasSize(calls);
        assertThat(knowledge.documents.documents("hr")).hasSize(1);
    }

    @Test
    void aFileIsReadByTheDocumentExtractor() {
        base("hr");

        KnowledgeDocument doc = knowledge.addDocument.add(new AddDocumentCommand("hr", "parking.csv",
                new AddDocumentCommand.File("vehicle,place\nbike,basement\ncar,roof\n"
                        .getBytes(StandardCharsets.UTF_8), ".csv", "text/csv"), SplittingRules.AUTOMATIC, Map.of()));

        assertThat(doc.source()).isEqualTo("upload_file");
        assertThat(contents(search("hr", "bike basement", SearchMethod.FULL_TEXT_SEARCH, 1, null)).get(0))
                .as("the csv as the extractor's markdown table").contains("| bike | basement |");
    }

    @Test
    void aBaseWithoutAnEmbeddingModelIsKeywordOnlyAndAnswersASearchByMeaningWithItsWords() {
        knowledge.close();
        knowledge = new KnowledgeModule(database.jdbi(), dir.resolve("knowledge"),
                EngineConfiguration.fromEnvironment(Map.of()).withLlm(model.baseUrl(), "sk-t"), Clock.systemUTC());

        KnowledgeBase base = base("plain");
        add("plain", "handbook.md", HANDBOOK);

        assertThat(base.keywordOnly()).isTrue();
        assertThat(base.indexingTechnique()).isEqualTo(IndexingTechnique.ECONOMY);
        assertThat(model.embeddingRequests()).isEmpty();
        assertThat(contents(search("plain", "laptops lock", SearchMethod.SEMANTIC_SEARCH, 1, null)).get(0))
                .startsWith("Security:");
    }

    @Test
    void anEditedChunkIsFoundByItsNewWordsAndADisabledOneIsNotFound() {
        base("hr");
        KnowledgeDocument doc = add("hr", "handbook.md", HANDBOOK);
        String security = knowledge.documents.chunks(doc.id()).get(2).id();

        knowledge.documents.edit(new EditChunkCommand(doc.id(), security,
                Optional.of("Security: badges open the doors after 7 am."), Optional.empty()));

        assertThat(contents(search("hr", "badges doors", SearchMethod.HYBRID_SEARCH, 1, null)))
                .containsExactly("Security: badges open the doors after 7 am.");
        assertThat(search("hr", "laptops passwords", SearchMethod.FULL_TEXT_SEARCH, 3, null)).isEmpty();

        knowledge.documents.edit(new EditChunkCommand(doc.id(), security, Optional.empty(), Optional.of(false)));

        assertThat(search("hr", "badges doors", SearchMethod.FULL_TEXT_SEARCH, 3, null)).isEmpty();
    }

    @Test
    void anUnknownBaseIsRefused() {
        assertThatThrownBy(() -> search("nope", "x", SearchMethod.FULL_TEXT_SEARCH, 1, null))
                .isInstanceOfSatisfying(KnowledgeException.class, e -> assertThat(e.reason())
                        .isEqualTo(KnowledgeException.Reason.NOT_FOUND));
    }
}
