package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.app.api.ServiceApi;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Dify's {@code PATCH /v1/datasets/{dataset_id}/documents/status/{action}} on the real server: documents disabled
 * leave retrieval and come back enabled, archived ones leave it, are shown archived and refuse edits until
 * un-archived, and each refusal answers in Dify's code and message.
 */
class DocumentStatusHttpTest {

    @TempDir
    static Path dataDir;
    static TestServer server;
    static String key;
    static ServiceApi api;

    @BeforeAll
    static void start() {
        server = TestServer.start(dataDir);
        key = TestServer.json(server.admin("POST", "/admin/datasets/keys", null, null)).get("key").asText();
        api = server.api(key);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static String dataset(String name) {
        return ServiceApi.json(api.postJson("/v1/datasets", Map.of("name", name, "indexing_technique", "economy")))
                .get("id").asText();
    }

    private static String document(String dataset, String name, String text) {
        HttpResponse<String> added = api.postJson("/v1/datasets/" + dataset + "/document/create-by-text",
                Map.of("name", name, "text", text));
        assertThat(added.statusCode()).as(added.body()).isEqualTo(200);
        return ServiceApi.json(added).get("document").get("id").asText();
    }

    private static HttpResponse<String> patch(String dataset, String action, String body) {
        return server.send("PATCH", "/v1/datasets/" + dataset + "/documents/status/" + action, "application/json",
                body, key);
    }

    private static int found(String dataset, String query) {
        return ServiceApi.json(api.postJson("/v1/datasets/" + dataset + "/retrieve", Map.of("query", query,
                "retrieval_model", Map.of("search_method", "keyword_search", "top_k", 5)))).get("records").size();
    }

    private static JsonNode shown(String dataset, String document) {
        return ServiceApi.json(api.get("/v1/datasets/" + dataset + "/documents/" + document));
    }

    @Test
    void disabledDocumentsLeaveRetrievalAndComeBackEnabled() {
        String dataset = dataset("Status");
        String lunch = document(dataset, "lunch.md", "Lunch is served at noon in the canteen.");
        String dinner = document(dataset, "dinner.md", "Dinner is served in the canteen at seven.");

        HttpResponse<String> disabled = patch(dataset, "disable", "{\"document_ids\": [\"" + lunch + "\", \""
                + dinner + "\"]}");

        assertThat(disabled.statusCode()).as(disabled.body()).isEqualTo(200);
        assertThat(ServiceApi.json(disabled).get("result").asText()).isEqualTo("success");
        assertThat(shown(dataset, lunch).get("enabled").asBoolean()).isFalse();
        assertThat(shown(dataset, lunch).get("display_status").asText()).isEqualTo("disabled");
        assertThat(found(dataset, "canteen")).isZero();

        assertThat(patch(dataset, "enable", "{\"document_ids\": [\"" + lunch + "\", \"no-such-doc\"]}")
                .statusCode()).isEqualTo(200);
        assertThat(shown(dataset, lunch).get("enabled").asBoolean()).isTrue();
        assertThat(found(dataset, "canteen")).isEqualTo(1);
        assertThat(patch(dataset, "un_archive", "{\"document_ids\": [\"" + lunch + "\"]}").statusCode())
                .isEqualTo(200);
    }

    @Test
    void anArchivedDocumentLeavesRetrievalIsShownArchivedAndRefusesEditsUntilUnArchived() {
        String dataset = dataset("Archive");
        String lunch = document(dataset, "lunch.md", "Lunch is served at noon in the canteen.");
        document(dataset, "dinner.md", "Dinner is served in the canteen at seven.");
        String path = "/v1/datasets/" + dataset + "/documents/" + lunch;
        String segment = ServiceApi.json(api.get(path + "/segments")).get("data").get(0).get("id").asText();

        HttpResponse<String> archived = patch(dataset, "archive", "{\"document_ids\": [\"" + lunch + "\"]}");

        assertThat(archived.statusCode()).as(archived.body()).isEqualTo(200);
        assertThat(found(dataset, "canteen")).isEqualTo(1);
        assertThat(shown(dataset, lunch).get("archived").asBoolean()).isTrue();
        assertThat(shown(dataset, lunch).get("display_status").asText()).isEqualTo("archived");
        JsonNode listed = ServiceApi.json(api.get("/v1/datasets/" + dataset + "/documents?status=archived"))
                .get("data");
        assertThat(listed).hasSize(1);
        assertThat(listed.get(0).get("id").asText()).isEqualTo(lunch);
        assertThat(listed.get(0).get("archived").asBoolean()).isTrue();
        String notEditable = "The archived document is not editable.";
        assertError(api.postJson(path + "/update-by-text", Map.of("name", "lunch.md", "text", "Lunch moved.")),
                403, "archived_document_immutable", notEditable);
        assertError(api.postJson(path + "/segments", Map.of("segments", List.of(Map.of("content",
                "More lunch.")))), 403, "archived_document_immutable", notEditable);
        assertError(api.postJson(path + "/segments/" + segment, Map.of("segment", Map.of("content", "Changed."))),
                403, "archived_document_immutable", notEditable);
        assertError(server.send("DELETE", path, null, null, key), 403, "archived_document_immutable", notEditable);

        assertThat(patch(dataset, "un_archive", "{\"document_ids\": [\"" + lunch + "\"]}").statusCode())
                .isEqualTo(200);

        assertThat(found(dataset, "canteen")).isEqualTo(2);
        assertThat(shown(dataset, lunch).get("archived").asBoolean()).isFalse();
        assertThat(shown(dataset, lunch).get("display_status").asText()).isEqualTo("available");
        HttpResponse<String> edited = api.postJson(path + "/update-by-text", Map.of("name", "lunch.md",
                "text", "Lunch is served at one in the canteen."));
        assertThat(edited.statusCode()).as(edited.body()).isEqualTo(200);
    }

    @Test
    void eachRefusalIsDifys() {
        String dataset = dataset("Refusals");
        String lunch = document(dataset, "lunch.md", "Lunch is at noon.");
        String ids = "{\"document_ids\": [\"" + lunch + "\"]}";

        assertError(patch(dataset, "delete", ids), 400, "invalid_action",
                "Invalid action: delete. Must be one of ['enable', 'disable', 'archive', 'un_archive']");
        assertError(patch("no-such-dataset", "enable", ids), 404, "not_found", "Dataset not found.");
        assertError(patch(dataset, "enable", "{\"document_ids\": \"" + lunch + "\"}"), 400, "invalid_param",
                "document_ids must be a list of document ids.");
        assertError(patch(dataset, "enable", "[]"), 400, "invalid_param", "The request body must be a JSON object.");
        assertThat(patch(dataset, "delete", "{}").statusCode()).as("no document named, nothing to refuse")
                .isEqualTo(200);
        assertThat(server.send("PATCH", "/v1/datasets/" + dataset + "/documents/status/enable", "application/json",
                ids, null).statusCode()).isEqualTo(401);
        assertThat(shown(dataset, lunch).get("enabled").asBoolean()).isTrue();
    }

    private static void assertError(HttpResponse<String> response, int status, String code, String message) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        JsonNode body = ServiceApi.json(response);
        assertThat(body.get("code").asText()).isEqualTo(code);
        assertThat(body.get("message").asText()).isEqualTo(message);
        assertThat(body.get("status").asInt()).isEqualTo(status);
    }
}
