package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.app.api.ServiceApi;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged jar killed with SIGKILL while a run waits for a person: the pause the blocking request answered is
 * in the store after the restart, its form opens, and its answer lets the run go on to its end.
 */
class HumanInputKillNineIT {

    private static final String ADMIN = "human-input-kill-admin-token-01";

    @TempDir
    Path work;

    @Test
    void aPausedRunAnsweredBeforeAKillGoesOnAfterTheRestart() throws Exception {
        Path data = work.resolve("data");
        Path log = work.resolve("server.log");
        String key;
        String token;
        String runId;
        JarServer server = JarServer.start(data, log, Map.of("HEXAFLOW_ADMIN_TOKEN", ADMIN));
        try {
            key = ServiceApi.json(importReview(server)).get("api_key").asText();
            JsonNode paused = ServiceApi.json(ServiceApi.ownClient(server.baseUrl(), key).postJson("/v1/workflows/run",
                    Map.of("inputs", Map.of("draft", "before the kill"), "response_mode", "blocking", "user", "ada")));
            assertThat(paused.get("data").get("status").asText()).isEqualTo("paused");
            token = paused.get("data").get("reasons").get(0).get("form_token").asText();
            runId = paused.get("workflow_run_id").asText();
        } finally {
            server.kill();
        }

        JarServer again = JarServer.start(data, log, Map.of("HEXAFLOW_ADMIN_TOKEN", ADMIN));
        try {
            ServiceApi api = ServiceApi.ownClient(again.baseUrl(), key);
            assertThat(ServiceApi.json(api.get("/v1/workflows/run/" + runId)).get("status").asText())
                    .isEqualTo("paused");
            assertThat(ServiceApi.json(api.get("/v1/form/human_input/" + token)).get("form_content").asText())
                    .startsWith("Please review: before the kill");
            assertThat(api.postJson("/v1/form/human_input/" + token, Map.of("action", "approve", "user", "ada",
                    "inputs", Map.of("feedback", "after", "priority", "high"))).statusCode()).isEqualTo(200);
            JsonNode run = null;
            for (int i = 0; i < 400; i++) {
                run = ServiceApi.json(api.get("/v1/workflows/run/" + runId));
                if (run.get("status").asText().equals("succeeded")) {
                    break;
                }
                Thread.sleep(50);
            }
            assertThat(run.get("status").asText()).isEqualTo("succeeded");
            assertThat(run.get("outputs").get("feedback").asText()).isEqualTo("after");
        } finally {
            again.stop();
        }
    }

    private static HttpResponse<String> importReview(JarServer server) throws Exception {
        String dsl;
        try (InputStream in = HumanInputKillNineIT.class.getResourceAsStream("/apps/review.yml")) {
            dsl = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        HttpRequest request = HttpRequest.newBuilder(URI.create(server.baseUrl() + "/admin/apps"))
                .timeout(Duration.ofSeconds(30)).header("Authorization", "Bearer " + ADMIN)
                .header("Content-Type", "application/yaml").POST(HttpRequest.BodyPublishers.ofString(dsl)).build();
        HttpResponse<String> imported = ServiceApi.bounded(HttpClient.newHttpClient(), request,
                HttpResponse.BodyHandlers.ofString());
        assertThat(imported.statusCode()).as(imported.body()).isEqualTo(201);
        return imported;
    }
}
