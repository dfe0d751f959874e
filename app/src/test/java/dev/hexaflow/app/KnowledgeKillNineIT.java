package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.app.api.ServiceApi;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged jar killed with SIGKILL during a large Knowledge API ingestion: every knowledge base and document
 * the API answered before the kill is there after the restart, with its text searchable, and none stays
 * indexing for good.
 */
class KnowledgeKillNineIT {

    private static final String ADMIN = "knowledge-kill-admin-token-01";

    @TempDir
    Path work;

    @Test
    void basesAndDocumentsAnsweredBeforeAKillDuringALargeIngestionSurviveIt() throws Exception {
        Path data = work.resolve("data");
        Path log = work.resolve("server.log");
        Map<String, String> documents = new ConcurrentHashMap<>();
        List<String> bases = new ArrayList<>();
        String key;
        JarServer server = JarServer.start(data, log, Map.of("HEXAFLOW_ADMIN_TOKEN", ADMIN));
        try {
            key = ServiceApi.json(admin(server, "/admin/datasets/keys")).get("key").asText();
            ServiceApi api = ServiceApi.ownClient(server.baseUrl(), key);
            for (int b = 0; b < 3; b++) {
                JsonNode base = ServiceApi.json(api.postJson("/v1/datasets", Map.of("name", "base " + b)));
                bases.add(base.get("id").asText());
            }
            AtomicBoolean going = new AtomicBoolean(true);
            List<Thread> writers = new ArrayList<>();
            for (int w = 0; w < 3; w++) {
                String base = bases.get(w);
                int writer = w;
                Thread thread = new Thread(() -> {
                    for (int n = 0; going.get(); n++) {
                        String word = "word" + writer + "x" + n;
                        // Large documents, so that the kill falls inside an ingestion.
                        String text = ("A paragraph about " + word + ". ").repeat(4000);
                        try {
                            HttpResponse<String> added = api.postJson("/v1/datasets/" + base
                                    + "/document/create-by-text", Map.of("name", word + ".md", "text", text,
                                    "indexing_technique", "economy", "process_rule", Map.of("mode", "automatic")));
                            if (added.statusCode() == 200) {
                                documents.put(ServiceApi.json(added).get("document").get("id").asText(),
                                        base + " " + word);
                            }
                        } catch (RuntimeException | AssertionError killed) {
                            return;
                        }
                    }
                });
                thread.start();
                writers.add(thread);
            }
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (documents.size() < 6 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            Thread.sleep(700);
            server.kill();
            going.set(false);
            for (Thread thread : writers) {
                thread.join(20_000);
            }
        } finally {
            server.kill();
        }
        assertThat(documents).as("documents answered before the kill").hasSizeGreaterThanOrEqualTo(6);

        JarServer again = JarServer.start(data, log, Map.of("HEXAFLOW_ADMIN_TOKEN", ADMIN));
        try {
            ServiceApi api = ServiceApi.ownClient(again.baseUrl(), key);
            for (String base : bases) {
                assertThat(api.get("/v1/datasets/" + base).statusCode()).as("base " + base).isEqualTo(200);
            }
            for (Map.Entry<String, String> document : documents.entrySet()) {
                String[] baseAndWord = document.getValue().split(" ");
                HttpResponse<String> listed = api.get("/v1/datasets/" + baseAndWord[0] + "/documents?limit=100");
                assertThat(listed.body()).as("document " + document.getKey()).contains(document.getKey());
                JsonNode hits = ServiceApi.json(api.postJson("/v1/datasets/" + baseAndWord[0] + "/retrieve",
                        Map.of("query", baseAndWord[1]))).get("records");
                assertThat(hits).as("the text of " + document.getKey() + " is searchable").isNotEmpty();
            }
        } finally {
            again.stop();
        }
    }

    private static HttpResponse<String> admin(JarServer server, String path) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(server.baseUrl() + path))
                .timeout(Duration.ofSeconds(30)).header("Authorization", "Bearer " + ADMIN)
                .POST(HttpRequest.BodyPublishers.noBody()).build();
        return ServiceApi.bounded(HttpClient.newHttpClient(), request, HttpResponse.BodyHandlers.ofString());
    }
}
