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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 38's example on the real server, with no embedding model: a keyword search for "where do visitors park"
 * finds "Visitor parking is in Lot X…" through the Knowledge API, as the base's analyzer (keyword_analyzer, auto by
 * default) stems both; the analyzer is chosen and changed in the dataset's body, kept across a restart, and a value
 * that is not one is refused in Dify's error body.
 */
class KeywordAnalyzerHttpTest {

    private static final String PARKING = "Visitor parking is in Lot X, behind the library; the barrier opens "
            + "with the code from reception.";

    @TempDir
    Path dataDir;
    TestServer server;
    ServiceApi api;

    private void start() {
        server = TestServer.start(TestServer.config(dataDir));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private String dataset(Map<String, Object> body) {
        HttpResponse<String> created = api.postJson("/v1/datasets", body);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
        return ServiceApi.json(created).get("id").asText();
    }

    private void addText(String dataset, String name, String text) {
        HttpResponse<String> added = api.postJson("/v1/datasets/" + dataset + "/document/create-by-text",
                Map.of("name", name, "text", text, "indexing_technique", "economy"));
        assertThat(added.statusCode()).as(added.body()).isEqualTo(200);
    }

    private List<String> keywordSearch(String dataset, String query) {
        HttpResponse<String> response = api.postJson("/v1/datasets/" + dataset + "/retrieve", Map.of("query", query,
                "retrieval_model", Map.of("search_method", "keyword_search", "top_k", 3)));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        List<String> found = new ArrayList<>();
        ServiceApi.json(response).get("records").forEach(r -> found.add(r.get("segment").get("content").asText()));
        return found;
    }

    private HttpResponse<String> patch(String dataset, String body) {
        return server.send("PATCH", "/v1/datasets/" + dataset, "application/json", body, api.key());
    }

    @Test
    void whereDoVisitorsParkFindsVisitorParkingAndTheAnalyzerIsTheDatasetsToChooseAndKeep() {
        start();
        api = server.api(TestServer.json(server.admin("POST", "/admin/datasets/keys", null, null)).get("key")
                .asText());
        String campus = dataset(Map.of("name", "Campus"));
        addText(campus, "parking.md", PARKING);
        addText(campus, "library.md", "The library opens at eight; books are returned at the front desk.");

        JsonNode read = ServiceApi.json(api.get("/v1/datasets/" + campus));
        assertThat(read.get("keyword_analyzer").asText()).isEqualTo("auto");
        assertThat(read.get("indexing_technique").asText()).as("no embedding model").isEqualTo("economy");
        assertThat(keywordSearch(campus, "where do visitors park")).containsExactly(PARKING);

        HttpResponse<String> before = patch(campus, "{\"keyword_analyzer\": \"cjk\"}");
        assertThat(before.statusCode()).as(before.body()).isEqualTo(200);
        assertThat(ServiceApi.json(before).get("keyword_analyzer").asText()).isEqualTo("cjk");
        assertThat(keywordSearch(campus, "where do visitors park")).as("the analysis before issue 38").isEmpty();

        assertThat(patch(campus, "{\"keyword_analyzer\": \"snowball\"}").body()).isEqualTo("{\"code\":"
                + "\"invalid_param\",\"message\":\"keyword_analyzer must be auto, english, cjk or standard.\","
                + "\"status\":400}");
        assertThat(patch(campus, "{\"keyword_analyzer\": 5}").statusCode()).isEqualTo(400);
        assertThat(patch(campus, "{\"keyword_analyzer\": \"english\", \"name\": \"Campus map\"}").statusCode())
                .isEqualTo(200);

        String english = dataset(Map.of("name", "Handbook", "keyword_analyzer", "english"));
        assertThat(api.postJson("/v1/datasets", Map.of("name", "Other", "keyword_analyzer", "klingon"))
                .statusCode()).isEqualTo(400);

        server.close();
        start();
        api = server.api(api.key());
        assertThat(ServiceApi.json(api.get("/v1/datasets/" + campus)).get("keyword_analyzer").asText())
                .isEqualTo("english");
        assertThat(ServiceApi.json(api.get("/v1/datasets/" + english)).get("keyword_analyzer").asText())
                .isEqualTo("english");
        assertThat(keywordSearch(campus, "where do visitors park")).containsExactly(PARKING);
    }

    @Test
    void theAdminRoutesCreateABaseWithAnAnalyzerAndRefuseAnUnknownOne() {
        start();
        HttpResponse<String> created = server.admin("POST", "/admin/knowledge/bases", "application/json",
                "{\"name\": \"Handbook\", \"keyword_analyzer\": \"standard\"}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        assertThat(TestServer.json(created).get("keyword_analyzer").asText()).isEqualTo("standard");
        HttpResponse<String> refused = server.admin("POST", "/admin/knowledge/bases", "application/json",
                "{\"name\": \"Other\", \"keyword_analyzer\": \"klingon\"}");
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(refused.body()).contains("keyword_analyzer must be auto, english, cjk or standard.");
    }
}
