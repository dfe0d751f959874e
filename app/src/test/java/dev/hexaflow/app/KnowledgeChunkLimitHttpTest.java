package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.app.cli.UsageException;
import dev.hexaflow.app.config.ServiceSettings;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Knowledge API documents whose process rule would split them into a flood of chunks: refused at once with 400 in
 * Dify's {@code {code, message, status}}, nothing kept, the server free for the next document; Dify's own bounds on
 * the rule with Dify's messages; and the bound as a setting.
 */
class KnowledgeChunkLimitHttpTest {

    /** About a megabyte of words. */
    private static final String MEGABYTE_OF_WORDS = "lorem ipsum dolor sit amet consectetur ".repeat(26_000);

    @TempDir
    Path dataDir;
    TestServer server;
    ServiceApi api;
    String dataset;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private void start(Map<String, String> environment) {
        server = TestServer.start(TestServer.config(dataDir).withService(ServiceSettings.fromEnvironment(environment)
                .withShutdownGrace(Duration.ofSeconds(1))));
        api = server.api(TestServer.json(server.admin("POST", "/admin/datasets/keys", null, null)).get("key")
                .asText());
        HttpResponse<String> created = api.postJson("/v1/datasets", Map.of("name", "Handbook",
                "indexing_technique", "economy"));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
        dataset = ServiceApi.json(created).get("id").asText();
    }

    private HttpResponse<String> add(String name, String text, String separator, int maxTokens, int overlap) {
        return api.postJson("/v1/datasets/" + dataset + "/document/create-by-text", Map.of("name", name, "text", text,
                "indexing_technique", "economy", "process_rule", Map.of("mode", "custom", "rules", Map.of(
                        "pre_processing_rules", List.of(), "segmentation", Map.of("separator", separator,
                                "max_tokens", maxTokens, "chunk_overlap", overlap)))));
    }

    private int documents() {
        return ServiceApi.json(api.get("/v1/datasets/" + dataset + "/documents")).get("total").asInt();
    }

    private static void assertRefused(HttpResponse<String> response, String message) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        JsonNode body = ServiceApi.json(response);
        assertThat(body.get("code").asText()).isEqualTo("invalid_param");
        assertThat(body.get("status").asInt()).isEqualTo(400);
        assertThat(body.get("message").asText()).isEqualTo(message);
    }

    @Test
    void aMegabyteSplitAtEverySpaceWithAlmostWholeChunksOfOverlapIsRefusedAtOnceAndKeepsNothing() {
        start(Map.of());
        long began = System.nanoTime();

        HttpResponse<String> refused = add("flood.txt", MEGABYTE_OF_WORDS, " ", 500, 499);

        assertRefused(refused, "The document would be split into more than 10000 chunks, the most one document may "
                + "have; split it with a larger max_tokens, a smaller chunk_overlap or another separator.");
        assertThat((System.nanoTime() - began) / 1e9).isLessThan(5.0);
        assertThat(documents()).isZero();
        HttpResponse<String> next = add("leave.md", "Paid leave: 25 days.\n\nParking: in the basement.", "\\n\\n",
                500, 50);
        assertThat(next.statusCode()).as(next.body()).isEqualTo(200);
        assertThat(documents()).isEqualTo(1);
    }

    @Test
    void rulesOutsideDifysBoundsAreRefusedWithDifysMessages() {
        start(Map.of());

        assertRefused(add("a.md", "text", " ", 4001, 0), "Custom segment length should be between 50 and 4000.");
        assertRefused(add("b.md", "text", " ", 500, 501),
                "Got a larger chunk overlap (501) than chunk size (500), should be smaller.");
        assertThat(documents()).isZero();
    }

    @Test
    void theBoundIsTheOperatorsSetting() {
        start(Map.of("HEXAFLOW_MAX_CHUNKS_PER_DOCUMENT", "3"));

        assertRefused(add("four.md", "a\nb\nc\nd", "\\n", 500, 0), "The document would be split into more than 3 "
                + "chunks, the most one document may have; split it with a larger max_tokens, a smaller "
                + "chunk_overlap or another separator.");
        HttpResponse<String> three = add("three.md", "a\nb\nc", "\\n", 500, 0);

        assertThat(three.statusCode()).as(three.body()).isEqualTo(200);
        assertThat(documents()).isEqualTo(1);
        assertThatThrownBy(() -> ServiceSettings.fromEnvironment(Map.of("HEXAFLOW_MAX_CHUNKS_PER_DOCUMENT", "0")))
                .isInstanceOf(UsageException.class).hasMessageContaining("HEXAFLOW_MAX_CHUNKS_PER_DOCUMENT");
    }
}
