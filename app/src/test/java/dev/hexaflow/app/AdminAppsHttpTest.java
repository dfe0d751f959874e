package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static dev.hexaflow.app.api.ServiceApi.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.app.config.ServiceSettings;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Importing and publishing apps, their keys and site; the run limit; what a restart keeps. */
class AdminAppsHttpTest {

    @TempDir
    Path dataDir;
    TestServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static String resource(String name) throws Exception {
        try (InputStream in = AdminAppsHttpTest.class.getResourceAsStream("/apps/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void anImportAnswers201WithTheAppItsWorkflowAndAKeyThatWorks() {
        server = TestServer.start(dataDir);

        JsonNode imported = server.importApp("echo.yml");

        assertThat(imported.get("app_id").asText()).isNotBlank();
        assertThat(imported.get("workflow_id").asText()).isNotBlank();
        assertThat(imported.get("api_key").asText()).matches("app-[A-Za-z0-9]{24}");
        JsonNode listed = json(server.admin("GET", "/admin/apps", null, null));
        assertThat(listed.get("data")).anySatisfy(app -> {
            assertThat(app.get("app_id").asText()).isEqualTo(imported.get("app_id").asText());
            assertThat(app.get("name").asText()).isEqualTo("Echo");
        });
        assertThat(json(server.api(imported.get("api_key").asText()).get("/v1/info")).get("name").asText())
                .isEqualTo("Echo");
    }

    @Test
    void aBadDslIsRefusedWithEveryProblemAndKeepsNothing() {
        server = TestServer.start(dataDir);
        int before = json(server.admin("GET", "/admin/apps", null, null)).get("data").size();

        HttpResponse<String> response = server.admin("POST", "/admin/apps", "application/yaml", """
                app: {name: broken, mode: workflow}
                workflow:
                  graph:
                    nodes:
                      - {id: s, data: {type: start, title: S, variables: []}}
                      - {id: e, data: {type: end, title: E, outputs: [{variable: x, value_selector: [s, nope]}]}}
                      - {id: k, data: {type: tool, title: T}}
                    edges:
                      - {source: s, target: e}
                """);

        assertThat(response.statusCode()).isEqualTo(400);
        JsonNode body = json(response);
        assertThat(body.get("code").asText()).isEqualTo("invalid_dsl");
        assertThat(body.get("problems")).hasSize(2);
        assertThat(json(server.admin("GET", "/admin/apps", null, null)).get("data").size()).isEqualTo(before);
        assertThat(server.admin("POST", "/admin/apps", "application/yaml", "not: [yaml").statusCode()).isEqualTo(400);
    }

    @Test
    void typosInErrorStrategyRetryAndStartFieldKindAreRefusedAtImportNamingNodeAndField() {
        server = TestServer.start(dataDir);

        HttpResponse<String> response = server.admin("POST", "/admin/apps", "application/yaml", """
                app: {name: typos, mode: workflow}
                workflow:
                  graph:
                    nodes:
                      - {id: s, data: {type: start, title: S, variables: [{variable: q, type: text-inptu}]}}
                      - {id: t, data: {type: template-transform, title: T, template: hi, variables: [],
                         error_strategy: fail-brnch}}
                      - {id: c, data: {type: template-transform, title: C, template: hi, variables: [],
                         retry_config: {retry_enabled: true, max_retries: x, retry_interval: 100}}}
                      - {id: e, data: {type: end, title: E, outputs: []}}
                    edges:
                      - {source: s, target: t}
                      - {source: t, target: c}
                      - {source: c, target: e}
                """);

        assertThat(response.statusCode()).isEqualTo(400);
        JsonNode body = json(response);
        assertThat(body.get("code").asText()).isEqualTo("invalid_dsl");
        assertThat(body.get("problems")).extracting(p -> p.get("node_id").asText() + ": " + p.get("message").asText())
                .containsExactlyInAnyOrder(
                        "s: variables.q.type 'text-inptu' is not an input type (one of text-input, paragraph, "
                                + "select, number, checkbox, json_object, file, file-list, external_data_tool)",
                        "t: error_strategy 'fail-brnch' is not an error strategy (fail-branch, default-value or none)",
                        "c: retry_config.max_retries must be a number, was 'x'");
    }

    @Test
    void aChangedFilePublishesANewVersionAndOldVersionsStillRunByTheirId() throws Exception {
        server = TestServer.start(dataDir);
        JsonNode imported = server.importApp("echo.yml");
        String appId = imported.get("app_id").asText();
        ServiceApi api = server.api(imported.get("api_key").asText());
        String changed = resource("echo.yml").replace("You said:", "You typed:");

        JsonNode same = json(server.admin("PUT", "/admin/apps/" + appId, "application/yaml", resource("echo.yml")));
        JsonNode published = json(server.admin("PUT", "/admin/apps/" + appId, "application/yaml", changed));

        assertThat(same.get("published").asBoolean()).isFalse();
        assertThat(same.get("workflow_id").asText()).isEqualTo(imported.get("workflow_id").asText());
        assertThat(published.get("published").asBoolean()).isTrue();
        assertThat(published.get("workflow_id").asText()).isNotEqualTo(imported.get("workflow_id").asText());
        JsonNode latest = json(api.postJson("/v1/workflows/run", run(Map.of("query", "x"), "blocking", "u")));
        JsonNode old = json(api.postJson("/v1/workflows/" + imported.get("workflow_id").asText() + "/run",
                run(Map.of("query", "x"), "blocking", "u")));
        assertThat(latest.get("data").get("outputs").get("answer").asText()).startsWith("You typed:");
        assertThat(old.get("data").get("outputs").get("answer").asText()).startsWith("You said:");
        assertThat(server.admin("PUT", "/admin/apps/no-such-app", "application/yaml", changed).statusCode())
                .isEqualTo(404);
    }

    @Test
    void keysAreIssuedAndRevokedAndARevokedKeyIs401() {
        server = TestServer.start(dataDir);
        JsonNode imported = server.importApp("echo.yml");
        String appId = imported.get("app_id").asText();

        HttpResponse<String> issued = server.admin("POST", "/admin/apps/" + appId + "/keys", null, null);
        String second = json(issued).get("api_key").asText();
        // Used once first, so that the server has it in memory when it is revoked.
        int beforeRevoking = server.api(second).get("/v1/info").statusCode();
        HttpResponse<String> revoked = server.admin("DELETE", "/admin/apps/" + appId + "/keys/" + second, null, null);

        assertThat(issued.statusCode()).isEqualTo(201);
        assertThat(beforeRevoking).isEqualTo(200);
        assertThat(revoked.statusCode()).isEqualTo(200);
        assertThat(server.api(second).get("/v1/info").statusCode()).isEqualTo(401);
        assertThat(server.api(imported.get("api_key").asText()).get("/v1/info").statusCode()).isEqualTo(200);
        assertThat(server.admin("DELETE", "/admin/apps/" + appId + "/keys/" + second, null, null).statusCode())
                .isEqualTo(404);
        assertThat(server.send("POST", "/admin/apps/" + appId + "/keys", null, null, "wrong-token").statusCode())
                .isEqualTo(401);
    }

    @Test
    void siteSettingsChangeWhatSiteAnswers() {
        server = TestServer.start(dataDir);
        JsonNode imported = server.importApp("echo.yml");

        HttpResponse<String> updated = server.admin("PUT", "/admin/apps/" + imported.get("app_id").asText() + "/site",
                "application/json", "{\"title\": \"Echo page\", \"copyright\": \"© 2026\", \"show_workflow_steps\": false}");
        HttpResponse<String> wrong = server.admin("PUT", "/admin/apps/" + imported.get("app_id").asText() + "/site",
                "application/json", "{\"icon_type\": \"gif\"}");

        assertThat(updated.statusCode()).isEqualTo(200);
        JsonNode site = json(server.api(imported.get("api_key").asText()).get("/v1/site"));
        assertThat(site.get("title").asText()).isEqualTo("Echo page");
        assertThat(site.get("copyright").asText()).isEqualTo("© 2026");
        assertThat(site.get("show_workflow_steps").asBoolean()).isFalse();
        assertThat(site.get("icon").asText()).isEqualTo("🔁");
        assertThat(wrong.statusCode()).isEqualTo(400);
    }

    @Test
    void runsBeyondTheLimitPerAppAre429() throws Exception {
        server = TestServer.start(TestServer.config(dataDir).withService(ServiceSettings.DEFAULTS.withMaxRunsPerApp(1)));
        ServiceApi slow = server.api(server.importApp("slow.yml").get("api_key").asText());
        ServiceApi echo = server.api(server.importApp("echo.yml").get("api_key").asText());
        CompletableFuture<HttpResponse<String>> first = CompletableFuture.supplyAsync(() ->
                slow.postJson("/v1/workflows/run", run(Map.of("millis", 1500), "blocking", "u")));
        Thread.sleep(500);

        HttpResponse<String> second = slow.postJson("/v1/workflows/run", run(Map.of("millis", 10), "blocking", "u"));
        HttpResponse<String> otherApp = echo.postJson("/v1/workflows/run", run(Map.of("query", "x"), "blocking", "u"));

        assertThat(second.statusCode()).isEqualTo(429);
        assertThat(json(second).get("code").asText()).isEqualTo("too_many_requests");
        assertThat(json(second).get("message").asText()).contains("maximum concurrent requests").contains("is 1.");
        assertThat(otherApp.statusCode()).isEqualTo(200);
        assertThat(first.get().statusCode()).isEqualTo(200);
        assertThat(slow.postJson("/v1/workflows/run", run(Map.of("millis", 10), "blocking", "u")).statusCode())
                .isEqualTo(200);
    }

    @Test
    void aRestartedServerStillAnswersTheDetailAndLogsOfEarlierRuns() {
        server = TestServer.start(dataDir);
        String key = server.importApp("echo.yml").get("api_key").asText();
        String runId = json(server.api(key).postJson("/v1/workflows/run",
                run(Map.of("query", "remember me"), "blocking", "ada"))).get("workflow_run_id").asText();
        server.close();
        server = null;

        server = TestServer.start(dataDir);
        ServiceApi api = server.api(key);

        assertThat(json(api.get("/v1/workflows/run/" + runId)).get("outputs").get("query").asText())
                .isEqualTo("remember me");
        assertThat(json(api.get("/v1/workflows/logs?keyword=remember")).get("total").asInt()).isEqualTo(1);
    }

    @Test
    void theFirstStartImportsADemoAppWhoseCurlLineRunsIt() {
        server = TestServer.start(dataDir);
        StartReport report = server.hexaflow.report();

        String key = report.demoAppKey().orElseThrow();
        JsonNode run = json(server.api(key).postJson("/v1/workflows/run", run(Map.of("year", "2026"), "blocking",
                "demo")));

        assertThat(report.demoCommand().orElseThrow()).contains(key).contains("/v1/workflows/run");
        assertThat(run.get("data").get("status").asText()).isEqualTo("succeeded");
        assertThat(run.get("data").get("outputs").get("answer").asText()).startsWith("2026 has 7 university holidays");
        assertThat(run.get("data").get("outputs").get("count").asInt()).isEqualTo(7);
    }

    @Test
    void theFirstStartImportsADemoChatflowThatRemembersTheYearsAskedInAConversation() {
        server = TestServer.start(dataDir);
        StartReport report = server.hexaflow.report();
        String key = report.chatDemoKey().orElseThrow();
        ServiceApi api = server.api(key);

        JsonNode first = json(api.postJson("/v1/chat-messages", Map.of("query", "Which holidays are in 2026?",
                "inputs", Map.of(), "response_mode", "blocking", "user", "demo")));
        String conversation = first.get("conversation_id").asText();
        JsonNode second = json(api.postJson("/v1/chat-messages", Map.of("query", "And in 1999?", "inputs", Map.of(),
                "response_mode", "blocking", "user", "demo", "conversation_id", conversation)));
        JsonNode variables = json(api.get("/v1/conversations/" + conversation + "/variables?user=demo"));

        assertThat(report.chatCommand().orElseThrow()).contains(key).contains("/v1/chat-messages");
        assertThat(report.chatDemo().orElseThrow().page()).startsWith(report.baseUrl() + "/apps/");
        assertThat(first.get("answer").asText()).startsWith("2026 has 7 university holidays")
                .endsWith("Years asked in this conversation: 2026.");
        assertThat(second.get("answer").asText()).isEqualTo("No university holidays are known for 1999.\n\n"
                + "Years asked in this conversation: 2026, 1999.");
        assertThat(variables.get("data").get(0).get("name").asText()).isEqualTo("years_asked");
        assertThat(variables.get("data").get(0).get("value").asText()).isEqualTo("['2026', '1999']");
    }
}
