package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static dev.hexaflow.app.api.ServiceApi.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer.Script;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.adapters.persistence.H2Database;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.app.wiring.KnowledgeModule;
import dev.hexaflow.application.knowledge.port.in.AddDocumentCommand;
import dev.hexaflow.application.knowledge.port.in.CreateKnowledgeBaseCommand;
import dev.hexaflow.application.knowledge.port.in.RerankRequest;
import dev.hexaflow.application.knowledge.port.in.RetrieveKnowledgeQuery;
import dev.hexaflow.application.knowledge.port.in.RetrievedChunk;
import dev.hexaflow.domain.knowledge.IndexingTechnique;
import dev.hexaflow.domain.knowledge.RetrievalSettings;
import dev.hexaflow.domain.knowledge.SearchMethod;
import dev.hexaflow.domain.knowledge.SplittingRules;
import dev.hexaflow.engine.EngineConfiguration;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reranking by a model, with the fake model server on loopback as the rerank endpoint: it scores the documents it is
 * sent in reverse order, so a reranked search answers the search's own order reversed.
 */
class KnowledgeRerankTest {

    static final RerankRequest COHERE = new RerankRequest("langgenius/cohere/cohere", "rerank-multilingual-v3.0");

    @TempDir
    Path dir;
    private FakeModelServer model;
    private H2Database database;
    private KnowledgeModule knowledge;

    @BeforeEach
    void open() {
        model = new FakeModelServer();
        database = H2Database.openInMemory("rerank-" + UUID.randomUUID());
    }

    @AfterEach
    void close() {
        if (knowledge != null) {
            knowledge.close();
        }
        database.close();
        model.close();
    }

    private void module(String rerankModel) {
        knowledge = new KnowledgeModule(database.jdbi(), dir.resolve("knowledge"), engine().withRerankModel(
                rerankModel), Clock.systemUTC());
        knowledge.bases.create(new CreateKnowledgeBaseCommand(Optional.of("hr"), "Handbook", "",
                IndexingTechnique.HIGH_QUALITY, Optional.empty()));
        knowledge.addDocument.add(AddDocumentCommand.text("hr", "handbook.md", KnowledgeSearchTest.HANDBOOK)
                .withRules(SplittingRules.custom("\\n\\n", 500, 0, true, false)));
    }

    private EngineConfiguration engine() {
        return EngineConfiguration.fromEnvironment(Map.of("HEXAFLOW_LLM_MODELS", "*=local-model"))
                .withLlm(model.baseUrl(), "sk-t").withEmbeddingModel("embed-test");
    }

    private List<RetrievedChunk> search(int topK, Double threshold, boolean rerank) {
        RetrieveKnowledgeQuery query = RetrieveKnowledgeQuery.of("hr", "days", new RetrievalSettings(
                SearchMethod.HYBRID_SEARCH, topK, Optional.ofNullable(threshold), 0.7, 0.3));
        return knowledge.retrieve.retrieve(rerank ? query.reranked(COHERE) : query);
    }

    private static List<String> ids(List<RetrievedChunk> hits) {
        return hits.stream().map(hit -> hit.chunk().id()).toList();
    }

    @Test
    void aSearchAskingForARerankAnswersTheRerankModelsOrderWithItsScores() {
        module("rerank-test");
        List<RetrievedChunk> plain = search(3, null, false);

        List<RetrievedChunk> reranked = search(3, null, true);

        assertThat(plain).hasSize(3);
        assertThat(ids(reranked)).containsExactlyElementsOf(reversed(ids(plain)));
        assertThat(reranked).extracting(RetrievedChunk::score).containsExactly(1.0, 0.666667, 0.333333);
        JsonNode sent = model.rerankRequests().get(0);
        assertThat(sent.get("model").asText()).as("the configured model, not the DSL's").isEqualTo("rerank-test");
        assertThat(sent.get("query").asText()).isEqualTo("days");
        assertThat(sent.get("documents")).hasSize(3);
        assertThat(sent.get("documents").get(0).asText()).isEqualTo(plain.get(0).chunk().content());
    }

    @Test
    void theThresholdAndTopKCutTheRerankedScores() {
        module("rerank-test");
        List<RetrievedChunk> plain = search(3, null, false);

        List<RetrievedChunk> aboveHalf = search(3, 0.5, true);
        List<RetrievedChunk> best = search(1, null, true);

        assertThat(ids(aboveHalf)).containsExactly(plain.get(2).chunk().id(), plain.get(1).chunk().id());
        assertThat(ids(best)).containsExactly(plain.get(2).chunk().id());
    }

    @Test
    void withoutARerankEndpointASearchAskingForOneKeepsItsOwnScoresAndAnswers() {
        module(null);
        List<RetrievedChunk> plain = search(3, null, false);

        List<RetrievedChunk> asked = search(3, null, true);
        List<RetrievedChunk> again = search(3, null, true);

        assertThat(ids(asked)).containsExactlyElementsOf(ids(plain));
        assertThat(asked).extracting(RetrievedChunk::score)
                .containsExactlyElementsOf(plain.stream().map(RetrievedChunk::score).toList());
        assertThat(ids(again)).containsExactlyElementsOf(ids(plain));
        assertThat(model.rerankRequests()).isEmpty();
    }

