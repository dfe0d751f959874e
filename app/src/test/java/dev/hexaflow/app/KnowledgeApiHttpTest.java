package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.app.api.ServiceApi.Part;
import dev.hexaflow.engine.EngineConfiguration;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Dify's Knowledge Service API on the real server, with a dataset key from /admin: datasets, documents by text and
 * by file, segments, retrieval by every search method (embeddings from the fake model server on loopback), and the
 * refusals in Dify's codes and messages.
 */
class KnowledgeApiHttpTest {

    @TempDir
    Path dataDir;
    FakeModelServer model;
    TestServer server;
    ServiceApi api;

    @BeforeEach
    void start() {
        model = new FakeModelServer();
        server = TestServer.start(TestServer.config(dataDir).withEngine(EngineConfiguration.fromEnvironment(
                Map.of("HEXAFLOW_LLM_MODELS", "*=local-model")).withLlm(model.baseUrl(), "sk-t")
                .withEmbeddingModel("embed-test")));
        HttpResponse<String> issued = server.admin("POST", "/admin/datasets/keys", null, null);
        assertThat(issued.statusCode()).as(issued.body()).isEqualTo(201);
        String key = TestServer.json(issued).get("key").asText();
        assertThat(key).matches("dataset-[A-Za-z0-9]{24}");
        api = server.api(key);
    }

    @AfterEach
    void stop() {
        server.close();
        model.close();
    }

    private String createDataset(String name) {
        HttpResponse<String> created = api.postJson("/v1/datasets", Map.of("name", name,
                "indexing_technique", "high_quality"));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
        return ServiceApi.json(created).get("id").asText();
    }

    private JsonNode addText(String dataset, String name, String text) {
        HttpResponse<String> added = api.postJson("/v1/datasets/" + dataset + "/document/create-by-text",
                Map.of("name", name, "text", text, "indexing_technique", "high_quality",
                        "process_rule", Map.of("mode", "automatic")));
        assertThat(added.statusCode()).as(added.body()).isEqualTo(200);
        return ServiceApi.json(added);
    }

    @Test
    void aDatasetIsCreatedFilledSearchedAndDeleted() {
        String dataset = createDataset("Handbook");
        JsonNode leave = addText(dataset, "leave.md", "Paid leave: every employee has 25 days of paid leave a year.");
        addText(dataset, "parking.md", "Parking: bikes park in the basement, cars on the roof.");

        JsonNode status = ServiceApi.json(api.get("/v1/datasets/" + dataset + "/documents/"
                + leave.get("batch").asText() + "/indexing-status")).get("data").get(0);
        JsonNode listed = ServiceApi.json(api.get("/v1/datasets?page=1&limit=20"));
        JsonNode read = ServiceApi.json(api.get("/v1/datasets/" + dataset));
        JsonNode docs = ServiceApi.json(api.get("/v1/datasets/" + dataset + "/documents"));

        assertThat(leave.get("document").get("indexing_status").asText()).isEqualTo("completed");
        assertThat(leave.get("document").get("display_status").asText()).isEqualTo("available");
        assertThat(status.get("indexing_status").asText()).isEqualTo("completed");
        assertThat(status.get("completed_segments").asInt()).isEqualTo(status.get("total_segments").asInt())
                .isPositive();
        assertThat(listed.get("total").asInt()).isEqualTo(1);
        assertThat(listed.get("has_more").asBoolean()).isFalse();
        assertThat(listed.get("data").get(0).get("name").asText()).isEqualTo("Handbook");
        assertThat(read.get("document_count").asInt()).isEqualTo(2);
        assertThat(read.get("indexing_technique").asText()).isEqualTo("high_quality");
        assertThat(read.get("retrieval_model_dict").get("search_method").asText()).isEqualTo("semantic_search");
        assertThat(docs.get("data")).hasSize(2);
        assertThat(docs.get("data").get(1).get("position").asInt()).isEqualTo(2);

        for (String method : List.of("keyword_search", "full_text_search", "semantic_search", "hybrid_search")) {
            HttpResponse<String> found = api.postJson("/v1/datasets/" + dataset + "/retrieve", Map.of(
                    "query", "paid leave days", "retrieval_model", Map.of("search_method", method,
                            "reranking_enable", false, "top_k", 1, "score_threshold_enabled", false)));
            assertThat(found.statusCode()).as(method + ": " + found.body()).isEqualTo(200);
            JsonNode records = ServiceApi.json(found).get("records");
            assertThat(records).as(method).hasSize(1);
            assertThat(records.get(0).get("segment").get("content").asText()).as(method)
                    .startsWith("Paid leave");
            assertThat(records.get(0).get("segment").get("document").get("name").asText()).isEqualTo("leave.md");
            assertThat(records.get(0).get("score").asDouble()).isBetween(0.0, 1.0);
        }
        HttpResponse<String> hitTesting = api.postJson("/v1/datasets/" + dataset + "/hit-testing",
                Map.of("query", "basement"));
        assertThat(ServiceApi.json(hitTesting).get("query").get("content").asText()).isEqualTo("basement");

        HttpResponse<String> deleted = server.send("DELETE", "/v1/datasets/" + dataset, null, null, apiKey());
        assertThat(deleted.statusCode()).isEqualTo(204);
        assertThat(api.get("/v1/datasets/" + dataset).statusCode()).isEqualTo(404);
    }

