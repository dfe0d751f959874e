package dev.hexaflow.app;

import static dev.hexaflow.app.TestServer.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.testing.SharedFolder;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An app's DSL comes back out as it went in: through the admin API and the command line, the newest version or an
 * older one; and every conformance fixture exported imports again and runs the same.
 */
class DslExportTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dataDir;

    private static String resource(String name) throws IOException {
        try (InputStream in = DslExportTest.class.getResourceAsStream("/apps/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void theDslComesBackAsImportedNewestFirstOrByWorkflowIdAndUnknownOnesAre404() throws IOException {
        String original = resource("echo.yml");
        String changed = original.replace("You said:", "You told me:") + "# a comment the engine ignores\n";
        String appId;
        String firstWorkflow;
        try (TestServer server = TestServer.start(dataDir)) {
            JsonNode app = server.importApp("echo.yml");
            appId = app.get("app_id").asText();
            firstWorkflow = app.get("workflow_id").asText();
            HttpResponse<String> first = server.admin("GET", "/admin/apps/" + appId + "/dsl", null, null);
            assertThat(first.statusCode()).isEqualTo(200);
            assertThat(first.headers().firstValue("Content-Type").orElse("")).startsWith("application/yaml");
            assertThat(first.body()).isEqualTo(original);

            JsonNode published = json(server.admin("PUT", "/admin/apps/" + appId, "application/yaml", changed));
            assertThat(server.admin("GET", "/admin/apps/" + appId + "/dsl", null, null).body()).isEqualTo(changed);
            assertThat(server.admin("GET", "/admin/apps/" + appId + "/dsl?workflow_id=" + firstWorkflow, null, null)
                    .body()).isEqualTo(original);
            assertThat(server.admin("GET", "/admin/apps/" + appId + "/dsl", null, null).headers()
                    .firstValue("X-Workflow-Id")).hasValue(published.get("workflow_id").asText());

            String other = server.importApp("reader.yml").get("workflow_id").asText();
            for (String path : new String[] {"/admin/apps/no-such-app/dsl",
                    "/admin/apps/" + appId + "/dsl?workflow_id=no-such-version",
                    "/admin/apps/" + appId + "/dsl?workflow_id=" + other}) {
                HttpResponse<String> missing = server.admin("GET", path, null, null);
                assertThat(missing.statusCode()).as(path).isEqualTo(404);
                assertThat(json(missing).get("code").asText()).isEqualTo("not_found");
                assertThat(json(missing).get("status").asInt()).isEqualTo(404);
            }
            assertThat(server.get("/admin/apps/" + appId + "/dsl").statusCode()).isEqualTo(401);

            BackupRestoreTest.Outcome remote = BackupRestoreTest.cli("apps", "export", appId, "--url",
                    server.hexaflow.baseUrl(), "--token", TestServer.ADMIN_TOKEN, "--workflow-id", firstWorkflow);
            assertThat(remote.exit()).as(remote.err()).isZero();
            assertThat(remote.out()).isEqualTo(original);
        }

        BackupRestoreTest.Outcome offline = BackupRestoreTest.cli("apps", "export", appId, "--data-dir",
                dataDir.toString());
        assertThat(offline.exit()).as(offline.err()).isZero();
        assertThat(offline.out()).isEqualTo(changed);
        BackupRestoreTest.Outcome unknown = BackupRestoreTest.cli("apps", "export", "no-such-app", "--data-dir",
                dataDir.toString());
        assertThat(unknown.exit()).isEqualTo(1);
        assertThat(unknown.err().strip()).doesNotContain("\n").contains("App not found");
        assertThat(BackupRestoreTest.cli("apps", "export", appId, "--token", "x", "--data-dir", dataDir.toString())
                .exit()).as("--token without --url").isEqualTo(2);
    }

    @Test
    void everyConformanceFixtureExportedImportsAgainAndRunsTheSame() throws IOException {
        Path corpus = SharedFolder.require("conformance/dify-dsl");
        JsonNode manifest = JSON.readTree(corpus.resolve("manifest.json").toFile());
        int compared = 0;
        int fixtures = 0;
        try (TestServer server = TestServer.start(dataDir); Stream<Path> files = Files.list(corpus)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yml")).sorted().toList()) {
                String original = Files.readString(file);
                HttpResponse<String> imported = server.admin("POST", "/admin/apps", "application/yaml", original);
                assertThat(imported.statusCode()).as(file + ": " + imported.body()).isEqualTo(201);
                String appId = json(imported).get("app_id").asText();

                HttpResponse<String> exported = server.admin("GET", "/admin/apps/" + appId + "/dsl", null, null);

                assertThat(exported.body()).as(file.toString()).isEqualTo(original);
                HttpResponse<String> again = server.admin("POST", "/admin/apps", "application/yaml",
                        exported.body());
                assertThat(again.statusCode()).as(file + ": " + again.body()).isEqualTo(201);
                fixtures++;
                ServiceApi before = server.api(json(imported).get("api_key").asText());
                ServiceApi after = server.api(json(again).get("api_key").asText());
                for (JsonNode listed : manifest) {
                    if (!listed.get("file").asText().equals(file.getFileName().toString())) {
                        continue;
                    }
                    for (JsonNode c : listed.get("cases")) {
                        if (!c.get("llm_mock").isNull()) {
                            continue;
                        }
                        @SuppressWarnings("unchecked")
                        Map<String, Object> inputs = JSON.convertValue(c.get("inputs"), Map.class);
                        JsonNode first = run(before, inputs);
                        JsonNode second = run(after, inputs);
                        assertThat(second.get("status")).as(file + " " + c.get("name")).isEqualTo(first.get("status"));
                        assertThat(second.get("status").asText()).isEqualTo(c.get("expect_status").asText());
                        assertThat(second.get("outputs")).isEqualTo(first.get("outputs"));
                        compared++;
                    }
                }
            }
        }
        assertThat(fixtures).as("fixtures exported and imported again").isPositive();
        assertThat(compared).as("manifest cases that need no model, run before and after").isPositive();
    }

    private static JsonNode run(ServiceApi api, Map<String, Object> inputs) {
        HttpResponse<String> response = api.postJson("/v1/workflows/run", ServiceApi.run(inputs, "blocking",
                "conformance"));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return ServiceApi.json(response).get("data");
    }
}
