package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.app.api.ServiceApi.Part;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.app.wiring.Storage;
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
 * A document whose indexing failed (its embedding endpoint down) or was cut off (the server killed while it
 * indexed) ends {@code error} with the reason, one warning of the log naming it, and an update through Dify's
 * Knowledge API indexes it again once the cause is gone: it ends {@code completed} and is found.
 */
class KnowledgeRecoveryHttpTest {

    @TempDir
    Path dataDir;
    FakeModelServer model;
    TestServer server;
    ServiceApi api;

    @BeforeEach
    void start() {
        model = new FakeModelServer();
        server = start(dataDir);
        api = server.api(TestServer.json(server.admin("POST", "/admin/datasets/keys", null, null)).get("key")
                .asText());
    }

    private TestServer start(Path dir) {
        return TestServer.start(TestServer.config(dir).withEngine(EngineConfiguration.fromEnvironment(Map.of())
                .withLlm(model.baseUrl(), "sk-t").withEmbeddingModel("embed-test")));
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
        model.close();
    }

    @Test
    void aDocumentLeftIndexingByACrashEndsErrorAtTheNextStartWithTheReasonAndAnUpdateIndexesItAgain()
            throws Exception {
        String dataset = dataset("Handbook");
        String doc = documentOf(api.postJson("/v1/datasets/" + dataset + "/document/create-by-text",
                Map.of("name", "leave.md", "text", "Paid leave: 25 days a year."))).get("id").asText();
        server.close();
        server = null;
        cutOffWhileIndexing(doc);

        JsonNode read;
        JsonNode status;
        List<String> warned;
        try (LoggedWarnings warnings = new LoggedWarnings()) {
            server = start(dataDir);
            api = server.api(api.key());
            read = ServiceApi.json(api.get("/v1/datasets/" + dataset + "/documents/" + doc));
            status = ServiceApi.json(api.get("/v1/datasets/" + dataset + "/documents/" + doc + "/indexing-status"))
                    .get("data").get(0);
            warned = warnings.mentioning(doc);
        }

        assertThat(read.get("indexing_status").asText()).isEqualTo("error");
        assertThat(read.get("error").asText()).startsWith("The server stopped while the document was being indexed");
        assertThat(status.get("indexing_status").asText()).isEqualTo("error");
        assertThat(warned).as("one warning names the dataset, the document and the reason").hasSize(1);
        assertThat(warned.get(0)).contains(dataset, "The server stopped while the document was being indexed");
        assertThat(found(dataset, "paid leave")).isEmpty();

        HttpResponse<String> updated = api.postJson("/v1/datasets/" + dataset + "/documents/" + doc
                + "/update-by-text", Map.of());

        assertThat(updated.statusCode()).as(updated.body()).isEqualTo(200);
        assertThat(documentOf(updated).get("indexing_status").asText()).isEqualTo("completed");
        assertThat(found(dataset, "paid leave")).containsExactly("Paid leave: 25 days a year.");
    }

    @Test
    void documentsWhoseEmbeddingFailedEndErrorAndAnUpdateByTextOrByFileIndexesThemOnceTheEndpointIsBack() {
        String dataset = dataset("Handbook");
        model.failEmbeddings(500);
        JsonNode byText;
        JsonNode byFile;
        List<String> warned;
        try (LoggedWarnings warnings = new LoggedWarnings()) {
            byText = documentOf(api.postJson("/v1/datasets/" + dataset + "/document/create-by-text",
                    Map.of("name", "leave.md", "text", "Paid leave: 25 days a year.")));
            byFile = documentOf(api.multipart("/v1/datasets/" + dataset + "/document/create-by-file", List.of(
                    Part.field("data", "{\"indexing_technique\":\"high_quality\"}"),
                    Part.file("parking.md", "text/markdown", "Bikes park in the basement."
                            .getBytes(StandardCharsets.UTF_8)))));
            warned = warnings.mentioning(byText.get("id").asText());
        }

        assertThat(byText.get("indexing_status").asText()).isEqualTo("error");
        assertThat(byText.get("error").asText()).contains("500");
        assertThat(byFile.get("indexing_status").asText()).isEqualTo("error");
        assertThat(warned).as("one warning names the dataset, the document and the reason").hasSize(1);
        assertThat(warned.get(0)).contains(dataset, "500");

        model.failEmbeddings(0);
        JsonNode textAgain = documentOf(api.postJson("/v1/datasets/" + dataset + "/documents/"
                + byText.get("id").asText() + "/update-by-text", Map.of()));
        JsonNode fileAgain = documentOf(api.multipart("/v1/datasets/" + dataset + "/documents/"
                + byFile.get("id").asText() + "/update-by-file", List.of(Part.field("data", "{}"))));

        assertThat(textAgain.get("indexing_status").asText()).isEqualTo("completed");
        assertThat(fileAgain.get("indexing_status").asText()).isEqualTo("completed");
        assertThat(found(dataset, "paid leave")).containsExactly("Paid leave: 25 days a year.");
        assertThat(found(dataset, "where do bikes park")).containsExactly("Bikes park in the basement.");
    }

    private String dataset(String name) {
        HttpResponse<String> created = api.postJson("/v1/datasets", Map.of("name", name,
                "indexing_technique", "high_quality"));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
        return ServiceApi.json(created).get("id").asText();
    }

    private static JsonNode documentOf(HttpResponse<String> answer) {
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        return ServiceApi.json(answer).get("document");
    }

    /** The contents of the best hit searched by meaning, where there is one. */
    private List<String> found(String dataset, String query) {
        HttpResponse<String> found = api.postJson("/v1/datasets/" + dataset + "/retrieve", Map.of("query", query,
                "retrieval_model", Map.of("search_method", "semantic_search", "top_k", 1)));
        assertThat(found.statusCode()).as(found.body()).isEqualTo(200);
        return ServiceApi.json(found).get("records").findValues("segment").stream()
                .map(segment -> segment.get("content").asText()).toList();
    }

    /** The store as a kill -9 leaves it while the document was being indexed: its chunks kept, without vectors. */
    private void cutOffWhileIndexing(String documentId) {
        try (Storage storage = Storage.connect(dataDir)) {
            storage.migrate();
            storage.jdbi().useHandle(handle -> {
                handle.createUpdate("UPDATE knowledge_document SET status = 'indexing', error = NULL WHERE id = :id")
                        .bind("id", documentId).execute();
                handle.createUpdate("UPDATE knowledge_chunk SET vector = NULL WHERE document_id = :id")
                        .bind("id", documentId).execute();
            });
        }
    }
}
