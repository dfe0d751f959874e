package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.app.api.ServiceApi.Part;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.app.config.Configuration;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Knowledge writes on the real server and the storage watch: below HEXAFLOW_MIN_FREE_DISK_MB they are refused with
 * 507 before anything is kept, as new runs and uploads are; a knowledge index that cannot be written is answered
 * 507 too, never 500, and leaves its document {@code error} with the reason, indexed again once it can be.
 */
class KnowledgeStorageHttpTest {

    /** More free space than any test machine has (a petabyte), so the disk is always found low. */
    private static final long MORE_THAN_ANY_DISK_MB = 1_000_000_000L;

    @TempDir
    Path dataDir;
    TestServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void belowTheFreeDiskThresholdEveryKnowledgeWriteIsRefusedWith507AndNothingIsKeptWhileReadsGoOn() {
        server = TestServer.start(TestServer.config(dataDir));
        String key = TestServer.json(server.admin("POST", "/admin/datasets/keys", null, null)).get("key").asText();
        ServiceApi api = server.api(key);
        String dataset = ServiceApi.json(api.postJson("/v1/datasets", Map.of("name", "Handbook"))).get("id").asText();
        String doc = ServiceApi.json(api.postJson("/v1/datasets/" + dataset + "/document/create-by-text",
                Map.of("name", "leave.md", "text", "Paid leave: 25 days a year."))).get("document").get("id")
                .asText();
        String documentPath = "/v1/datasets/" + dataset + "/documents/" + doc;
        String segment = ServiceApi.json(api.get(documentPath + "/segments")).get("data").get(0).get("id").asText();
        server.close();
        server = null;

        Configuration lowDisk = TestServer.config(dataDir);
        server = TestServer.start(lowDisk.withService(lowDisk.service().withMinFreeDiskMb(MORE_THAN_ANY_DISK_MB)));
        api = server.api(key);
        assertThat(server.get("/readyz").body()).as("the disk is found low").contains("disk_low");

        List<HttpResponse<String>> writes = List.of(
                api.postJson("/v1/datasets", Map.of("name", "Another")),
                api.postJson("/v1/datasets/" + dataset + "/document/create-by-text",
                        Map.of("name", "parking.md", "text", "Bikes park in the basement.")),
                api.multipart("/v1/datasets/" + dataset + "/document/create-by-file", List.of(
                        Part.field("data", "{\"indexing_technique\":\"economy\"}"),
                        Part.file("notes.md", "text/markdown", "Lunch is at noon.".getBytes(StandardCharsets.UTF_8)))),
                api.postJson(documentPath + "/update-by-text", Map.of("text", "Paid leave: 30 days a year.")),
                api.multipart(documentPath + "/update-by-file", List.of(Part.file("leave.md", "text/markdown",
                        "Paid leave: 35 days a year.".getBytes(StandardCharsets.UTF_8)))),
                api.postJson(documentPath + "/segments", Map.of("segments", List.of(Map.of("content",
                        "The gym opens at six.")))),
                api.postJson(documentPath + "/segments/" + segment, Map.of("segment", Map.of("content",
                        "Paid leave: 40 days a year."))),
                api.postJson(documentPath + "/segments/" + segment + "/child_chunks", Map.of("content",
                        "25 days.")));

        for (HttpResponse<String> refused : writes) {
            String request = refused.request().method() + " " + refused.request().uri().getPath();
            assertThat(refused.statusCode()).as(request + ": " + refused.body()).isEqualTo(507);
            JsonNode body = ServiceApi.json(refused);
            assertThat(body.get("code").asText()).as(request).isEqualTo("insufficient_storage");
            assertThat(body.get("status").asInt()).as(request).isEqualTo(507);
            assertThat(body.get("message").asText()).as(request).contains("disk is nearly full");
            assertThat(refused.headers().firstValue("Retry-After")).as(request).isPresent();
        }
        JsonNode datasets = ServiceApi.json(api.get("/v1/datasets"));
        JsonNode documents = ServiceApi.json(api.get("/v1/datasets/" + dataset + "/documents"));
        JsonNode segments = ServiceApi.json(api.get(documentPath + "/segments"));
        HttpResponse<String> found = api.postJson("/v1/datasets/" + dataset + "/retrieve", Map.of("query",
                "paid leave", "retrieval_model", Map.of("search_method", "keyword_search", "top_k", 3)));
        assertThat(datasets.get("total").asInt()).isEqualTo(1);
        assertThat(documents.get("data")).extracting(d -> d.get("name").asText()).containsExactly("leave.md");
        assertThat(segments.get("data")).extracting(s -> s.get("content").asText())
                .containsExactly("Paid leave: 25 days a year.");
        assertThat(found.statusCode()).as(found.body()).isEqualTo(200);
        assertThat(ServiceApi.json(found).get("records")).extracting(r -> r.get("segment").get("content").asText())
                .containsExactly("Paid leave: 25 days a year.");
    }