    private String apiKey() {
        return api.key();
    }

    @Test
    void documentsAreAddedByFileUpdatedAndDeletedAndTheirSegmentsEdited() {
        String dataset = createDataset("Files");
        HttpResponse<String> byFile = api.multipart("/v1/datasets/" + dataset + "/document/create-by-file",
                List.of(Part.field("data", "{\"indexing_technique\":\"high_quality\",\"process_rule\":"
                        + "{\"mode\":\"custom\",\"rules\":{\"pre_processing_rules\":[],\"segmentation\":"
                        + "{\"separator\":\"###\",\"max_tokens\":100}}}}"),
                        Part.file("notes.md", "text/markdown", "Lunch is at noon.###The library opens at nine."
                                .getBytes(StandardCharsets.UTF_8))));
        assertThat(byFile.statusCode()).as(byFile.body()).isEqualTo(200);
        String doc = ServiceApi.json(byFile).get("document").get("id").asText();
        String base = "/v1/datasets/" + dataset + "/documents/" + doc;

        JsonNode segments = ServiceApi.json(api.get(base + "/segments"));
        assertThat(segments.get("data")).hasSize(2);
        assertThat(segments.get("data").get(1).get("content").asText()).isEqualTo("The library opens at nine.");
        String lunch = segments.get("data").get(0).get("id").asText();
        String library = segments.get("data").get(1).get("id").asText();

        HttpResponse<String> edited = api.postJson(base + "/segments/" + lunch,
                Map.of("segment", Map.of("content", "Lunch is at one.")));
        assertThat(edited.statusCode()).as(edited.body()).isEqualTo(200);
        assertThat(ServiceApi.json(edited).get("data").get("content").asText()).isEqualTo("Lunch is at one.");
        assertThat(ServiceApi.json(edited).get("doc_form").asText()).isEqualTo("text_model");
        JsonNode read = ServiceApi.json(api.get(base + "/segments/" + lunch));
        assertThat(read.get("doc_form").asText()).as(read.toString()).isEqualTo("text_model");
        assertThat(read.get("data").get("content").asText()).isEqualTo("Lunch is at one.");
        assertThat(server.send("DELETE", base + "/segments/" + library, null, null, apiKey()).statusCode())
                .isEqualTo(204);
        assertThat(ServiceApi.json(api.get(base + "/segments")).get("data")).hasSize(1);
        assertThat(ServiceApi.json(api.postJson("/v1/datasets/" + dataset + "/retrieve", Map.of("query",
                "library", "retrieval_model", Map.of("search_method", "keyword_search")))).get("records"))
                .as("a deleted segment is gone from searches").isEmpty();

        HttpResponse<String> updated = api.postJson(base + "/update-by-text", Map.of("name", "notes-v2.md",
                "text", "Dinner is at seven."));
        assertThat(updated.statusCode()).as(updated.body()).isEqualTo(200);
        assertThat(ServiceApi.json(updated).get("document").get("id").asText()).isEqualTo(doc);
        JsonNode detail = ServiceApi.json(api.get(base));
        assertThat(detail.get("name").asText()).isEqualTo("notes-v2.md");
        JsonNode found = ServiceApi.json(api.postJson("/v1/datasets/" + dataset + "/retrieve", Map.of("query",
                "dinner lunch", "retrieval_model", Map.of("search_method", "keyword_search")))).get("records");
        assertThat(found).hasSize(1);
        assertThat(found.get(0).get("segment").get("content").asText()).isEqualTo("Dinner is at seven.");

        assertThat(server.send("DELETE", base, null, null, apiKey()).statusCode()).isEqualTo(204);
        assertThat(api.get(base).statusCode()).isEqualTo(404);
        assertThat(ServiceApi.json(api.get("/v1/datasets/" + dataset + "/documents")).get("total").asInt())
                .isZero();
    }

