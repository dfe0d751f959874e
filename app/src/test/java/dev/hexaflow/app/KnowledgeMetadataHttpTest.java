package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.app.api.ServiceApi;
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
 * Dify's metadata routes of the Knowledge API on the real server (keyword-only bases, H2): fields, built-in fields,
 * documents' values, the filters of retrieve that test them, and every limit refused in Dify's error body with
 * nothing changed.
 */
class KnowledgeMetadataHttpTest {

    @TempDir
    Path dataDir;
    TestServer server;
    ServiceApi api;
    String dataset;
    String leave;
    String board;

    @BeforeEach
    void start() {
        server = TestServer.start(TestServer.config(dataDir));
        HttpResponse<String> issued = server.admin("POST", "/admin/datasets/keys", null, null);
        api = server.api(TestServer.json(issued).get("key").asText());
        HttpResponse<String> created = api.postJson("/v1/datasets", Map.of("name", "Handbook"));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
        dataset = ServiceApi.json(created).get("id").asText();
        leave = addText("leave.md", "Paid leave: every employee has 25 days of paid leave a year.");
        board = addText("board.md", "Paid leave for board members is decided by the board.");
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private String addText(String name, String text) {
        HttpResponse<String> added = api.postJson("/v1/datasets/" + dataset + "/document/create-by-text",
                Map.of("name", name, "text", text, "indexing_technique", "economy"));
        assertThat(added.statusCode()).as(added.body()).isEqualTo(200);
        return ServiceApi.json(added).get("document").get("id").asText();
    }

    private HttpResponse<String> createField(String type, String name) {
        return api.postJson("/v1/datasets/" + dataset + "/metadata", Map.of("type", type, "name", name));
    }

    private String field(String type, String name) {
        HttpResponse<String> created = createField(type, name);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        return ServiceApi.json(created).get("id").asText();
    }

    private HttpResponse<String> setValues(List<Map<String, Object>> operations) {
        return api.postJson("/v1/datasets/" + dataset + "/documents/metadata", Map.of("operation_data", operations));
    }

    @SafeVarargs
    private static Map<String, Object> values(String document, Map<String, Object>... values) {
        return Map.of("document_id", document, "metadata_list", List.of(values));
    }

    private static Map<String, Object> value(String id, String name, Object value) {
        return Map.of("id", id, "name", name, "value", value);
    }

    private List<String> found(String field, String operator, Object value) {
        HttpResponse<String> response = api.postJson("/v1/datasets/" + dataset + "/retrieve", Map.of("query",
                "paid leave", "retrieval_model", Map.of("search_method", "keyword_search", "top_k", 5,
                        "metadata_filtering_conditions", Map.of("logical_operator", "and", "conditions", List.of(
                                Map.of("name", field, "comparison_operator", operator, "value", value))))));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        List<String> names = new ArrayList<>();
        ServiceApi.json(response).get("records").forEach(r -> names.add(r.get("segment").get("document")
                .get("name").asText()));
        return names;
    }

    private JsonNode metadata() {
        HttpResponse<String> listed = api.get("/v1/datasets/" + dataset + "/metadata");
        assertThat(listed.statusCode()).as(listed.body()).isEqualTo(200);
        return ServiceApi.json(listed);
    }

    private JsonNode docMetadata(String document) {
        return ServiceApi.json(api.get("/v1/datasets/" + dataset + "/documents/" + document)).get("doc_metadata");
    }

    @Test
    void fieldsAreCreatedAndValuedThenRetrieveFiltersOnThemAndRenamingOrDeletingCarriesTheValues() {
        HttpResponse<String> created = createField("string", "audience");
        String audience = ServiceApi.json(created).get("id").asText();
        String level = field("number", "level");

        HttpResponse<String> set = setValues(List.of(values(leave, value(audience, "audience", "staff"),
                value(level, "level", 2)), values(board, value(audience, "audience", "board"), value(level, "level",
                        9))));

        assertThat(created.statusCode()).isEqualTo(201);
        assertThat(ServiceApi.json(created).get("type").asText()).isEqualTo("string");
        assertThat(ServiceApi.json(created).get("name").asText()).isEqualTo("audience");
        assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
        assertThat(ServiceApi.json(set).get("result").asText()).isEqualTo("success");
        JsonNode listed = metadata();
        assertThat(listed.get("built_in_field_enabled").asBoolean()).isFalse();
        assertThat(listed.get("doc_metadata")).hasSize(2);
        assertThat(listed.get("doc_metadata").get(0).get("id").asText()).isEqualTo(audience);
        assertThat(listed.get("doc_metadata").get(0).get("count").asInt()).isEqualTo(2);
        assertThat(listed.get("doc_metadata").get(1).get("type").asText()).isEqualTo("number");
        JsonNode shown = docMetadata(leave);
        assertThat(shown).hasSize(2);
        assertThat(shown.get(0).get("id").asText()).isEqualTo(audience);
        assertThat(shown.get(0).get("value").asText()).isEqualTo("staff");
        assertThat(shown.get(1).get("type").asText()).isEqualTo("number");
        assertThat(found("audience", "is", "staff")).containsExactly("leave.md");
        assertThat(found("level", ">", 5)).containsExactly("board.md");

        HttpResponse<String> renamed = call("PATCH", "/v1/datasets/" + dataset + "/metadata/" + audience,
                Map.of("name", "team"));
        assertThat(renamed.statusCode()).as(renamed.body()).isEqualTo(200);
        assertThat(ServiceApi.json(renamed).get("name").asText()).isEqualTo("team");
        assertThat(found("team", "is", "board")).containsExactly("board.md");
        assertThat(found("audience", "is", "board")).as("the old name holds no value any more").isEmpty();

        HttpResponse<String> deleted = call("DELETE", "/v1/datasets/" + dataset + "/metadata/" + level, null);
        assertThat(deleted.statusCode()).isEqualTo(204);
        assertThat(found("level", ">", 5)).isEmpty();
        assertThat(metadata().get("doc_metadata")).hasSize(1);
        assertThat(docMetadata(board)).hasSize(1);
        assertThat(docMetadata(board).get(0).get("name").asText()).isEqualTo("team");

        HttpResponse<String> cleared = setValues(List.of(values(board)));
        assertThat(cleared.statusCode()).isEqualTo(200);
        assertThat(docMetadata(board)).isEmpty();
        assertThat(metadata().get("doc_metadata").get(0).get("count").asInt()).isEqualTo(1);
    }

    @Test
    void builtInFieldsAreListedAndShownOnDocumentsOnlyWhileEnabled() {
        HttpResponse<String> builtIn = api.get("/v1/datasets/" + dataset + "/metadata/built-in");

        assertThat(builtIn.statusCode()).isEqualTo(200);
        JsonNode fields = ServiceApi.json(builtIn).get("fields");
        assertThat(fields).hasSize(5);
        assertThat(fields.get(0).get("name").asText()).isEqualTo("document_name");
        assertThat(fields.get(2).get("name").asText()).isEqualTo("upload_date");
        assertThat(fields.get(2).get("type").asText()).isEqualTo("time");
        assertThat(docMetadata(leave)).isEmpty();

        HttpResponse<String> enabled = api.postJson("/v1/datasets/" + dataset + "/metadata/built-in/enable", Map.of());
        assertThat(enabled.statusCode()).as(enabled.body()).isEqualTo(200);
        assertThat(ServiceApi.json(enabled).get("result").asText()).isEqualTo("success");
        assertThat(metadata().get("built_in_field_enabled").asBoolean()).isTrue();
        JsonNode shown = docMetadata(leave);
        assertThat(shown).hasSize(5);
        assertThat(shown.get(0).get("id").asText()).isEqualTo("built-in");
        assertThat(shown.get(0).get("value").asText()).isEqualTo("leave.md");
        assertThat(shown.get(4).get("name").asText()).isEqualTo("source");

        api.postJson("/v1/datasets/" + dataset + "/metadata/built-in/disable", Map.of());
        assertThat(metadata().get("built_in_field_enabled").asBoolean()).isFalse();
        assertThat(docMetadata(leave)).isEmpty();
    }

    @Test
    void aFieldNameIsRefusedBeyond255CharactersTakenOrBuiltInAndATypeOutsideDifysThree() {
        String longest = "n".repeat(255);
        String audience = field("string", "audience");

        assertThat(createField("string", longest).statusCode()).isEqualTo(201);
        assertError(createField("string", longest + "n"), 400, "invalid_param",
                "Metadata name cannot exceed 255 characters.");
        assertError(createField("string", "audience"), 400, "invalid_param", "Metadata name already exists.");
        assertError(createField("time", "upload_date"), 400, "invalid_param",
                "Metadata name already exists in Built-in fields.");
        assertError(createField("date", "when"), 400, "invalid_param", "type must be string, number or time.");
        assertError(createField("string", ""), 400, "invalid_param", "Metadata name cannot be empty.");
        assertError(call("PATCH", "/v1/datasets/" + dataset + "/metadata/" + audience,
                Map.of("name", longest + "x")), 400, "invalid_param", "Metadata name cannot exceed 255 characters.");
        assertError(call("PATCH", "/v1/datasets/" + dataset + "/metadata/" + audience,
                Map.of("name", longest)), 400, "invalid_param", "Metadata name already exists.");
        assertThat(metadata().get("doc_metadata")).hasSize(2);
        assertThat(metadata().get("doc_metadata").get(0).get("name").asText()).isEqualTo("audience");
    }

    @Test
    void aBaseHoldsAtMostAHundredFields() {
        for (int i = 1; i <= 100; i++) {
            field("string", "field " + i);
        }

        assertError(createField("string", "field 101"), 400, "invalid_param",
                "Metadata fields cannot exceed 100 per dataset.");
        assertThat(metadata().get("doc_metadata")).hasSize(100);
    }

    @Test
    void aBatchOfValuesWithOneBadOperationIsRefusedWholeAndChangesNothing() {
        String audience = field("string", "audience");
        setValues(List.of(values(leave, value(audience, "audience", "staff"))));
        String longest = "v".repeat(1000);

        HttpResponse<String> unknownDocument = setValues(List.of(values(leave, value(audience, "audience", "all")),
                values("no-such-document", value(audience, "audience", "x"))));
        HttpResponse<String> unknownField = setValues(List.of(values(leave, value(audience, "audience", "all"),
                value("no-such-field", "other", "x"))));
        HttpResponse<String> wrongName = setValues(List.of(values(leave, value(audience, "other", "all"))));
        HttpResponse<String> tooLong = setValues(List.of(values(leave, value(audience, "audience", longest + "v"))));
        HttpResponse<String> notAList = api.postJson("/v1/datasets/" + dataset + "/documents/metadata",
                Map.of("operation_data", "all"));

        assertError(unknownDocument, 400, "invalid_param", "Document not found.");
        assertError(unknownField, 400, "invalid_param", "Metadata not found.");
        assertError(wrongName, 400, "invalid_param", "Metadata name 'other' is not the name of metadata "
                + audience + ".");
        assertError(tooLong, 400, "invalid_param", "Metadata value cannot exceed 1000 characters.");
        assertError(notAList, 400, "invalid_param", "operation_data must be a list.");
        assertThat(docMetadata(leave).get(0).get("value").asText()).isEqualTo("staff");
        assertThat(setValues(List.of(values(leave, value(audience, "audience", longest)))).statusCode())
                .isEqualTo(200);
        assertThat(docMetadata(leave).get(0).get("value").asText()).isEqualTo(longest);
    }

    @Test
    void unknownDatasetsFieldsAndActionsAreRefusedInDifysBody() {
        String audience = field("string", "audience");

        assertError(api.get("/v1/datasets/no-such-dataset/metadata"), 404, "not_found", "Dataset not found.");
        assertError(api.postJson("/v1/datasets/no-such-dataset/metadata", Map.of("type", "string", "name", "x")),
                404, "not_found", "Dataset not found.");
        assertError(call("PATCH", "/v1/datasets/" + dataset + "/metadata/no-such-field", Map.of("name", "x")),
                404, "not_found", "Metadata not found.");
        assertError(call("DELETE", "/v1/datasets/" + dataset + "/metadata/no-such-field", null), 404,
                "not_found", "Metadata not found.");
        assertError(api.postJson("/v1/datasets/" + dataset + "/metadata/built-in/toggle", Map.of()), 400,
                "invalid_param", "action must be enable or disable.");
        assertError(api.postJson("/v1/datasets/" + dataset + "/metadata", List.of()), 400, "invalid_param",
                "The request body must be a JSON object.");
        assertThat(metadata().get("doc_metadata").get(0).get("id").asText()).isEqualTo(audience);
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
