package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.engine.EngineConfiguration;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Dify's parent-child documents on the real server (embeddings from the fake model server on loopback): a
 * {@code hierarchical_model} document is cut into parent chunks and their children, the children are searched and a
 * hit answers its parent with the children that matched, and the child chunk routes edit what is searched.
 */
class KnowledgeChildChunksHttpTest {

    static final String HANDBOOK = "Leave policy\nEvery employee has 25 days of paid leave a year.\n"
            + "Unused days expire in March.\n\nParking rules\nBikes park in the basement.\nCars park on the roof.";

    @TempDir
    Path dataDir;
    FakeModelServer model;
    TestServer server;
    ServiceApi api;
    String dataset;

    @BeforeEach
    void start() {
        model = new FakeModelServer();
        server = TestServer.start(TestServer.config(dataDir).withEngine(EngineConfiguration.fromEnvironment(
                Map.of("HEXAFLOW_LLM_MODELS", "*=local-model")).withLlm(model.baseUrl(), "sk-t")
                .withEmbeddingModel("embed-test")));
        api = server.api(TestServer.json(server.admin("POST", "/admin/datasets/keys", null, null)).get("key")
                .asText());
        dataset = ServiceApi.json(api.postJson("/v1/datasets", Map.of("name", "Handbook",
                "indexing_technique", "high_quality"))).get("id").asText();
    }

    @AfterEach
    void stop() {
        server.close();
        model.close();
    }

    private static Map<String, Object> hierarchical(String parentMode, int childTokens) {
        return Map.of("mode", "hierarchical", "rules", Map.of("parent_mode", parentMode,
                "segmentation", Map.of("separator", "\\n\\n", "max_tokens", 500, "chunk_overlap", 0),
                "subchunk_segmentation", Map.of("separator", "\\n", "max_tokens", childTokens, "chunk_overlap", 0)));
    }

    private HttpResponse<String> addHierarchical(String name, String text, Object rule) {
        return api.postJson("/v1/datasets/" + dataset + "/document/create-by-text", Map.of("name", name, "text",
                text, "doc_form", "hierarchical_model", "process_rule", rule));
    }

    private String document(String name, String text, String parentMode) {
        HttpResponse<String> added = addHierarchical(name, text, hierarchical(parentMode, 50));
        assertThat(added.statusCode()).as(added.body()).isEqualTo(200);
        JsonNode document = ServiceApi.json(added).get("document");
        assertThat(document.get("indexing_status").asText()).isEqualTo("completed");
        return document.get("id").asText();
    }

    private JsonNode records(String query, String method) {
        HttpResponse<String> found = api.postJson("/v1/datasets/" + dataset + "/retrieve", Map.of("query", query,
                "retrieval_model", Map.of("search_method", method, "top_k", 3, "score_threshold_enabled", false,
                        "reranking_enable", false)));
        assertThat(found.statusCode()).as(found.body()).isEqualTo(200);
        return ServiceApi.json(found).get("records");
    }

    private static List<String> children(JsonNode record) {
        List<String> texts = new ArrayList<>();
        record.get("child_chunks").forEach(c -> texts.add(c.get("content").asText()));
        return texts;
    }

    private String segments(String document) {
        return "/v1/datasets/" + dataset + "/documents/" + document + "/segments";
    }

    @Test
    void paragraphParentsAreCutIntoChildrenAndAHitOnAChildAnswersItsParent() {
        String document = document("handbook.md", HANDBOOK, "paragraph");

        JsonNode page = ServiceApi.json(api.get(segments(document)));
        JsonNode segments = page.get("data");
        String parking = segments.get(1).get("id").asText();
        JsonNode children = ServiceApi.json(api.get(segments(document) + "/" + parking + "/child_chunks"));
        JsonNode keyword = records("basement", "keyword_search");
        JsonNode semantic = records("basement", "semantic_search");

        assertThat(page.get("doc_form").asText()).isEqualTo("hierarchical_model");
        assertThat(ServiceApi.json(api.get("/v1/datasets/" + dataset + "/documents/" + document)).get("doc_form")
                .asText()).isEqualTo("hierarchical_model");
        assertThat(segments).hasSize(2);
        assertThat(segments.get(1).get("child_chunks")).hasSize(3);
        assertThat(segments.get(1).get("child_chunks").get(0).get("content").asText()).isEqualTo("Parking rules");
        assertThat(segments.get(0).get("content").asText()).isEqualTo("Leave policy\nEvery employee has 25 days of "
                + "paid leave a year.\nUnused days expire in March.");
        assertThat(children.get("total").asInt()).isEqualTo(3);
        assertThat(children.get("total_pages").asInt()).isEqualTo(1);
        assertThat(children.get("data").get(1).get("content").asText()).isEqualTo("Bikes park in the basement.");
        assertThat(children.get("data").get(1).get("segment_id").asText()).isEqualTo(parking);
        assertThat(children.get("data").get(1).get("position").asInt()).isEqualTo(2);
        assertThat(keyword).hasSize(1);
        assertThat(keyword.get(0).get("segment").get("id").asText()).isEqualTo(parking);
        assertThat(keyword.get(0).get("segment").get("content").asText()).startsWith("Parking rules\nBikes")
                .endsWith("roof.");
        assertThat(children(keyword.get(0))).containsExactly("Bikes park in the basement.");
        assertThat(keyword.get(0).get("score").asDouble())
                .isEqualTo(keyword.get(0).get("child_chunks").get(0).get("score").asDouble());
        assertThat(semantic).isNotEmpty();
        semantic.forEach(record -> {
            assertThat(record.get("segment").get("content").asText()).as("a parent, never a child alone")
                    .contains("\n");
            assertThat(record.get("child_chunks")).isNotEmpty();
        });
    }

