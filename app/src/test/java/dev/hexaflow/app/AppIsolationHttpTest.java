package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static dev.hexaflow.app.api.ServiceApi.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.app.api.ServiceApi;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A key of one app reaches nothing of another: its runs, logs, files, tasks and workflow versions answer
 * exactly as things that do not exist at all, so a key cannot even learn that they are there.
 */
class AppIsolationHttpTest {

    @TempDir
    static Path dataDir;
    static TestServer server;
    static ServiceApi mine;
    static ServiceApi theirs;
    static String theirWorkflowId;
    static String theirRunId;
    static String theirUpload;

    @BeforeAll
    static void start() {
        server = TestServer.start(dataDir);
        mine = server.api(server.importApp("reader.yml").get("api_key").asText());
        JsonNode other = server.importApp("echo.yml");
        theirs = server.api(other.get("api_key").asText());
        theirWorkflowId = other.get("workflow_id").asText();
        theirRunId = json(theirs.postJson("/v1/workflows/run", run(Map.of("query", "secret"), "blocking", "ada")))
                .get("workflow_run_id").asText();
        theirUpload = theirs.upload("ada", "theirs.txt", "text/plain", "theirs".getBytes(StandardCharsets.UTF_8));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void anotherAppsRunReadsAsARunThatDoesNotExist() {
        String nobody = UUID.randomUUID().toString();

        HttpResponse<String> theirRun = mine.get("/v1/workflows/run/" + theirRunId);
        HttpResponse<String> noRun = mine.get("/v1/workflows/run/" + nobody);

        assertThat(theirRun.statusCode()).isEqualTo(404).isEqualTo(noRun.statusCode());
        assertThat(theirRun.body()).isEqualTo(noRun.body());
        assertThat(theirs.get("/v1/workflows/run/" + theirRunId).statusCode()).isEqualTo(200);
    }

    @Test
    void logsListOnlyTheKeysOwnAppEvenWhenSearchedForTheOthersWords() {
        JsonNode searched = json(mine.get("/v1/workflows/logs?keyword=secret"));
        JsonNode all = json(mine.get("/v1/workflows/logs?limit=100"));

        assertThat(searched.get("total").asInt()).isZero();
        assertThat(all.get("data").findValuesAsText("id")).doesNotContain(theirRunId);
        assertThat(json(theirs.get("/v1/workflows/logs?keyword=secret")).get("total").asInt()).isEqualTo(1);
    }

    @Test
    void anotherAppsUploadIsAnInputThatDoesNotExist() {
        String nobody = UUID.randomUUID().toString();

        HttpResponse<String> theirFile = mine.postJson("/v1/workflows/run", run(Map.of("doc", Map.of(
                "transfer_method", "local_file", "upload_file_id", theirUpload, "type", "document")), "blocking",
                "ada"));
        HttpResponse<String> noFile = mine.postJson("/v1/workflows/run", run(Map.of("doc", Map.of(
                "transfer_method", "local_file", "upload_file_id", nobody, "type", "document")), "blocking", "ada"));

        assertThat(theirFile.statusCode()).isEqualTo(400).isEqualTo(noFile.statusCode());
        assertThat(json(theirFile).get("code").asText()).isEqualTo(json(noFile).get("code").asText());
        assertThat(json(theirFile).get("message").asText().replace(theirUpload, "ID"))
                .isEqualTo(json(noFile).get("message").asText().replace(nobody, "ID"));
    }

    @Test
    void anotherAppsWorkflowVersionRunsAsOneThatDoesNotExist() {
        HttpResponse<String> theirVersion = mine.postJson("/v1/workflows/" + theirWorkflowId + "/run",
                run(Map.of(), "blocking", "ada"));
        String nobody = UUID.randomUUID().toString();
        HttpResponse<String> noVersion = mine.postJson("/v1/workflows/" + nobody + "/run",
                run(Map.of(), "blocking", "ada"));

        assertThat(theirVersion.statusCode()).isEqualTo(noVersion.statusCode()).isBetween(400, 404);
        assertThat(json(theirVersion).get("code").asText()).isEqualTo(json(noVersion).get("code").asText());
        assertThat(json(theirVersion).get("message").asText().replace(theirWorkflowId, "ID"))
                .isEqualTo(json(noVersion).get("message").asText().replace(nobody, "ID"));
    }

    @Test
    void stoppingAnotherAppsTaskAnswersAsForAnyTaskAndTheRunGoesOn() throws Exception {
        ServiceApi slow = server.api(server.importApp("slow.yml").get("api_key").asText());
        HttpResponse<InputStream> stream = slow.postStreaming("/v1/workflows/run",
                run(Map.of("millis", 700), "streaming", "ada"));
        BufferedReader lines = new BufferedReader(new InputStreamReader(stream.body(), StandardCharsets.UTF_8));
        JsonNode first = new com.fasterxml.jackson.databind.ObjectMapper().readTree(lines.readLine().substring(6));

        HttpResponse<String> theirTask = mine.postJson("/v1/workflows/tasks/" + first.get("task_id").asText()
                + "/stop", Map.of("user", "ada"));
        HttpResponse<String> noTask = mine.postJson("/v1/workflows/tasks/" + UUID.randomUUID() + "/stop",
                Map.of("user", "ada"));
        StringBuilder rest = new StringBuilder();
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
            rest.append(line).append('\n');
        }

        assertThat(theirTask.statusCode()).isEqualTo(noTask.statusCode());
        assertThat(theirTask.body()).isEqualTo(noTask.body());
        assertThat(rest).contains("\"event\":\"workflow_finished\"").contains("\"status\":\"succeeded\"");
    }
}