    @Test
    void refusalsComeInDifysCodesAndMessages() {
        String dataset = createDataset("Refusals");
        JsonNode imported = server.importApp("knowledge.yml");
        String appKey = imported.get("api_key").asText();

        HttpResponse<String> appKeyHere = api.withKey(appKey).get("/v1/datasets");
        HttpResponse<String> noKey = server.send("GET", "/v1/datasets", null, null, null);
        HttpResponse<String> datasetKeyOnApps = api.get("/v1/parameters");
        HttpResponse<String> duplicate = api.postJson("/v1/datasets", Map.of("name", "Refusals"));
        HttpResponse<String> longName = api.postJson("/v1/datasets", Map.of("name", "x".repeat(41)));
        HttpResponse<String> unknownDataset = api.postJson("/v1/datasets/nope/document/create-by-text",
                Map.of("name", "a", "text", "b"));
        HttpResponse<String> unknownRetrieve = api.postJson("/v1/datasets/nope/retrieve", Map.of("query", "a"));
        HttpResponse<String> longQuery = api.postJson("/v1/datasets/" + dataset + "/retrieve",
                Map.of("query", "q".repeat(251)));
        HttpResponse<String> noFile = api.multipart("/v1/datasets/" + dataset + "/document/create-by-file",
                List.of(Part.field("data", "{}")));
        HttpResponse<String> unknownDoc = api.get("/v1/datasets/" + dataset + "/documents/nope");

        assertError(appKeyHere, 401, "unauthorized", "Access token is invalid");
        assertError(noKey, 401, "unauthorized", "Authorization header must be provided and start with 'Bearer'");
        assertError(datasetKeyOnApps, 401, "unauthorized", "Access token is invalid");
        assertError(duplicate, 409, "dataset_name_duplicate",
                "The dataset name already exists. Please modify your dataset name.");
        assertError(longName, 400, "invalid_param", "Name must be between 1 to 40 characters.");
        assertError(unknownDataset, 400, "invalid_param", "Dataset does not exist.");
        assertError(unknownRetrieve, 404, "not_found", "Dataset not found.");
        assertError(longQuery, 400, "invalid_param", "Query cannot exceed 250 characters");
        assertError(noFile, 400, "no_file_uploaded", "Please upload your file.");
        assertError(unknownDoc, 404, "not_found", "Document not found.");
    }

    @Test
    void segmentsCreatedByHandAreKeptAfterTheDocumentsOwnAndFoundAtOnce() {
        String dataset = createDataset("Segments");
        String doc = addText(dataset, "notes.md", "Lunch is at noon.").get("document").get("id").asText();
        String base = "/v1/datasets/" + dataset + "/documents/" + doc;

        HttpResponse<String> created = api.postJson(base + "/segments", Map.of("segments", List.of(
                Map.of("content", "The gym opens at six.", "answer", "", "keywords", List.of("gym", "hours")),
                Map.of("content", "The canteen closes at three."))));

        assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
        JsonNode body = ServiceApi.json(created);
        assertThat(body.get("doc_form").asText()).isEqualTo("text_model");
        assertThat(body.get("data")).hasSize(2);
        assertThat(body.get("data").get(0).get("position").asInt()).isEqualTo(2);
        assertThat(body.get("data").get(0).get("keywords").toString()).isEqualTo("[\"gym\",\"hours\"]");
        assertThat(body.get("data").get(1).get("position").asInt()).isEqualTo(3);
        assertThat(ServiceApi.json(api.get(base + "/segments")).get("total").asInt()).isEqualTo(3);
        JsonNode found = ServiceApi.json(api.postJson("/v1/datasets/" + dataset + "/retrieve", Map.of("query",
                "gym opens", "retrieval_model", Map.of("search_method", "hybrid_search", "top_k", 1)))).get("records");
        assertThat(found.get(0).get("segment").get("content").asText()).isEqualTo("The gym opens at six.");
    }