    @Test
    void aFailingRerankEndpointLeavesTheSearchScoresAndTheSearchAnswers() {
        module("rerank-test");
        List<RetrievedChunk> plain = search(3, null, false);
        model.failRerank(503);

        List<RetrievedChunk> asked = search(3, null, true);

        assertThat(model.rerankRequests()).hasSize(1);
        assertThat(ids(asked)).containsExactlyElementsOf(ids(plain));
    }

    @Test
    void theKnowledgeApiRerankWhenItsRetrievalModelAsksAndNotForTheWeightedScore() {
        try (TestServer server = TestServer.start(TestServer.config(dir).withEngine(engine()
                .withRerankModel("rerank-test")))) {
            ServiceApi api = server.api(TestServer.json(server.admin("POST", "/admin/datasets/keys", null, null))
                    .get("key").asText());
            String dataset = json(api.postJson("/v1/datasets", Map.of("name", "Handbook",
                    "indexing_technique", "high_quality"))).get("id").asText();
            api.postJson("/v1/datasets/" + dataset + "/document/create-by-text", Map.of("name", "handbook.md",
                    "text", KnowledgeSearchTest.HANDBOOK, "indexing_technique",
                    "high_quality", "process_rule", Map.of("mode", "custom", "rules", Map.of(
                            "pre_processing_rules", List.of(), "segmentation", Map.of("separator", "\\n\\n",
                                    "max_tokens", 500)))));
            Map<String, Object> retrieval = Map.of("search_method", "hybrid_search", "top_k", 3,
                    "score_threshold_enabled", false, "reranking_enable", true, "reranking_model",
                    Map.of("reranking_provider_name", "cohere", "reranking_model_name", "rerank-english-v3.0"));

            JsonNode plain = json(api.postJson("/v1/datasets/" + dataset + "/retrieve", Map.of("query", "days")));
            JsonNode reranked = json(api.postJson("/v1/datasets/" + dataset + "/retrieve", Map.of("query", "days",
                    "retrieval_model", retrieval)));
            Map<String, Object> weighted = new java.util.HashMap<>(retrieval);
            weighted.put("reranking_mode", "weighted_score");
            JsonNode weightedAnswer = json(api.postJson("/v1/datasets/" + dataset + "/retrieve", Map.of("query",
                    "days", "retrieval_model", weighted)));

            List<String> plainIds = segmentIds(plain);
            assertThat(plainIds).hasSize(3);
            assertThat(segmentIds(reranked)).containsExactlyElementsOf(reversed(plainIds));
            assertThat(reranked.get("records").get(0).get("score").asDouble()).isEqualTo(1.0);
            assertThat(segmentIds(weightedAnswer)).containsExactlyElementsOf(plainIds);
            assertThat(model.rerankRequests()).hasSize(1);
        }
    }

    @Test
    void aKnowledgeRetrievalNodeAskingForARerankModelAnswersItsOrder() throws IOException {
        try (TestServer server = TestServer.start(TestServer.config(dir).withEngine(engine()
                .withRerankModel("rerank-test")))) {
            server.admin("POST", "/admin/knowledge/bases", "application/json",
                    "{\"id\": \"" + KnowledgeWorkflowHttpTest.DATASET + "\", \"name\": \"Staff handbook\"}");
            for (String text : List.of("Paid leave: every employee has 25 days of paid leave a year.",
                    "Parking: bikes park in the basement, cars on the roof.")) {
                HttpResponse<String> added = server.admin("POST", "/admin/knowledge/bases/"
                        + KnowledgeWorkflowHttpTest.DATASET + "/documents", "application/json",
                        "{\"name\": \"" + text.substring(0, 7) + "\", \"text\": \"" + text
                                + "\", \"metadata\": {\"audience\": \"staff\"}}");
                assertThat(added.statusCode()).as(added.body()).isEqualTo(201);
            }
            model.answer(Script.text("ok", 1, 1));
            String dsl;
            try (InputStream in = getClass().getResourceAsStream("/apps/knowledge.yml")) {
                dsl = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            String reranking = dsl.replace("reranking_enable: false\n            reranking_mode: weighted_score",
                    "reranking_enable: true\n            reranking_mode: reranking_model\n"
                            + "            reranking_model: {provider: langgenius/cohere/cohere, model: rerank-v3}");
            assertThat(reranking).isNotEqualTo(dsl);
            ServiceApi api = server.api(TestServer.json(server.admin("POST", "/admin/apps", "application/yaml",
                    reranking)).get("api_key").asText());

            JsonNode ran = json(api.postJson("/v1/workflows/run", run(Map.of("query", "How many days of paid leave?"),
                    "blocking", "ada")));

            JsonNode sources = ran.get("data").get("outputs").get("sources");
            assertThat(sources).as(ran.toString()).hasSize(2);
            assertThat(sources.get(0).get("title").asText()).as("the search's second, first once reversed")
                    .isEqualTo("Parking");
            assertThat(sources.get(0).get("metadata").get("score").asDouble()).isEqualTo(1.0);
            assertThat(sources.get(1).get("title").asText()).isEqualTo("Paid le");
            assertThat(model.rerankRequests()).hasSize(1);
        }
    }

    private static List<String> reversed(List<String> ids) {
        List<String> copy = new java.util.ArrayList<>(ids);
        java.util.Collections.reverse(copy);
        return copy;
    }

    private static List<String> segmentIds(JsonNode answer) {
        List<String> ids = new java.util.ArrayList<>();
        answer.get("records").forEach(record -> ids.add(record.get("segment").get("id").asText()));
        return ids;
    }
}
