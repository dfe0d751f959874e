package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static dev.hexaflow.app.api.ServiceApi.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.app.api.ServiceApi;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The web page's side of the server over real HTTP: site codes, the page and its files, and the page's token,
 * which runs, uploads, stops and describes its own app and nothing else.
 */
class WebAppHttpTest {

    @TempDir
    static Path dataDir;
    static TestServer server;
    static JsonNode echo;

    @BeforeAll
    static void start() {
        server = TestServer.start(dataDir);
        echo = server.importApp("echo.yml");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static String token(String siteCode) {
        HttpResponse<String> response = server.send("POST", "/apps/" + siteCode + "/token", null, null, null);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        return json(response).get("access_token").asText();
    }

    private static String code(JsonNode imported) {
        return imported.get("site_code").asText();
    }

    @Test
    void eachImportGetsItsOwnSiteCodeShownInTheListAndOn() {
        JsonNode other = server.importApp("echo.yml");

        assertThat(code(echo)).matches("[a-z0-9]{16}").isNotEqualTo(code(other));
        JsonNode listed = json(server.admin("GET", "/admin/apps", null, null));
        assertThat(listed.get("data")).anySatisfy(app -> {
            assertThat(app.get("app_id").asText()).isEqualTo(echo.get("app_id").asText());
            assertThat(app.get("site_code").asText()).isEqualTo(code(echo));
            assertThat(app.get("enable_site").asBoolean()).isTrue();
        });
    }

    @Test
    void thePageIsServedWithItsTitleEscapedAndAPolicyThatRunsOnlyItsOwnScript() {
        JsonNode app = server.importApp("echo.yml");
        server.admin("PUT", "/admin/apps/" + app.get("app_id").asText() + "/site", "application/json",
                "{\"title\": \"Tea & <script>alert(1)</script>\", \"default_language\": \"fr-FR\"}");

        HttpResponse<String> page = server.get("/apps/" + code(app));

        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type)
                .startsWith("text/html"));
        assertThat(page.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(policy -> assertThat(
                policy).contains("script-src 'self'").contains("connect-src 'self'").doesNotContain("unsafe"));
        assertThat(page.body()).contains("<title>Tea &amp; &lt;script&gt;alert(1)&lt;/script&gt;</title>")
                .doesNotContain("<script>alert").contains("<html lang=\"fr-FR\">")
                .contains("data-site-code=\"" + code(app) + "\"");
    }

    @Test
    void thePagesFilesAreServedUnderTheirDigestAndNothingElseIs() {
        String page = server.get("/apps/" + code(echo)).body();
        List<String> files = new java.util.ArrayList<>();
        java.util.regex.Matcher links = java.util.regex.Pattern.compile("/web/[a-z.]+\\?v=[0-9a-f]{12}")
                .matcher(page);
        while (links.find()) {
            files.add(links.group());
        }

        assertThat(files).hasSize(5);
        for (String file : files) {
            HttpResponse<String> served = server.get(file);
            assertThat(served.statusCode()).as(file).isEqualTo(200);
            assertThat(served.headers().firstValue("Cache-Control")).contains("public, max-age=31536000, immutable");
        }
        assertThat(server.get(files.stream().filter(f -> f.contains("app.js")).findFirst().orElseThrow()).headers()
                .firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("text/javascript"));
        assertThat(server.get("/web/../hexaflow.mv.db").statusCode()).isEqualTo(404);
        assertThat(server.get("/web/app.js?v=000000000000").headers().firstValue("Cache-Control"))
                .as("a digest of another version").contains("no-cache");
        assertThat(server.get("/web/app.js").headers().firstValue("Cache-Control")).contains("no-cache");
        HttpResponse<String> unknown = server.get("/web/secret.txt");
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(json(unknown).get("code").asText()).isEqualTo("not_found");
    }