    @Test
    void segmentsCreatedAtOnceByManyCallersAreAllKeptInDistinctPlaces() throws Exception {
        String dataset = createDataset("Concurrent segments");
        String doc = addText(dataset, "notes.md", "Lunch is at noon.").get("document").get("id").asText();
        String base = "/v1/datasets/" + dataset + "/documents/" + doc;
        int callers = 16;
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(callers);
        java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
        List<java.util.concurrent.Future<Integer>> answers = new java.util.ArrayList<>();
        for (int i = 0; i < callers; i++) {
            String content = "Room " + i + " is on floor " + i + ".";
            answers.add(pool.submit(() -> {
                go.await();
                return api.postJson(base + "/segments", Map.of("segments", List.of(Map.of("content", content))))
                        .statusCode();
            }));
        }
        go.countDown();
        for (java.util.concurrent.Future<Integer> answer : answers) {
            assertThat(answer.get(60, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo(200);
        }
        pool.shutdown();

        JsonNode kept = ServiceApi.json(api.get(base + "/segments?limit=100"));
        assertThat(kept.get("total").asInt()).as("every caller's segment is kept").isEqualTo(callers + 1);
        java.util.Set<Integer> positions = new java.util.HashSet<>();
        kept.get("data").forEach(segment -> positions.add(segment.get("position").asInt()));
        assertThat(positions).as("each in a place of its own").hasSize(callers + 1);
    }

    @Test
    void creatingSegmentsIsRefusedWithoutSegmentsWithABlankOneAndWithMoreThanAThousand() {
        String dataset = createDataset("Segment limits");
        String doc = addText(dataset, "notes.md", "Lunch is at noon.").get("document").get("id").asText();
        String base = "/v1/datasets/" + dataset + "/documents/" + doc;
        List<Map<String, Object>> tooMany = new java.util.ArrayList<>();
        for (int i = 0; i < 1001; i++) {
            tooMany.add(Map.of("content", "segment " + i));
        }

        HttpResponse<String> none = api.postJson(base + "/segments", Map.of());
        HttpResponse<String> blank = api.postJson(base + "/segments", Map.of("segments", List.of(
                Map.of("content", "fine"), Map.of("content", "  "))));
        HttpResponse<String> overLimit = api.postJson(base + "/segments", Map.of("segments", tooMany));
        HttpResponse<String> unknownDoc = api.postJson("/v1/datasets/" + dataset + "/documents/nope/segments",
                Map.of("segments", List.of(Map.of("content", "x"))));

        assertError(none, 400, "invalid_param", "Segments is required");
        assertError(blank, 400, "invalid_param", "Content is empty");
        assertError(overLimit, 400, "invalid_param", "At most 1000 segments can be created at once, not 1001.");
        assertError(unknownDoc, 404, "not_found", "Document not found.");
        assertThat(ServiceApi.json(api.get(base + "/segments")).get("total").asInt())
                .as("a refused request keeps nothing").isEqualTo(1);
        assertThat(model.embeddingRequests().stream().noneMatch(r -> r.toString().contains("fine"))).isTrue();
    }

    @Test
    void aDocumentIsUpdatedByFileUnderTheFilesNameAndFoundByItsNewText() {
        String dataset = createDataset("Update by file");
        String doc = addText(dataset, "notes.md", "Lunch is at noon.").get("document").get("id").asText();
        String base = "/v1/datasets/" + dataset + "/documents/" + doc;

        HttpResponse<String> updated = api.multipart(base + "/update-by-file", List.of(
                Part.field("data", "{\"process_rule\":{\"mode\":\"custom\",\"rules\":{\"pre_processing_rules\":[],"
                        + "\"segmentation\":{\"separator\":\"###\",\"max_tokens\":100}}}}"),
                Part.file("notes-v2.txt", "text/plain", "Dinner is at seven.###Breakfast is at eight."
                        .getBytes(StandardCharsets.UTF_8))));
        HttpResponse<String> underscore = api.multipart(base + "/update_by_file", List.of(Part.field("data", "{}")));
        HttpResponse<String> twoFiles = api.multipart(base + "/update-by-file", List.of(
                Part.file("a.txt", "text/plain", "a".getBytes(StandardCharsets.UTF_8)),
                Part.file("b.txt", "text/plain", "b".getBytes(StandardCharsets.UTF_8))));

        assertThat(updated.statusCode()).as(updated.body()).isEqualTo(200);
        JsonNode document = ServiceApi.json(updated).get("document");
        assertThat(document.get("id").asText()).isEqualTo(doc);
        assertThat(document.get("name").asText()).isEqualTo("notes-v2.txt");
        assertThat(ServiceApi.json(updated).get("batch").asText()).isEqualTo(doc);
        assertThat(ServiceApi.json(api.get(base + "/segments")).get("total").asInt()).isEqualTo(2);
        JsonNode found = ServiceApi.json(api.postJson("/v1/datasets/" + dataset + "/retrieve", Map.of("query",
                "lunch dinner", "retrieval_model", Map.of("search_method", "keyword_search")))).get("records");
        assertThat(found).hasSize(1);
        assertThat(found.get(0).get("segment").get("content").asText()).isEqualTo("Dinner is at seven.");
        assertThat(underscore.statusCode()).as("no file: the document as it is").isEqualTo(200);
        assertThat(ServiceApi.json(underscore).get("document").get("name").asText()).isEqualTo("notes-v2.txt");
        assertError(twoFiles, 400, "too_many_files", "Only one file is allowed.");
    }

    @Test
    void retrieveKeepsOnlyTheDocumentsItsMetadataFilteringConditionsPass() {
        String dataset = createDataset("Filtered");
        addText(dataset, "leave.md", "Paid leave: every employee has 25 days of paid leave a year.");
        addText(dataset, "leave-board.md", "Paid leave for board members is decided by the board.");
        Map<String, Object> onlyStaff = Map.of("search_method", "keyword_search", "top_k", 5,
                "metadata_filtering_conditions", Map.of("logical_operator", "and", "conditions", List.of(
                        Map.of("name", "document_name", "comparison_operator", "is", "value", "leave.md"))));
        Map<String, Object> either = Map.of("search_method", "keyword_search", "top_k", 5,
                "metadata_filtering_conditions", Map.of("logical_operator", "or", "conditions", List.of(
                        Map.of("name", "document_name", "comparison_operator", "in",
                                "value", List.of("leave.md", "leave-board.md")))));
        Map<String, Object> badOperator = Map.of("metadata_filtering_conditions", Map.of("conditions", List.of(
                Map.of("name", "document_name", "comparison_operator", "resembles", "value", "x"))));
        Map<String, Object> badLogic = Map.of("metadata_filtering_conditions", Map.of("logical_operator", "xor",
                "conditions", List.of()));

        JsonNode staff = ServiceApi.json(api.postJson("/v1/datasets/" + dataset + "/retrieve", Map.of("query",
                "paid leave", "retrieval_model", onlyStaff))).get("records");
        JsonNode both = ServiceApi.json(api.postJson("/v1/datasets/" + dataset + "/retrieve", Map.of("query",
                "paid leave", "retrieval_model", either))).get("records");

        assertThat(staff).hasSize(1);
        assertThat(staff.get(0).get("segment").get("document").get("name").asText()).isEqualTo("leave.md");
        assertThat(both).hasSize(2);
        assertError(api.postJson("/v1/datasets/" + dataset + "/retrieve", Map.of("query", "paid leave",
                "retrieval_model", badOperator)), 400, "invalid_param",
                "comparison_operator 'resembles' is not one of Dify's metadata operators.");
        assertError(api.postJson("/v1/datasets/" + dataset + "/retrieve", Map.of("query", "paid leave",
                "retrieval_model", badLogic)), 400, "invalid_param", "logical_operator must be and or or, was 'xor'");
    }

    @Test
    void tagsAreCreatedBoundListedFilteredRenamedAndDeleted() {
        String hr = createDataset("HR");
        String legal = createDataset("Legal");

        JsonNode people = ServiceApi.json(api.postJson("/v1/datasets/tags", Map.of("name", "people")));
        JsonNode policy = ServiceApi.json(api.postJson("/v1/datasets/tags", Map.of("name", "policy")));
        HttpResponse<String> bound = api.postJson("/v1/datasets/tags/binding", Map.of("tag_ids",
                List.of(people.get("id").asText(), policy.get("id").asText()), "target_id", hr));
        api.postJson("/v1/datasets/tags/binding", Map.of("tag_ids", List.of(policy.get("id").asText()),
                "target_id", legal));
        JsonNode listed = ServiceApi.json(api.get("/v1/datasets/tags"));
        JsonNode ofHr = ServiceApi.json(api.get("/v1/datasets/" + hr + "/tags"));
        JsonNode filtered = ServiceApi.json(api.get("/v1/datasets?tag_ids=" + people.get("id").asText()));
        JsonNode eitherTag = ServiceApi.json(api.get("/v1/datasets?tag_ids=" + people.get("id").asText() + ","
                + policy.get("id").asText()));
        JsonNode read = ServiceApi.json(api.get("/v1/datasets/" + hr));

        assertThat(people.get("type").asText()).isEqualTo("knowledge");
        assertThat(people.get("binding_count").asText()).isEqualTo("0");
        assertThat(bound.statusCode()).as(bound.body()).isEqualTo(204);
        assertThat(listed).hasSize(2);
        assertThat(listed.get(0).get("name").asText()).as("newest first").isEqualTo("policy");
        assertThat(listed.get(0).get("binding_count").asText()).isEqualTo("2");
        assertThat(ofHr.get("total").asInt()).isEqualTo(2);
        assertThat(ofHr.get("data").get(0).get("name").asText()).isEqualTo("people");
        assertThat(filtered.get("total").asInt()).isEqualTo(1);
        assertThat(filtered.get("data").get(0).get("id").asText()).isEqualTo(hr);
        assertThat(eitherTag.get("total").asInt()).as("a base with any tag named").isEqualTo(2);
        assertThat(read.get("tags").get(0).get("name").asText()).isEqualTo("people");

        JsonNode renamed = ServiceApi.json(server.send("PATCH", "/v1/datasets/tags", "application/json",
                "{\"tag_id\": \"" + people.get("id").asText() + "\", \"name\": \"staff\"}", apiKey()));
        HttpResponse<String> unbound = api.postJson("/v1/datasets/tags/unbinding", Map.of("tag_id",
                policy.get("id").asText(), "target_id", hr));
        HttpResponse<String> deleted = server.send("DELETE", "/v1/datasets/tags", "application/json",
                "{\"tag_id\": \"" + policy.get("id").asText() + "\"}", apiKey());

        assertThat(renamed.get("name").asText()).isEqualTo("staff");
        assertThat(renamed.get("binding_count").asText()).isEqualTo("1");
        assertThat(unbound.statusCode()).as(unbound.body()).isEqualTo(204);
        assertThat(deleted.statusCode()).as(deleted.body()).isEqualTo(204);
        assertThat(ServiceApi.json(api.get("/v1/datasets/tags"))).singleElement()
                .satisfies(tag -> assertThat(tag.get("name").asText()).isEqualTo("staff"));
        assertThat(ServiceApi.json(api.get("/v1/datasets/" + legal + "/tags")).get("total").asInt()).isZero();
    }

    @Test
    void tagRequestsAreRefusedForALongNameNoTagsAnUnknownTagOrDataset() {
        String dataset = createDataset("Tagged");
        String tag = ServiceApi.json(api.postJson("/v1/datasets/tags", Map.of("name", "t".repeat(50))))
                .get("id").asText();

        assertError(api.postJson("/v1/datasets/tags", Map.of("name", "t".repeat(51))), 400, "invalid_param",
                "Tag name must be between 1 to 50 characters.");
        assertError(api.postJson("/v1/datasets/tags/binding", Map.of("tag_ids", List.of(), "target_id", dataset)),
                400, "invalid_param", "Tag IDs is required.");
        assertError(api.postJson("/v1/datasets/tags/binding", Map.of("tag_ids", List.of(tag, "nope"),
                "target_id", dataset)), 404, "not_found", "Tag not found.");
        assertError(api.postJson("/v1/datasets/tags/binding", Map.of("tag_ids", List.of(tag), "target_id",
                "nope")), 404, "not_found", "Dataset not found.");
        assertError(server.send("PATCH", "/v1/datasets/tags", "application/json",
                "{\"tag_id\": \"nope\", \"name\": \"x\"}", apiKey()), 404, "not_found", "Tag not found.");
        assertThat(ServiceApi.json(api.get("/v1/datasets/" + dataset + "/tags")).get("total").asInt())
                .as("a refused binding binds none").isZero();
    }

    @Test
    void aRevokedKeyIsRefused() {
        String key = apiKey();
        assertThat(api.get("/v1/datasets").statusCode()).isEqualTo(200);

        HttpResponse<String> revoked = server.admin("DELETE", "/admin/datasets/keys/" + key, null, null);

        assertThat(revoked.statusCode()).as(revoked.body()).isEqualTo(200);
        assertError(api.get("/v1/datasets"), 401, "unauthorized", "Access token is invalid");
        assertThat(server.admin("DELETE", "/admin/datasets/keys/" + key, null, null).statusCode()).isEqualTo(404);
    }

    private static void assertError(HttpResponse<String> response, int status, String code, String message) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        JsonNode body = ServiceApi.json(response);
        assertThat(body.get("code").asText()).isEqualTo(code);
        assertThat(body.get("message").asText()).isEqualTo(message);
        assertThat(body.get("status").asInt()).isEqualTo(status);
    }
}