    @Test
    void aFullDocParentIsTheWholeTextAndItsChildrenAreSearched() {
        String document = document("handbook.md", HANDBOOK, "full-doc");

        JsonNode segments = ServiceApi.json(api.get(segments(document))).get("data");
        JsonNode found = records("expire March", "keyword_search");

        assertThat(segments).hasSize(1);
        assertThat(segments.get(0).get("content").asText()).isEqualTo(HANDBOOK);
        assertThat(found).hasSize(1);
        assertThat(found.get(0).get("segment").get("content").asText()).isEqualTo(HANDBOOK);
        assertThat(children(found.get(0))).containsExactly("Unused days expire in March.");
    }

    @Test
    void childChunksAddedEditedAndDeletedAreSearchedAtOnce() {
        String document = document("handbook.md", HANDBOOK, "paragraph");
        String leave = ServiceApi.json(api.get(segments(document))).get("data").get(0).get("id").asText();
        String children = segments(document) + "/" + leave + "/child_chunks";

        HttpResponse<String> added = api.postJson(children, Map.of("content", "Sick days do not count as leave."));
        JsonNode child = ServiceApi.json(added).get("data");
        assertThat(added.statusCode()).as(added.body()).isEqualTo(200);
        assertThat(child.get("position").asInt()).isEqualTo(4);
        assertThat(child.get("type").asText()).isEqualTo("automatic");
        assertThat(children(records("sick", "keyword_search").get(0))).containsExactly(
                "Sick days do not count as leave.");

        HttpResponse<String> edited = call("PATCH", children + "/" + child.get("id").asText(),
                Map.of("content", "Illness is reported to the office."));
        assertThat(edited.statusCode()).as(edited.body()).isEqualTo(200);
        assertThat(ServiceApi.json(edited).get("data").get("content").asText())
                .isEqualTo("Illness is reported to the office.");
        assertThat(records("sick", "keyword_search")).isEmpty();
        assertThat(children(records("illness office", "keyword_search").get(0)))
                .containsExactly("Illness is reported to the office.");

        HttpResponse<String> deleted = call("DELETE", children + "/" + child.get("id").asText(), null);
        assertThat(deleted.statusCode()).isEqualTo(204);
        assertThat(records("illness office", "keyword_search")).isEmpty();
        assertThat(ServiceApi.json(api.get(children)).get("total").asInt()).isEqualTo(3);
        assertThat(ServiceApi.json(api.get(children + "?keyword=march")).get("total").asInt()).isEqualTo(1);
    }

    @Test
    void hierarchicalRulesAndChildRequestsAreRefusedInDifysBodyAndAddNothing() {
        String document = document("handbook.md", HANDBOOK, "paragraph");
        String leave = ServiceApi.json(api.get(segments(document))).get("data").get(0).get("id").asText();
        String children = segments(document) + "/" + leave + "/child_chunks";

        assertError(addHierarchical("a.md", "text", Map.of("mode", "automatic")), 400, "invalid_param",
                "A hierarchical_model document needs a process_rule whose mode is hierarchical.");
        assertError(addHierarchical("b.md", "text", hierarchical("by-chapter", 50)), 400, "invalid_param",
                "Process rule parent_mode must be paragraph or full-doc");
        assertError(addHierarchical("c.md", "text", hierarchical("paragraph", 4001)), 400, "invalid_param",
                "Custom segment length should be between 50 and 4000.");
        assertError(addHierarchical("d.md", "text", Map.of("mode", "hierarchical", "rules",
                Map.of("parent_mode", "paragraph"))), 400, "invalid_param",
                "Process rule subchunk_segmentation is required");
        assertError(api.postJson("/v1/datasets/" + dataset + "/document/create-by-text", Map.of("name", "e.md",
                "text", "text", "doc_form", "qa_model")), 400, "invalid_param",
                "doc_form must be text_model or hierarchical_model.");
        assertError(api.postJson(children, Map.of("content", " ")), 400, "invalid_param", "Content is empty");
        assertError(api.postJson(segments(document) + "/no-such-segment/child_chunks", Map.of("content", "x")), 404,
                "not_found", "Segment not found.");
        assertError(call("PATCH", children + "/no-such-child", Map.of("content", "x")), 404, "not_found",
                "Child chunk not found.");
        assertError(call("DELETE", children + "/no-such-child", null), 404, "not_found", "Child chunk not found.");
        assertError(api.get(children + "?limit=101"), 400, "invalid_param", "limit must be between 1 and 100.");
        assertThat(ServiceApi.json(api.get("/v1/datasets/" + dataset + "/documents")).get("total").asInt())
                .isEqualTo(1);
        assertThat(ServiceApi.json(api.get(children)).get("total").asInt()).isEqualTo(3);
    }

    private HttpResponse<String> call(String method, String path, Object body) {
        try {
            return server.send(method, path, body == null ? null : "application/json",
                    body == null ? null : new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(body),
                    api.key());
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void assertError(HttpResponse<String> response, int status, String code, String message) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        JsonNode body = ServiceApi.json(response);
        assertThat(body.get("code").asText()).isEqualTo(code);
        assertThat(body.get("message").asText()).isEqualTo(message);
        assertThat(body.get("status").asInt()).isEqualTo(status);
    }
}
