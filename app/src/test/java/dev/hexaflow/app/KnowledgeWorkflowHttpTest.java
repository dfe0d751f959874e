package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static dev.hexaflow.app.api.ServiceApi.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer.Script;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.engine.EngineConfiguration;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Dify app with a knowledge-retrieval node feeding an llm node's context, on the real server: the base is made
 * with the app's dataset id and filled through /admin, and the fake model is asked with the right chunk.
 */
class KnowledgeWorkflowHttpTest {

    static final String DATASET = "6f1c2d4e-9a8b-4c7d-8e6f-5a4b3c2d1e0f";

    @TempDir
    Path dataDir;
    FakeModelServer model;
    TestServer server;

    @BeforeEach
    void start() {
        model = new FakeModelServer();
        server = TestServer.start(TestServer.config(dataDir).withEngine(EngineConfiguration.fromEnvironment(
                Map.of("HEXAFLOW_LLM_MODELS", "*=local-model")).withLlm(model.baseUrl(), "sk-t")
                .withEmbeddingModel("embed-test")));
    }

    @AfterEach
    void stop() {
        server.close();
        model.close();
    }

    private static String body(Map<String, Object> value) {
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(value);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private void addText(String name, String text, String audience) {
        HttpResponse<String> added = server.admin("POST", "/admin/knowledge/bases/" + DATASET + "/documents",
                "application/json", body(Map.of("name", name, "text", text, "metadata",
                        Map.of("audience", audience))));
        assertThat(added.statusCode()).as(added.body()).isEqualTo(201);
        assertThat(TestServer.json(added).get("indexing_status").asText()).isEqualTo("completed");
    }

    @Test
    void theNodesMetadataFilterTestsTheValuesSetThroughTheKnowledgeApiAndAChildsHitAnswersItsParent() {
        server.admin("POST", "/admin/knowledge/bases", "application/json",
                body(Map.of("id", DATASET, "name", "Staff handbook")));
        ServiceApi knowledge = server.api(TestServer.json(server.admin("POST", "/admin/datasets/keys", null, null))
                .get("key").asText());
        String leave = ServiceApi.json(knowledge.postJson("/v1/datasets/" + DATASET + "/document/create-by-text",
                Map.of("name", "leave.md", "text", "Paid leave: every employee has 25 days of paid leave a year.\n"
                        + "Ask your manager first.", "doc_form", "hierarchical_model", "process_rule", Map.of("mode",
                        "hierarchical", "rules", Map.of("parent_mode", "full-doc", "subchunk_segmentation",
                                Map.of("separator", "\\n", "max_tokens", 50, "chunk_overlap", 0))))))
                .get("document").get("id").asText();
        String board = ServiceApi.json(knowledge.postJson("/v1/datasets/" + DATASET + "/document/create-by-text",
                Map.of("name", "board.md", "text", "Paid leave for board members is decided by the board.")))
                .get("document").get("id").asText();
        String audience = ServiceApi.json(knowledge.postJson("/v1/datasets/" + DATASET + "/metadata",
                Map.of("type", "string", "name", "audience"))).get("id").asText();
        HttpResponse<String> set = knowledge.postJson("/v1/datasets/" + DATASET + "/documents/metadata",
                Map.of("operation_data", List.of(
                        Map.of("document_id", leave, "metadata_list", List.of(Map.of("id", audience, "name",
                                "audience", "value", "staff"))),
                        Map.of("document_id", board, "metadata_list", List.of(Map.of("id", audience, "name",
                                "audience", "value", "board"))))));
        model.answer(Script.text("You have 25 days.", 30, 5));
        ServiceApi app = server.api(server.importApp("knowledge.yml").get("api_key").asText());

        JsonNode ran = json(app.postJson("/v1/workflows/run", run(Map.of("query", "How much paid leave?"),
                "blocking", "ada")));

        assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
        JsonNode sources = ran.get("data").get("outputs").get("sources");
        assertThat(sources).as(ran.toString()).hasSize(1);
        assertThat(sources.get(0).get("title").asText()).isEqualTo("leave.md");
        assertThat(sources.get(0).get("metadata").get("doc_metadata").get("audience").asText()).isEqualTo("staff");
        assertThat(sources.get(0).get("content").asText()).as("a child's hit answers its parent's whole text")
                .endsWith("Ask your manager first.");
        JsonNode children = sources.get(0).get("metadata").get("child_chunks");
        assertThat(children).isNotEmpty();
        assertThat(children.get(0).get("content").asText()).isEqualTo(
                "Paid leave: every employee has 25 days of paid leave a year.");
        assertThat(children.get(0).get("position").asInt()).isEqualTo(1);
    }

    @Test
    void aWorkflowRetrievesTheRightChunkAndTheModelAnswersFromIt() {
        HttpResponse<String> created = server.admin("POST", "/admin/knowledge/bases", "application/json",
                body(Map.of("id", DATASET, "name", "Staff handbook")));
        addText("leave.md", "Paid leave: every employee has 25 days of paid leave a year.", "staff");
        addText("parking.md", "Parking: bikes park in the basement, cars on the roof.", "staff");
        addText("board.md", "Paid leave for board members is decided by the board.", "board");
        model.answer(Script.text("You have 25 days.", 30, 5));

        JsonNode imported = server.importApp("knowledge.yml");
        ServiceApi api = server.api(imported.get("api_key").asText());
        JsonNode ran = json(api.postJson("/v1/workflows/run", run(Map.of("query", "How many days of paid leave?"),
                "blocking", "ada")));

        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        assertThat(TestServer.json(created).get("indexing_technique").asText()).isEqualTo("high_quality");
        assertThat(imported.get("warnings")).isEmpty();
        JsonNode data = ran.get("data");
        assertThat(data.get("status").asText()).as(ran.toString()).isEqualTo("succeeded");
        assertThat(data.get("outputs").get("answer").asText()).isEqualTo("You have 25 days.");
        JsonNode first = data.get("outputs").get("sources").get(0);
        assertThat(first.get("content").asText()).startsWith("Paid leave: every employee");
        assertThat(first.get("title").asText()).isEqualTo("leave.md");
        JsonNode metadata = first.get("metadata");
        assertThat(metadata.get("_source").asText()).isEqualTo("knowledge");
        assertThat(metadata.get("dataset_id").asText()).isEqualTo(DATASET);
        assertThat(metadata.get("dataset_name").asText()).isEqualTo("Staff handbook");
        assertThat(metadata.get("document_name").asText()).isEqualTo("leave.md");
        assertThat(metadata.get("position").asInt()).isEqualTo(1);
        assertThat(metadata.get("score").asDouble()).isBetween(0.0, 1.0);
        assertThat(data.get("outputs").get("sources").toString()).as("the manual metadata filter")
                .doesNotContain("board members");
        String system = model.requests().get(model.requests().size() - 1).get("messages").get(0).get("content")
                .asText();
        assertThat(system).startsWith("Answer from this context only:\n")
                .contains("every employee has 25 days of paid leave");
    }

    @Test
    void aChatflowsAnswerNamesTheKnowledgeItsContextUsedAsRetrieverResources() throws Exception {
        server.admin("POST", "/admin/knowledge/bases", "application/json",
                body(Map.of("id", DATASET, "name", "Staff handbook")));
        addText("leave.md", "Paid leave: every employee has 25 days of paid leave a year.", "staff");
        addText("parking.md", "Parking: bikes park in the basement, cars on the roof.", "staff");
        model.answer(Script.text("You have 25 days.", 30, 5));
        String dsl;
        try (java.io.InputStream in = getClass().getResourceAsStream("/apps/knowledge-chat.yml")) {
            dsl = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        ServiceApi shown = server.api(server.importApp("knowledge-chat.yml").get("api_key").asText());
        ServiceApi hidden = server.api(TestServer.json(server.admin("POST", "/admin/apps", "application/yaml",
                dsl.replace("retriever_resource: {enabled: true}", "retriever_resource: {enabled: false}")))
                .get("api_key").asText());
        Map<String, Object> ask = Map.of("query", "How many days of paid leave?", "inputs", Map.of(),
                "response_mode", "blocking", "user", "ada");

        JsonNode blocking = json(shown.postJson("/v1/chat-messages", ask));
        java.util.List<JsonNode> frames = ChatApiHttpTest.frames(new String(shown.postStreaming("/v1/chat-messages",
                Map.of("query", "How many days of paid leave?", "inputs", Map.of(), "response_mode", "streaming",
                        "user", "ada")).body().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
        JsonNode kept = json(shown.get("/v1/messages?user=ada&conversation_id="
                + blocking.get("conversation_id").asText()));
        JsonNode off = json(hidden.postJson("/v1/chat-messages", ask));

        JsonNode cited = blocking.get("metadata").get("retriever_resources");
        assertThat(cited).as(blocking.toString()).hasSize(1);
        JsonNode first = cited.get(0);
        assertThat(first.get("position").asInt()).isEqualTo(1);
        assertThat(first.get("dataset_id").asText()).isEqualTo(DATASET);
        assertThat(first.get("dataset_name").asText()).isEqualTo("Staff handbook");
        assertThat(first.get("document_name").asText()).isEqualTo("leave.md");
        assertThat(first.get("content").asText()).startsWith("Paid leave: every employee");
        assertThat(first.get("retriever_from").asText()).isEqualTo("workflow");
        assertThat(first.get("score").asDouble()).isBetween(0.0, 1.0);
        assertThat(first.get("segment_id").asText()).isNotBlank();
        assertThat(first.get("index_node_hash").asText()).isNotBlank();
        JsonNode end = frames.get(frames.size() - 1);
        assertThat(end.get("event").asText()).isEqualTo("message_end");
        assertThat(end.get("metadata").get("retriever_resources").get(0).get("document_name").asText())
                .isEqualTo("leave.md");
        assertThat(kept.get("data").get(0).get("retriever_resources").get(0).get("segment_id").asText())
                .isEqualTo(first.get("segment_id").asText());
        assertThat(off.get("answer").asText()).isEqualTo("You have 25 days.");
        assertThat(off.get("metadata").get("retriever_resources")).as("the feature is off").isEmpty();
    }

    @Test
    void anIdBoundToABaseOverAdminServesTheNodeWithoutAnImportWarningUntilUnbound() {
        server.admin("POST", "/admin/knowledge/bases", "application/json",
                body(Map.of("id", "handbook", "name", "Staff handbook")));

        HttpResponse<String> bound = server.admin("POST", "/admin/knowledge/bases/handbook/aliases",
                "application/json", body(Map.of("dataset_id", DATASET)));
        addText("leave.md", "Paid leave: every employee has 25 days of paid leave a year.", "staff");
        model.answer(Script.text("You have 25 days.", 30, 5));
        JsonNode imported = server.importApp("knowledge.yml");
        JsonNode ran = json(server.api(imported.get("api_key").asText()).postJson("/v1/workflows/run",
                run(Map.of("query", "How many days of paid leave?"), "blocking", "ada")));

        assertThat(bound.statusCode()).as(bound.body()).isEqualTo(201);
        assertThat(TestServer.json(bound).get("base_id").asText()).isEqualTo("handbook");
        assertThat(imported.get("warnings")).as("a bound id is no unknown base").isEmpty();
        JsonNode data = ran.get("data");
        assertThat(data.get("status").asText()).as(ran.toString()).isEqualTo("succeeded");
        assertThat(data.get("outputs").get("sources").get(0).get("metadata").get("dataset_id").asText())
                .isEqualTo("handbook");
        assertThat(data.get("outputs").get("sources").get(0).get("title").asText()).isEqualTo("leave.md");

        HttpResponse<String> unbound = server.admin("DELETE", "/admin/knowledge/aliases/" + DATASET, null, null);
        HttpResponse<String> again = server.admin("DELETE", "/admin/knowledge/aliases/" + DATASET, null, null);
        JsonNode reimported = server.importApp("knowledge.yml");

        assertThat(unbound.statusCode()).as(unbound.body()).isEqualTo(200);
        assertThat(again.statusCode()).isEqualTo(404);
        assertThat(TestServer.json(again).get("code").asText()).isEqualTo("not_found");
        assertThat(reimported.get("warnings").toString()).contains("knowledge base " + DATASET,
                "hexaflow knowledge bind " + DATASET);
    }

    @Test
    void aBindingIsRefusedForAnUnknownBaseABasesOwnIdAndAnIdOverSixtyFourCharacters() {
        server.admin("POST", "/admin/knowledge/bases", "application/json",
                body(Map.of("id", "handbook", "name", "Staff handbook")));
        server.admin("POST", "/admin/knowledge/bases", "application/json",
                body(Map.of("id", "parking", "name", "Parking")));

        HttpResponse<String> unknown = server.admin("POST", "/admin/knowledge/bases/nope/aliases",
                "application/json", body(Map.of("dataset_id", DATASET)));
        HttpResponse<String> taken = server.admin("POST", "/admin/knowledge/bases/handbook/aliases",
                "application/json", body(Map.of("dataset_id", "parking")));
        HttpResponse<String> tooLong = server.admin("POST", "/admin/knowledge/bases/handbook/aliases",
                "application/json", body(Map.of("dataset_id", "x".repeat(65))));
        HttpResponse<String> longest = server.admin("POST", "/admin/knowledge/bases/handbook/aliases",
                "application/json", body(Map.of("dataset_id", "x".repeat(64))));
        HttpResponse<String> missing = server.admin("POST", "/admin/knowledge/bases/handbook/aliases",
                "application/json", body(Map.of()));

        assertThat(unknown.statusCode()).as(unknown.body()).isEqualTo(404);
        assertThat(taken.statusCode()).as(taken.body()).isEqualTo(409);
        assertThat(tooLong.statusCode()).as(tooLong.body()).isEqualTo(400);
        assertThat(TestServer.json(tooLong).get("code").asText()).isEqualTo("invalid_param");
        assertThat(TestServer.json(tooLong).get("message").asText()).contains("64");
        assertThat(longest.statusCode()).as(longest.body()).isEqualTo(201);
        assertThat(missing.statusCode()).isEqualTo(400);
        assertThat(TestServer.json(missing).get("status").asInt()).isEqualTo(400);

        HttpResponse<String> shadowing = server.admin("POST", "/admin/knowledge/bases", "application/json",
                body(Map.of("id", "x".repeat(64), "name", "Would hide the binding")));
        assertThat(shadowing.statusCode()).as("a base under a bound id: " + shadowing.body()).isEqualTo(409);
    }

    static final String PARKING = "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";

    /** The handbook app in single mode over the handbook and a parking base, its router the app's model. */
    private ServiceApi singleModeApp() throws java.io.IOException {
        server.admin("POST", "/admin/knowledge/bases", "application/json",
                body(Map.of("id", DATASET, "name", "Staff handbook", "description", "Leave, pay and holidays")));
        server.admin("POST", "/admin/knowledge/bases", "application/json",
                body(Map.of("id", PARKING, "name", "Parking")));
        addText("leave.md", "Paid leave: every employee has 25 days of paid leave a year.", "staff");
        HttpResponse<String> added = server.admin("POST", "/admin/knowledge/bases/" + PARKING + "/documents",
                "application/json", body(Map.of("name", "parking.md", "text",
                        "Parking: bikes park in the basement, paid leave days do not apply.",
                        "metadata", Map.of("audience", "staff"))));
        assertThat(added.statusCode()).as(added.body()).isEqualTo(201);
        String dsl;
        try (java.io.InputStream in = getClass().getResourceAsStream("/apps/knowledge.yml")) {
            dsl = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        String single = dsl.replace("dataset_ids: [" + DATASET + "]", "dataset_ids: [" + DATASET + ", " + PARKING
                + "]").replace("retrieval_mode: multiple", "retrieval_mode: single\n          single_retrieval_config:"
                + " {model: {provider: langgenius/openai/openai, name: gpt-4o-mini, mode: chat}}");
        assertThat(single).contains("single_retrieval_config", PARKING);
        HttpResponse<String> imported = server.admin("POST", "/admin/apps", "application/yaml", single);
        assertThat(imported.statusCode()).as(imported.body()).isEqualTo(201);
        return server.api(TestServer.json(imported).get("api_key").asText());
    }

    @Test
    void aSingleModeNodeSearchesTheBaseItsModelPicksByFunctionCalling() throws Exception {
        ServiceApi api = singleModeApp();
        model.answerInTurn(Script.toolCall(PARKING, "{}"), Script.text("Bikes go to the basement.", 10, 5));

        JsonNode ran = json(api.postJson("/v1/workflows/run", run(Map.of("query", "How many days of paid leave?"),
                "blocking", "ada")));

        JsonNode data = ran.get("data");
        assertThat(data.get("status").asText()).as(ran.toString()).isEqualTo("succeeded");
        JsonNode sources = data.get("outputs").get("sources");
        assertThat(sources).isNotEmpty();
        sources.forEach(source -> assertThat(source.get("metadata").get("dataset_id").asText()).isEqualTo(PARKING));
        JsonNode routed = model.requests().get(0);
        assertThat(routed.get("messages").get(0).get("content").asText()).isEqualTo("You are a helpful AI assistant.");
        assertThat(routed.get("messages").get(1).get("content").asText()).isEqualTo("How many days of paid leave?");
        JsonNode tools = routed.get("tools");
        assertThat(tools).hasSize(2);
        assertThat(tools.get(0).get("function").get("name").asText()).isEqualTo(DATASET);
        assertThat(tools.get(0).get("function").get("description").asText()).isEqualTo("Leave, pay and holidays");
        assertThat(tools.get(1).get("function").get("name").asText()).isEqualTo(PARKING);
        assertThat(tools.get(1).get("function").get("description").asText())
                .isEqualTo("useful for when you want to answer queries about the Parking");
    }

    @Test
    void aSingleModeNodeWhoseModelCallsNoToolOrFailsAnswersAnEmptyResult() throws Exception {
        ServiceApi api = singleModeApp();
        model.answerInTurn(Script.text("I would rather not.", 10, 5), Script.text("No context.", 10, 5));

        JsonNode noTool = json(api.postJson("/v1/workflows/run", run(Map.of("query", "paid leave?"), "blocking",
                "ada")));
        model.answerInTurn(Script.failure(500, "router down"), Script.text("No context.", 10, 5));
        JsonNode failed = json(api.postJson("/v1/workflows/run", run(Map.of("query", "paid leave?"), "blocking",
                "ada")));

        for (JsonNode ran : List.of(noTool, failed)) {
            assertThat(ran.get("data").get("status").asText()).as(ran.toString()).isEqualTo("succeeded");
            assertThat(ran.get("data").get("outputs").get("sources")).as(ran.toString()).isEmpty();
            assertThat(ran.get("data").get("outputs").get("answer").asText()).isEqualTo("No context.");
        }
    }

    @Test
    void anUnboundDatasetIdImportsWithAWarningAndTheRunGoesOnWithNoResultsAsInDify() {
        JsonNode imported = server.importApp("knowledge.yml");
        model.answer(Script.text("No context.", 10, 5));
        JsonNode ran = json(server.api(imported.get("api_key").asText()).postJson("/v1/workflows/run",
                run(Map.of("query", "How many days of paid leave?"), "blocking", "ada")));

        assertThat(imported.get("warnings").toString()).contains("knowledge base " + DATASET,
                "finds nothing in it", "POST /admin/knowledge/bases");
        assertThat(ran.get("data").get("status").asText()).as(ran.toString()).isEqualTo("succeeded");
        assertThat(ran.get("data").get("outputs").get("sources")).as(ran.toString()).isEmpty();
        assertThat(ran.get("data").get("outputs").get("answer").asText()).isEqualTo("No context.");
    }
}