    @Test
    void aChatflowsPageIsTheChatAndAWorkflowsStaysTheForm() {
        JsonNode chatflow = server.importApp("tea-chat.yml");

        String chat = server.get("/apps/" + code(chatflow)).body();
        String form = server.get("/apps/" + code(echo)).body();

        assertThat(chat).contains("/web/chat.js?v=").doesNotContain("/web/app.js").contains("id=\"message-input\"")
                .contains("data-site-code=\"" + code(chatflow) + "\"");
        assertThat(form).contains("/web/app.js?v=").doesNotContain("/web/chat.js").contains("id=\"run-form\"");
        java.util.regex.Matcher script = java.util.regex.Pattern.compile("/web/chat\\.js\\?v=[0-9a-f]{12}")
                .matcher(chat);
        assertThat(script.find()).isTrue();
        HttpResponse<String> served = server.get(script.group());
        assertThat(served.statusCode()).isEqualTo(200);
        assertThat(served.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type)
                .startsWith("text/javascript"));
        assertThat(server.get("/apps/" + code(chatflow)).headers().firstValue("Content-Security-Policy"))
                .hasValueSatisfying(policy -> assertThat(policy).contains("script-src 'self'")
                        .doesNotContain("unsafe"));
    }

    @Test
    void anUnknownCodeIsAPageNotFoundAndGetsNoToken() {
        for (String code : List.of("nosuchcode123456", "x", "bad!code")) {
            HttpResponse<String> page = server.get("/apps/" + code);
            assertThat(page.statusCode()).as(code).isEqualTo(404);
            assertThat(page.body()).contains("Page not found");
            HttpResponse<String> token = server.send("POST", "/apps/" + code + "/token", null, null, null);
            assertThat(token.statusCode()).isEqualTo(404);
            assertThat(json(token).get("code").asText()).isEqualTo("not_found");
        }
    }

    @Test
    void thePagesTokenRunsUploadsStopsAndDescribesItsApp() throws Exception {
        TestServer.PageToken token = server.pageToken(code(echo), null);
        ServiceApi page = server.api(token.token());
        String user = token.user();

        HttpResponse<String> ran = page.postJson("/v1/workflows/run", run(Map.of("query", "from the page"),
                "blocking", user));
        assertThat(ran.statusCode()).as(ran.body()).isEqualTo(200);
        assertThat(json(ran).at("/data/outputs/answer").asText()).contains("from the page");
        try (var stream = page.postStreaming("/v1/workflows/run", run(Map.of("query", "streamed"), "streaming",
                user)).body()) {
            assertThat(new String(stream.readAllBytes(), StandardCharsets.UTF_8)).contains("\"workflow_finished\"");
        }
        String fileId = page.upload(user, "notes.txt", "text/plain", "hello".getBytes(StandardCharsets.UTF_8));
        assertThat(fileId).isNotBlank();
        assertThat(page.postJson("/v1/workflows/tasks/no-such-task/stop", Map.of("user", user))
                .statusCode()).isEqualTo(200);
        for (String path : List.of("/v1/site", "/v1/parameters", "/v1/info")) {
            assertThat(page.get(path).statusCode()).as(path).isEqualTo(200);
        }
        JsonNode logs = json(server.api(echo.get("api_key").asText()).get(
                "/v1/workflows/logs?created_by_end_user_session_id=" + user));
        assertThat(logs.get("total").asInt()).isEqualTo(2);
    }

    @Test
    void theTokenActsForTheWebUserThePageKeepsAndAnyOtherAskGetsANewOne() {
        String kept = "web-00112233445566778899aabbccddeeff";

        JsonNode forKept = json(server.send("POST", "/apps/" + code(echo) + "/token", "application/json",
                "{\"user\": \"" + kept + "\"}", null));
        JsonNode firstVisit = json(server.send("POST", "/apps/" + code(echo) + "/token", null, null, null));
        JsonNode forAlice = json(server.send("POST", "/apps/" + code(echo) + "/token", "application/json",
                "{\"user\": \"alice\"}", null));
        JsonNode notJson = json(server.send("POST", "/apps/" + code(echo) + "/token", "text/plain", "user=" + kept,
                null));

        assertThat(forKept.get("user").asText()).isEqualTo(kept);
        assertThat(List.of(forKept, firstVisit, forAlice, notJson)).allSatisfy(answer -> {
            assertThat(answer.get("user").asText()).matches("web-[0-9a-f]{32}");
            assertThat(answer.get("token_type").asText()).isEqualTo("Bearer");
            assertThat(answer.get("expires_at").asLong()).isPositive();
        });
        assertThat(List.of(firstVisit, forAlice, notJson)).extracting(answer -> answer.get("user").asText())
                .doesNotHaveDuplicates().doesNotContain(kept);
        ServiceApi asKept = server.api(forKept.get("access_token").asText());
        assertThat(asKept.postJson("/v1/workflows/run", run(Map.of("query", "mine"), "blocking", kept))
                .statusCode()).isEqualTo(200);
        HttpResponse<String> asAlice = server.api(forAlice.get("access_token").asText()).postJson(
                "/v1/workflows/run", run(Map.of("query", "hers"), "blocking", "alice"));
        assertThat(asAlice.statusCode()).isEqualTo(403);
        assertThat(json(asAlice).get("message").asText()).isEqualTo("A web page's token acts for its own user only.");
    }

    @Test
    void thePagesTokenCannotReadRunsOrLogs() {
        TestServer.PageToken token = server.pageToken(code(echo), null);
        ServiceApi page = server.api(token.token());
        String runId = json(page.postJson("/v1/workflows/run", run(Map.of("query", "x"), "blocking", token.user())))
                .get("workflow_run_id").asText();

        for (String path : List.of("/v1/workflows/logs", "/v1/workflows/run/" + runId)) {
            HttpResponse<String> refused = page.get(path);
            assertThat(refused.statusCode()).as(path).isEqualTo(403);
            assertThat(json(refused).get("code").asText()).isEqualTo("forbidden");
            assertThat(json(refused).get("message").asText()).contains("use the app's API key");
        }
        assertThat(server.api(echo.get("api_key").asText()).get("/v1/workflows/run/" + runId).statusCode())
                .isEqualTo(200);
    }

    @Test
    void aTokenServesOnlyTheAppWhosePageIssuedIt() {
        JsonNode other = server.importApp("echo.yml");
        TestServer.PageToken otherToken = server.pageToken(code(other), null);

        JsonNode info = json(server.api(otherToken.token()).get("/v1/site"));
        assertThat(info.get("title").asText()).isEqualTo("Echo");
        HttpResponse<String> ran = server.api(otherToken.token()).postJson("/v1/workflows/run",
                run(Map.of("query", "y"), "blocking", otherToken.user()));
        JsonNode logsOfEcho = json(server.api(echo.get("api_key").asText()).get("/v1/workflows/logs?limit=100"));
        assertThat(logsOfEcho.get("data")).noneSatisfy(item -> assertThat(item.at("/workflow_run/id").asText())
                .isEqualTo(json(ran).get("workflow_run_id").asText()));
    }

    @Test
    void aForgedTamperedOrMalformedTokenIsRefusedWithDifysMessage() {
        String good = token(code(echo));
        String body = good.substring("web-".length());
        String payload = body.substring(0, body.indexOf('.'));
        String signature = body.substring(body.indexOf('.') + 1);
        String claims = new String(Base64.getUrlDecoder().decode(payload), StandardCharsets.UTF_8);
        String longer = Base64.getUrlEncoder().withoutPadding().encodeToString(
                claims.replaceFirst(":\\d+$", ":99999999999").getBytes(StandardCharsets.UTF_8));

        for (String token : List.of("web-" + longer + "." + signature, "web-" + payload + ".AAAA", "web-", "web-x",
                "web-.", "web-" + payload, "web-%%%.###", good + "x")) {
            HttpResponse<String> refused = server.api(token).get("/v1/site");
            assertThat(refused.statusCode()).as(token).isEqualTo(401);
            assertThat(json(refused).get("message").asText()).isEqualTo("Access token is invalid");
        }
    }

    @Test
    void turningThePageOffRefusesItsPageItsNewTokensAndTheTokensItGaveOut() {
        JsonNode app = server.importApp("echo.yml");
        String appId = app.get("app_id").asText();
        String token = token(code(app));

        HttpResponse<String> off = server.admin("PUT", "/admin/apps/" + appId + "/site", "application/json",
                "{\"enable_site\": false}");
        assertThat(json(off).get("enable_site").asBoolean()).isFalse();
        assertThat(json(off).get("site_code").asText()).isEqualTo(code(app));
        assertThat(server.get("/apps/" + code(app)).statusCode()).isEqualTo(404);
        assertThat(server.send("POST", "/apps/" + code(app) + "/token", null, null, null).statusCode())
                .isEqualTo(404);
        HttpResponse<String> refused = server.api(token).postJson("/v1/workflows/run", run(Map.of("query", "z"),
                "blocking", "u"));
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(json(refused).get("message").asText()).contains("turned off");
        assertThat(server.api(app.get("api_key").asText()).get("/v1/site").statusCode())
                .as("the app's key still works").isEqualTo(200);

        server.admin("PUT", "/admin/apps/" + appId + "/site", "application/json", "{\"enable_site\": true}");
        assertThat(server.api(token).get("/v1/site").statusCode()).isEqualTo(200);
        HttpResponse<String> notBoolean = server.admin("PUT", "/admin/apps/" + appId + "/site", "application/json",
                "{\"enable_site\": \"no\"}");
        assertThat(notBoolean.statusCode()).isEqualTo(400);
        assertThat(server.get("/apps/" + code(app)).statusCode()).isEqualTo(200);
    }

    @Test
    void aRestartKeepsCodesAndOnOffButNotTokens(@TempDir Path dir) {
        String code;
        String token;
        String offCode;
        try (TestServer first = TestServer.start(dir)) {
            JsonNode app = first.importApp("echo.yml");
            JsonNode off = first.importApp("echo.yml");
            first.admin("PUT", "/admin/apps/" + off.get("app_id").asText() + "/site", "application/json",
                    "{\"enable_site\": false}");
            code = code(app);
            offCode = code(off);
            token = json(first.send("POST", "/apps/" + code + "/token", null, null, null)).get("access_token")
                    .asText();
        }
        try (TestServer second = TestServer.start(dir)) {
            assertThat(second.get("/apps/" + code).statusCode()).isEqualTo(200);
            assertThat(second.get("/apps/" + offCode).statusCode()).isEqualTo(404);
            assertThat(second.api(token).get("/v1/site").statusCode()).as("signed by the process before")
                    .isEqualTo(401);
        }
    }

    /** Starts a streaming run of {@code millis} and answers its first event (task_id, workflow_run_id). */
    private static JsonNode started(ServiceApi api, String user, int millis, java.util.List<java.io.InputStream> open)
            throws Exception {
        java.io.InputStream body = api.postStreaming("/v1/workflows/run", run(Map.of("millis", millis), "streaming",
                user)).body();
        open.add(body);
        StringBuilder line = new StringBuilder();
        for (int c = body.read(); c != '\n' && c >= 0; c = body.read()) {
            line.append((char) c);
        }
        return new com.fasterxml.jackson.databind.ObjectMapper().readTree(line.substring("data: ".length()));
    }

    /**
     * The run's status once it is no longer running, or "running" after 30 s: each of these runs may wait for a
     * JavaScript worker of its own to start, seconds on a loaded machine.
     */
    private static String statusWhenOver(ServiceApi api, String runId) throws InterruptedException {
        long until = System.nanoTime() + java.time.Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < until) {
            String status = json(api.get("/v1/workflows/run/" + runId)).get("status").asText();
            if (!status.equals("running")) {
                return status;
            }
            Thread.sleep(50);
        }
        return "running";
    }

    @Test
    void aStopFromAnotherUserOfTheSameAppIsAnsweredButStopsNothing() throws Exception {
        JsonNode slow = server.importApp("slow.yml");
        TestServer.PageToken a = server.pageToken(code(slow), null);
        TestServer.PageToken b = server.pageToken(code(slow), null);
        ServiceApi browserA = server.api(a.token());
        ServiceApi browserB = server.api(b.token());
        ServiceApi key = server.api(slow.get("api_key").asText());
        java.util.List<java.io.InputStream> open = new java.util.ArrayList<>();
        try {
            JsonNode byA = started(browserA, a.user(), 1500, open);
            JsonNode byAda = started(key, "ada", 1500, open);
            JsonNode stoppedByA = started(browserA, a.user(), 20000, open);

            HttpResponse<String> fromB = browserB.postJson("/v1/workflows/tasks/" + byA.get("task_id").asText()
                    + "/stop", Map.of("user", b.user()));
            HttpResponse<String> fromBob = key.postJson("/v1/workflows/tasks/" + byAda.get("task_id").asText()
                    + "/stop", Map.of("user", "bob"));
            HttpResponse<String> fromAItself = browserA.postJson("/v1/workflows/tasks/"
                    + stoppedByA.get("task_id").asText() + "/stop", Map.of("user", a.user()));

            for (HttpResponse<String> answer : List.of(fromB, fromBob, fromAItself)) {
                assertThat(answer.statusCode()).isEqualTo(200);
                assertThat(answer.body()).isEqualTo("{\"result\":\"success\"}");
            }
            assertThat(statusWhenOver(key, byA.get("workflow_run_id").asText())).isEqualTo("succeeded");
            assertThat(statusWhenOver(key, byAda.get("workflow_run_id").asText())).isEqualTo("succeeded");
            assertThat(statusWhenOver(key, stoppedByA.get("workflow_run_id").asText())).isEqualTo("stopped");
        } finally {
            for (java.io.InputStream body : open) {
                body.close();
            }
        }
    }
}
