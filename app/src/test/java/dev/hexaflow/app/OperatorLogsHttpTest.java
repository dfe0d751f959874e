package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer.Script;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.app.config.LogSettings;
import dev.hexaflow.app.config.LogSettings.LogFormat;
import dev.hexaflow.engine.EngineConfiguration;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lines an operator reads, through the real Logback backend of a real server: a failed run, refused
 * credentials, a model endpoint that goes down and comes back, the JSON form, and the request lines; never a
 * secret in any of them.
 */
class OperatorLogsHttpTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dataDir;

    @Test
    void aFailedRunIsOneWarningNamingItsAppRunNodeAndError() {
        try (CapturedLogs logs = new CapturedLogs(LogFormat.TEXT);
                TestServer server = TestServer.start(dataDir)) {
            JsonNode app = server.importApp("fails.yml");
            JsonNode run = json(server.api(app.get("api_key").asText()).postJson("/v1/workflows/run",
                    ServiceApi.run(Map.of(), "blocking", "ops")));
            String runId = run.get("workflow_run_id").asText();

            List<String> lines = awaitLines(logs, runId, 1);
            assertThat(lines).hasSize(1);
            assertThat(lines.get(0)).contains(" WARN ", app.get("app_id").asText(), runId,
                    "at node burn (code)", "the printer is on fire");
            assertNoSecret(logs, server, app.get("api_key").asText());
        }
    }

    /** A run its webhook started fails as any run does: one warning, without the webhook's URL or its secret. */
    @Test
    void aFailedRunAWebhookStartedIsOneWarningWithoutItsUrl() {
        try (CapturedLogs logs = new CapturedLogs(LogFormat.TEXT);
                TestServer server = TestServer.start(TestServer.config(dataDir))) {
            JsonNode app = server.importApp("webhook-fails.yml");
            String appId = app.get("app_id").asText();
            String secret = "a-webhook-secret-0123456789";
            server.admin("PUT", "/admin/apps/" + appId + "/triggers/hook/auth", "application/json",
                    "{\"kind\": \"bearer\", \"secret\": \"" + secret + "\"}");
            String path = json(server.admin("GET", "/admin/apps/" + appId + "/triggers/hook", null, null))
                    .get("url_path").asText();
            HttpResponse<String> answer = server.send("POST", path, "application/json", "{}", secret);
            String runId = json(answer).get("workflow_run_id").asText();

            List<String> lines = awaitLines(logs, runId, 1);
            assertThat(lines).hasSize(1);
            assertThat(lines.get(0)).contains(" WARN ", appId, runId, "at node burn (code)", "the printer is on fire");
            String code = path.substring(path.lastIndexOf('/') + 1);
            assertNoSecret(logs, server, app.get("api_key").asText(), secret, code);
        }
    }

    @Test
    void refusedCredentialsAreOneLineAMinutePerAddressAndNeverTheSecret() {
        String badAppKey = "app-WRONGwrongWRONGwrong0000";
        String badAdminToken = "not-the-admin-token-SECRET-4711";
        String badDatasetKey = "dataset-NOTAKEY-SECRET-0815";
        String badCampusKey = "campus-NOTAKEY-SECRET-1234";
        try (CapturedLogs logs = new CapturedLogs(LogFormat.TEXT);
                TestServer server = TestServer.start(dataDir)) {
            String goodKey = server.importApp("echo.yml").get("api_key").asText();
            assertThat(server.api(badAppKey).postJson("/v1/workflows/run",
                    ServiceApi.run(Map.of(), "blocking", "ops")).statusCode()).isEqualTo(401);
            for (int i = 0; i < 5; i++) {
                assertThat(server.send("GET", "/admin/apps", null, null, badAdminToken).statusCode()).isEqualTo(401);
            }
            assertThat(server.api(badDatasetKey).get("/v1/datasets").statusCode()).isEqualTo(401);
            assertThat(server.get("/v2/events/holidays.json?key=" + badCampusKey).statusCode()).isEqualTo(401);

            assertThat(logs.mentioning("Refused a /v1 app key from 127.0.0.1 on POST /v1/workflows/run")).hasSize(1);
            assertThat(logs.mentioning("Refused a /admin token from 127.0.0.1 on GET /admin/apps"))
                    .as("five refusals from one address in a minute are one line").hasSize(1);
            assertThat(logs.mentioning("Refused a /v1 dataset key from 127.0.0.1 on GET /v1/datasets")).hasSize(1);
            assertThat(logs.mentioning("Refused a /v2 campus key from 127.0.0.1 on GET /v2/events/holidays.json"))
                    .hasSize(1);
            assertNoSecret(logs, server, goodKey, badAppKey, badAdminToken, badDatasetKey, badCampusKey, "SECRET",
                    "WRONGwrong");
        }
    }

    @Test
    void theModelGoingDownIsOneLineAndComingBackAnother() throws Exception {
        try (FakeModelServer model = new FakeModelServer();
                ModelOutageHttpTest.Outage outage = new ModelOutageHttpTest.Outage(model.baseUrl());
                CapturedLogs logs = new CapturedLogs(LogFormat.TEXT);
                TestServer server = TestServer.start(TestServer.config(dataDir).withEngine(EngineConfiguration
                        .fromEnvironment(Map.of("HEXAFLOW_LLM_MODELS", "*=local-model"))
                        .withLlm(outage.baseUrl(), "sk-model-SECRET")))) {
            model.answer(Script.text("still here", 1, 1));
            ServiceApi chat = server.api(server.importApp("chatflow.yml").get("api_key").asText());
            String endpoint = "model endpoint " + outage.baseUrl();
            assertThat(ask(chat).statusCode()).isEqualTo(200);

            outage.down();
            for (int i = 0; i < 4; i++) {
                assertThat(ask(chat).statusCode()).isEqualTo(400);
            }
            outage.up();
            assertThat(ask(chat).statusCode()).isEqualTo(200);
            assertThat(ask(chat).statusCode()).isEqualTo(200);

            List<String> lines = logs.mentioning("OutageLog - The " + endpoint);
            assertThat(lines).as("one line down, one up; each failed run has its own line besides").hasSize(2);
            assertThat(lines.get(0)).contains(" WARN ", endpoint + " is failing: it ");
            assertThat(lines.get(1)).contains(" INFO ").containsPattern(endpoint + " answers again, after \\d+ failed");
            assertNoSecret(logs, server, chat.key(), "sk-model-SECRET");
        }
    }

    @Test
    void inJsonEachLineIsAnObjectWithTheRunsFieldsAsKeyValues() throws Exception {
        try (CapturedLogs logs = new CapturedLogs(LogFormat.JSON);
                TestServer server = TestServer.start(dataDir)) {
            JsonNode app = server.importApp("fails.yml");
            String runId = json(server.api(app.get("api_key").asText()).postJson("/v1/workflows/run",
                    ServiceApi.run(Map.of(), "blocking", "ops"))).get("workflow_run_id").asText();
            awaitLines(logs, runId, 1);

            assertThat(logs.lines()).isNotEmpty();
            JsonNode failed = null;
            for (String line : logs.lines()) {
                JsonNode object = JSON.readTree(line);
                assertThat(object.isObject()).as(line).isTrue();
                assertThat(object.has("timestamp") && object.has("level") && object.has("loggerName")
                        && object.has("threadName") && object.has("formattedMessage")).as(line).isTrue();
                if (line.contains(runId)) {
                    failed = object;
                }
            }
            assertThat(failed).isNotNull();
            assertThat(failed.get("level").asText()).isEqualTo("WARN");
            assertThat(failed.get("formattedMessage").asText()).contains("the printer is on fire");
            Map<String, String> fields = keyValues(failed);
            assertThat(fields).containsEntry("app_id", app.get("app_id").asText()).containsEntry("run_id", runId)
                    .containsEntry("node_id", "burn").containsEntry("node_type", "code")
                    .containsEntry("error_kind", "node_failed");
        }
    }

    @Test
    void requestLinesAreOffByDefaultAndOnWithTheSettingWithoutTheirQuery() {
        String requestLines = "dev.hexaflow.adapters.http.server.RequestLines";
        try (CapturedLogs logs = new CapturedLogs(requestLines, LogFormat.TEXT)) {
            try (TestServer server = TestServer.start(dataDir)) {
                assertThat(server.get("/v2/events/holidays.json?secret=QUERY-SECRET-1").statusCode()).isEqualTo(200);
            }
            assertThat(logs.lines()).as("no request lines by default").isEmpty();

            try (TestServer server = TestServer.start(TestServer.config(dataDir)
                    .withLogs(LogSettings.DEFAULTS.withRequests(true)))) {
                assertThat(server.get("/v2/events/holidays.json?secret=QUERY-SECRET-2").statusCode()).isEqualTo(200);
                assertThat(server.get("/no/such/path?token=QUERY-SECRET-3").statusCode()).isEqualTo(404);
                assertThat(server.send("POST", "/triggers/webhook/PATHSECRET4", "application/json", "{}", null)
                        .statusCode()).isEqualTo(404);
            }
            assertThat(logs.mentioning("GET /v2/events/holidays.json 200 ")).singleElement().asString()
                    .matches(".* INFO RequestLines - GET /v2/events/holidays.json 200 \\d+ ms 127\\.0\\.0\\.1");
            assertThat(logs.mentioning("GET /no/such/path 404 ")).hasSize(1);
            assertThat(logs.mentioning("POST /triggers/webhook/… 404 ")).hasSize(1);
            assertThat(String.join("\n", logs.lines())).doesNotContain("QUERY-SECRET", "?", "PATHSECRET");
        }
    }

    private static HttpResponse<String> ask(ServiceApi chat) {
        return chat.postJson("/v1/chat-messages", ChatApiHttpTest.message("are you there?", null, "ops",
                "blocking"));
    }

    /** The run's lines, once its end is told (the monitor hears it on the run's thread, around the answer). */
    private static List<String> awaitLines(CapturedLogs logs, String text, int count) {
        long deadline = System.currentTimeMillis() + 30_000;
        while (logs.mentioning(text).size() < count && System.currentTimeMillis() < deadline) {
            Thread.onSpinWait();
        }
        return logs.mentioning(text);
    }

    private static Map<String, String> keyValues(JsonNode line) {
        Map<String, String> fields = new java.util.HashMap<>();
        for (JsonNode pair : line.path("kvpList")) {
            pair.fields().forEachRemaining(field -> fields.put(field.getKey(), field.getValue().asText()));
        }
        return fields;
    }

    /** No captured line holds the server's admin token, nor any of {@code secrets}. */
    private static void assertNoSecret(CapturedLogs logs, TestServer server, String... secrets) {
        List<String> all = new ArrayList<>(List.of(secrets));
        all.add(TestServer.ADMIN_TOKEN);
        String text = String.join("\n", logs.lines());
        assertThat(text).isNotEmpty();
        for (String secret : all) {
            assertThat(text).as("the logs hold no secret").doesNotContain(secret);
        }
    }
}
