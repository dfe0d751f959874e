package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.domain.secret.SecretHash;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console's sign-in over real HTTP: the admin token buys a session cookie that never holds it; the cookie opens
 * the admin API for reading, and for changes only with the console's header; sign-out, an ended or a changed cookie
 * end it; bearer clients are judged as before; the console's page is served under the pages' headers; its triggers
 * view reads and switches an app's triggers through the admin API, which never answers a webhook's secret.
 */
class ConsoleHttpTest {

    private static final String COOKIE = "hexaflow_console";

    @TempDir
    static Path dataDir;
    static TestServer server;

    @BeforeAll
    static void start() {
        server = TestServer.start(dataDir);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void aWrongTokenIsRefusedAndSetsNoCookie() {
        HttpResponse<String> json = signIn("application/json", "{\"token\": \"not-the-admin-token\"}", Map.of());
        HttpResponse<String> form = signIn("application/x-www-form-urlencoded", "token=not-the-admin-token",
                Map.of());

        for (HttpResponse<String> refused : java.util.List.of(json, form)) {
            assertThat(refused.statusCode()).isEqualTo(401);
            assertThat(TestServer.json(refused).get("code").asText()).isEqualTo("unauthorized");
            assertThat(refused.headers().firstValue("Set-Cookie")).isEmpty();
        }
    }

    @Test
    void theAdminTokenSetsAStrictHttpOnlyCookieThatHoldsNoPartOfTheToken() {
        HttpResponse<String> answer = signIn("application/json", "{\"token\": \"" + TestServer.ADMIN_TOKEN + "\"}",
                Map.of());

        assertThat(answer.statusCode()).isEqualTo(200);
        String cookie = answer.headers().firstValue("Set-Cookie").orElseThrow();
        assertThat(cookie).startsWith(COOKIE + "=").contains("; HttpOnly", "; SameSite=Strict", "; Path=/",
                "; Max-Age=28800").doesNotContain("Secure");
        assertThat(cookie).doesNotContain(TestServer.ADMIN_TOKEN).doesNotContain(TestServer.ADMIN_TOKEN
                .substring(5, 20)).doesNotContain(SecretHash.of(TestServer.ADMIN_TOKEN).hex().substring(0, 16));
        assertThat(answer.headers().firstValue("Cache-Control")).hasValue("no-store");
    }

    @Test
    void aFormSignInGoesBackToTheConsoleAndBehindAnHttpsProxyTheCookieIsSecure() {
        HttpResponse<String> answer = signIn("application/x-www-form-urlencoded", "token=" + TestServer.ADMIN_TOKEN,
                Map.of("X-Forwarded-Proto", "https"));

        assertThat(answer.statusCode()).isEqualTo(303);
        assertThat(answer.headers().firstValue("Location")).hasValue("/console");
        assertThat(answer.headers().firstValue("Set-Cookie").orElseThrow()).contains("; Secure");
    }

    @Test
    void theCookieAloneReadsTheAdminApi() {
        String session = session();

        HttpResponse<String> runs = request("GET", "/admin/runs", session, Map.of());

        assertThat(runs.statusCode()).isEqualTo(200);
        assertThat(TestServer.json(runs).has("data")).isTrue();
    }

    @Test
    void aChangeWithTheCookieButWithoutTheConsoleHeaderIsRefused() {
        String session = session();
        ServiceApi echo = server.api(server.importApp("echo.yml").get("api_key").asText());
        String runId = ServiceApi.json(echo.postJson("/v1/workflows/run", ServiceApi.run(Map.of("query", "hi"),
                "blocking", "ada"))).get("workflow_run_id").asText();

        HttpResponse<String> bare = request("POST", "/admin/runs/" + runId + "/stop", session, Map.of());
        HttpResponse<String> fromAnotherSite = request("GET", "/admin/runs", session,
                Map.of("Sec-Fetch-Site", "cross-site"));
        HttpResponse<String> fromTheConsole = request("POST", "/admin/runs/" + runId + "/stop", session,
                Map.of("X-Hexaflow-Console", "1"));

        assertThat(bare.statusCode()).isEqualTo(403);
        assertThat(TestServer.json(bare).get("code").asText()).isEqualTo("forbidden");
        assertThat(TestServer.json(bare).get("message").asText()).contains("X-Hexaflow-Console: 1");
        assertThat(fromAnotherSite.statusCode()).isEqualTo(403);
        assertThat(fromTheConsole.statusCode()).isEqualTo(200);
        assertThat(TestServer.json(fromTheConsole).get("stopped").asBoolean()).as("it had ended").isFalse();
    }

    @Test
    void aBearerClientNeedsNoConsoleHeaderAndAWrongBearerIsNotRescuedByTheCookie() {
        HttpResponse<String> bearer = server.admin("POST", "/admin/apps/nope/keys", null, null);
        HttpResponse<String> wrongBearer = send(HttpRequest.newBuilder(uri("/admin/runs")).GET()
                .header("Authorization", "Bearer wrong").header("Cookie", COOKIE + "=" + session()));

        assertThat(bearer.statusCode()).isNotIn(401, 403);
        assertThat(wrongBearer.statusCode()).isEqualTo(401);
    }

    @Test
    void theTriggersPageReadsAnAppsTriggersWithoutTheirSecretAndSwitchesOneOnlyWithTheConsoleHeader() {
        String appId = server.importApp("webhook-trigger.yml").get("app_id").asText();
        String triggers = "/admin/apps/" + appId + "/triggers";
        String secret = "a-shared-secret-of-some-length";
        assertThat(server.admin("PUT", triggers + "/hook/auth", "application/json", "{\"kind\": \"bearer\", "
                + "\"secret\": \"" + secret + "\"}").statusCode()).isEqualTo(200);
        String session = session();

        HttpResponse<String> listed = request("GET", triggers, session, Map.of());
        HttpResponse<String> bare = request("POST", triggers + "/github/enable", session, Map.of());
        HttpResponse<String> fromTheConsole = request("POST", triggers + "/github/enable", session,
                Map.of("X-Hexaflow-Console", "1"));

        assertThat(listed.statusCode()).isEqualTo(200);
        assertThat(listed.body()).contains("\"auth_kind\":\"bearer\"", "\"url_path\":\"/triggers/webhook/")
                .doesNotContain(secret);
        assertThat(bare.statusCode()).isEqualTo(403);
        assertThat(fromTheConsole.statusCode()).isEqualTo(200);
        assertThat(TestServer.json(fromTheConsole).get("enabled").asBoolean()).isTrue();
        String page = server.get("/console").body();
        java.util.regex.Matcher more = java.util.regex.Pattern.compile("src=\"(/web/console-more[^\"]*)\"")
                .matcher(page);
        assertThat(more.find()).isTrue();
        assertThat(server.get(more.group(1)).body()).as("the console's triggers view").contains(
                "\\/triggers$/", "'/triggers'", "(t.enabled ? 'disable' : 'enable')");
    }

    @Test
    void signingOutEndsTheSessionAndClearsTheCookie() {
        String session = session();

        HttpResponse<String> out = request("DELETE", "/console/session", session, Map.of());

        assertThat(out.statusCode()).isEqualTo(200);
        assertThat(out.headers().firstValue("Set-Cookie").orElseThrow()).startsWith(COOKIE + "=;")
                .contains("Max-Age=0");
        assertThat(request("GET", "/admin/runs", session, Map.of()).statusCode()).isEqualTo(401);
    }

    @Test
    void anEndedOrChangedCookieIsRefused() throws Exception {
        String session = session();
        String[] parts = session.split("\\.");
        String ended = signed((Instant.now().getEpochSecond() - 60) + "." + parts[1]);
        String later = (Long.parseLong(parts[0]) + 3600) + "." + parts[1] + "." + parts[2];

        assertThat(request("GET", "/admin/runs", signed(parts[0] + "." + parts[1]), Map.of()).statusCode())
                .as("the test signs as the server does").isEqualTo(200);
        assertThat(request("GET", "/admin/runs", ended, Map.of()).statusCode()).isEqualTo(401);
        assertThat(request("GET", "/admin/runs", later, Map.of()).statusCode()).isEqualTo(401);
        assertThat(request("GET", "/admin/runs", "hfa-" + session, Map.of()).statusCode()).isEqualTo(401);
    }

    @Test
    void theConsolePageAndItsFilesCarryThePagesHeaders() {
        HttpResponse<String> page = server.get("/console");

        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("<title>Hexaflow console</title>", "<main", "<label for=\"token\"")
                .doesNotContain(" style=", "onclick", "<script>");
        String csp = server.get("/").headers().firstValue("Content-Security-Policy").orElseThrow();
        assertThat(page.headers().firstValue("Content-Security-Policy")).hasValue(csp);
        assertThat(page.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
        java.util.regex.Matcher linked = java.util.regex.Pattern.compile("(?:href|src)=\"(/web/[^\"]+)\"")
                .matcher(page.body());
        int files = 0;
        while (linked.find()) {
            files++;
            HttpResponse<String> file = server.get(linked.group(1));
            assertThat(file.statusCode()).as(linked.group(1)).isEqualTo(200);
            assertThat(file.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
            assertThat(file.headers().firstValue("Content-Security-Policy")).hasValue(csp);
        }
        assertThat(files).as("the icon, the style and four scripts").isEqualTo(6);
        HttpResponse<String> refused = signIn("application/json", "{}", Map.of());
        assertThat(refused.headers().firstValue("Content-Security-Policy")).hasValue(csp);
    }

    /** A session value signed as the server signs one, for an end of the test's choosing. */
    private static String signed(String payload) throws Exception {
        byte[] key = MessageDigest.getInstance("SHA-256").digest(("hexaflow console session\n"
                + SecretHash.of(TestServer.ADMIN_TOKEN).hex()).getBytes(StandardCharsets.US_ASCII));
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key, "HmacSHA256"));
        return payload + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(
                mac.doFinal(payload.getBytes(StandardCharsets.US_ASCII)));
    }

    private static String session() {
        HttpResponse<String> answer = signIn("application/json", "{\"token\": \"" + TestServer.ADMIN_TOKEN + "\"}",
                Map.of());
        String cookie = answer.headers().firstValue("Set-Cookie").orElseThrow();
        return cookie.substring(COOKIE.length() + 1, cookie.indexOf(';'));
    }

    private static HttpResponse<String> signIn(String contentType, String body, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri("/console/session"))
                .POST(HttpRequest.BodyPublishers.ofString(body)).header("Content-Type", contentType);
        headers.forEach(request::header);
        return send(request);
    }

    private static HttpResponse<String> request(String method, String path, String session,
            Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path))
                .method(method, HttpRequest.BodyPublishers.noBody()).header("Cookie", COOKIE + "=" + session);
        headers.forEach(request::header);
        return send(request);
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) {
        return TestServer.exchange(request, HttpResponse.BodyHandlers.ofString());
    }

    private static URI uri(String path) {
        return URI.create(server.hexaflow.baseUrl() + path);
    }
}
