package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.nodes.document.TestDocuments;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.app.api.ServiceApi.Part;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files that are small on the wire and huge inside, or broken, sent to the Knowledge API on the real server: each
 * is refused with 400 in Dify's error body and a sentence that says why, never a 500 or an empty body, and the
 * server goes on serving.
 */
class DocumentBoundsHttpTest {

    @TempDir
    Path dataDir;
    TestServer server;
    ServiceApi api;
    String dataset;

    @BeforeEach
    void start() {
        server = TestServer.start(TestServer.config(dataDir));
        HttpResponse<String> issued = server.admin("POST", "/admin/datasets/keys", null, null);
        api = server.api(TestServer.json(issued).get("key").asText());
        HttpResponse<String> created = api.postJson("/v1/datasets", Map.of("name", "Uploads",
                "indexing_technique", "economy"));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
        dataset = ServiceApi.json(created).get("id").asText();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private HttpResponse<String> createByFile(String name, String contentType, byte[] bytes) {
        return api.multipart("/v1/datasets/" + dataset + "/document/create-by-file", List.of(
                Part.field("data", "{\"indexing_technique\":\"economy\",\"process_rule\":{\"mode\":\"automatic\"}}"),
                Part.file(name, contentType, bytes)));
    }

    @Test
    void docxBombsSentAtOnceAre400InDifysShapeAndTheServerGoesOn() throws Exception {
        // 50 MB of paragraphs in about 50 KB.
        byte[] bomb = TestDocuments.docxRepeating("", TestDocuments.paragraph("a".repeat(1000)), 50_000);
        ExecutorService senders = Executors.newFixedThreadPool(3);
        List<Future<HttpResponse<String>>> sent = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                sent.add(senders.submit(() -> createByFile("report.docx", TestDocuments.DOCX_TYPE, bomb)));
            }
            for (Future<HttpResponse<String>> answer : sent) {
                assertError(answer.get(), "The DOCX file's word/document.xml inflates to more than 100 times its"
                        + " compressed size, which only a zip bomb does.");
            }
        } finally {
            senders.shutdownNow();
        }

        assertThat(server.get("/health").statusCode()).isEqualTo(200);
        HttpResponse<String> fine = createByFile("notes.docx", TestDocuments.DOCX_TYPE,
                TestDocuments.docx(TestDocuments.paragraph("Lunch is at noon.")));
        assertThat(fine.statusCode()).as(fine.body()).isEqualTo(200);
        assertThat(ServiceApi.json(api.get("/v1/datasets/" + dataset + "/documents")).get("total").asInt())
                .as("only the good file is kept").isEqualTo(1);
    }

    @Test
    void brokenFilesAre400WithASentenceThatSaysWhy() {
        assertError(createByFile("empty.json", "application/json", new byte[0]),
                "Failed to decode or parse JSON file: the file holds no JSON.");
        assertError(createByFile("latin1.txt", "text/plain", new byte[] {'c', 'a', 'f', (byte) 0xE9}),
                "Failed to decode plain text file: it is not UTF-8 text (byte 4 of 4 is not).");
        assertError(createByFile("scan.pdf", "application/pdf", TestDocuments.utf8("%PDF-1.7 cut short")),
                "Failed to extract text from PDF: the file is not a readable PDF.");
    }

    private static void assertError(HttpResponse<String> response, String message) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        JsonNode body = ServiceApi.json(response);
        assertThat(body.get("code").asText()).isEqualTo("invalid_param");
        assertThat(body.get("message").asText()).isEqualTo(message);
        assertThat(body.get("status").asInt()).isEqualTo(400);
    }
}