    @Test
    void aKnowledgeIndexThatCannotBeWrittenIsAnswered507AndLeavesTheDocumentInErrorIndexedAgainOnceItCanBe()
            throws IOException {
        server = TestServer.start(TestServer.config(dataDir));
        ServiceApi api = server.api(TestServer.json(server.admin("POST", "/admin/datasets/keys", null, null))
                .get("key").asText());
        String dataset = ServiceApi.json(api.postJson("/v1/datasets", Map.of("name", "Handbook"))).get("id").asText();
        Map<String, Object> leave = Map.of("name", "leave.md", "text", "Paid leave: 25 days a year.");
        Path index = dataDir.resolve("knowledge");
        // A store without knowledge starts without opening the index: its first write opens it, and a file where
        // its folder should be is a storage failure of that write, not a server error.
        String drafts = ServiceApi.json(api.postJson("/v1/datasets", Map.of("name", "Drafts"))).get("id").asText();
        Map<String, Object> draft = Map.of("name", "draft.md", "text", "A first draft.");
        Files.writeString(index, "not a directory");
        HttpResponse<String> unopened = api.postJson("/v1/datasets/" + drafts + "/document/create-by-text", draft);
        assertThat(unopened.statusCode()).as(unopened.body()).isEqualTo(507);
        assertThat(ServiceApi.json(unopened).get("message").asText()).contains("knowledge index")
                .doesNotContain(dataDir.toString());
        Files.delete(index);
        HttpResponse<String> opened = api.postJson("/v1/datasets/" + drafts + "/document/create-by-text", draft);
        assertThat(opened.statusCode()).as(opened.body()).isEqualTo(200);
        // The index's directory cannot hold files any more: a file stands in its place, which the file system
        // refuses to create anything in (as it would a full disk), whoever the server runs as.
        Path aside = dataDir.resolve("knowledge-aside");
        Files.move(index, aside);
        Files.writeString(index, "not a directory");

        HttpResponse<String> refused;
        JsonNode listed;
        List<String> warned;
        try (LoggedWarnings warnings = new LoggedWarnings()) {
            refused = api.postJson("/v1/datasets/" + dataset + "/document/create-by-text", leave);
            listed = ServiceApi.json(api.get("/v1/datasets/" + dataset + "/documents")).get("data");
            warned = listed.size() == 1 ? warnings.mentioning(listed.get(0).get("id").asText()) : List.of();
        }

        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(507);
        JsonNode body = ServiceApi.json(refused);
        assertThat(body.get("code").asText()).isEqualTo("insufficient_storage");
        assertThat(body.get("status").asInt()).isEqualTo(507);
        assertThat(body.get("message").asText()).contains("knowledge index", "Not a directory");
        assertThat(refused.headers().firstValue("Retry-After")).isPresent();
        assertThat(listed).hasSize(1);
        JsonNode document = listed.get(0);
        assertThat(document.get("indexing_status").asText()).isEqualTo("error");
        assertThat(document.get("error").asText()).contains("knowledge index", "Not a directory");
        assertThat(warned).as("one warning names the dataset, the document and the reason").hasSize(1);
        assertThat(warned.get(0)).contains(dataset, "Not a directory");

        Files.delete(index);
        Files.move(aside, index);
        HttpResponse<String> again = api.postJson("/v1/datasets/" + dataset + "/document/create-by-text", leave);
        HttpResponse<String> found = api.postJson("/v1/datasets/" + dataset + "/retrieve", Map.of("query",
                "paid leave", "retrieval_model", Map.of("search_method", "keyword_search", "top_k", 3)));

        assertThat(again.statusCode()).as(again.body()).isEqualTo(200);
        assertThat(ServiceApi.json(again).get("document").get("id").asText()).as("the same document")
                .isEqualTo(document.get("id").asText());
        assertThat(ServiceApi.json(again).get("document").get("indexing_status").asText()).isEqualTo("completed");
        assertThat(ServiceApi.json(found).get("records")).extracting(r -> r.get("segment").get("content").asText())
                .containsExactly("Paid leave: 25 days a year.");
    }
}
