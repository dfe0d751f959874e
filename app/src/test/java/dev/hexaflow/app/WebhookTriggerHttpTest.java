package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.app.config.Configuration;
import dev.hexaflow.app.config.TriggerSettings;
import dev.hexaflow.domain.trigger.WebhookAuth;
import dev.hexaflow.engine.EngineConfiguration;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A webhook trigger called as a third party calls it, on a real server: its query, header and JSON body become the
 * node's outputs and the run is kept with how it started; a request that does not fit the node (a missing
 * parameter, a wrong type, a wrong method, bad JSON, a body past the limit) is refused with Dify's error and starts
 * nothing; the operator's authentication, switch and new URL; a node that waits answers the run's end; a plugin
 * trigger runs only once bound; a payload is data, never a template.
 */
class WebhookTriggerHttpTest {

    @TempDir
    Path dataDir;
    TestServer server;
    ServiceApi api;
    String appId;
    JsonNode imported;

    @BeforeEach
    void start() {
        Configuration config = TestServer.config(dataDir)
                .withTriggers(new TriggerSettings(Duration.ofSeconds(10), 64 * 1024, 1000));
        server = TestServer.start(config);
        imported = server.importApp("webhook-trigger.yml");
        appId = imported.get("app_id").asText();
        api = server.api(imported.get("api_key").asText());
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void aCallStartsARunFromTheWebhookWithItsQueryHeaderAndBody() {
        String path = trigger("hook").get("url_path").asText();
        assertThat(path).matches("/triggers/webhook/[a-z0-9]{32}");
        HttpResponse<String> answer = call("POST", path + "?priority=2", "application/json",
                "{\"item\": \"tea\", \"count\": 3, \"gift\": true}", Map.of("X-Shop-Id", "shop-7"));
        assertThat(answer.statusCode()).isEqualTo(200);
        JsonNode body = TestServer.json(answer);
        assertThat(body.get("status").asText()).isEqualTo("success");
        assertThat(body.get("message").asText()).isEqualTo("Webhook processed successfully");
        String runId = body.get("workflow_run_id").asText();
        assertThat(answer.headers().firstValue("X-Hexaflow-Run-Id")).contains(runId);
        JsonNode run = finished(runId);
        assertThat(run.get("status").asText()).isEqualTo("succeeded");
        JsonNode outputs = outputs(run);
        assertThat(outputs.get("order").asText()).isEqualTo("3 x tea for shop-7");
        assertThat(outputs.get("priority").asInt()).isEqualTo(2);
        assertThat(outputs.get("method").asText()).isEqualTo("POST");
        JsonNode logs = ServiceApi.json(api.get("/v1/workflows/logs"));
        assertThat(logs.get("total").asInt()).isEqualTo(1);
        assertThat(logs.get("data").get(0).get("workflow_run").get("triggered_from").asText()).isEqualTo("webhook");
        assertThat(logs.get("data").get(0).get("created_from").asText()).isEqualTo("service-api");
    }

    @Test
    void aRequestThatDoesNotFitTheNodeIsRefusedAsDifyRefusesItAndStartsNothing() {
        String path = trigger("hook").get("url_path").asText();
        Map<String, String> shop = Map.of("X-Shop-Id", "shop-7");
        assertRefused(call("POST", path, "application/json", "{\"item\": \"tea\", \"count\": 3}", Map.of()), 400,
                "Required header missing: X-Shop-Id");
        assertRefused(call("POST", path, "application/json", "{\"item\": \"tea\"}", shop), 400,
                "Required body parameter missing: count");
        assertRefused(call("POST", path, "application/json", "{\"item\": \"tea\", \"count\": \"three\"}", shop),
                400, "Parameter 'count' validation failed: Expected number, got str");
        assertRefused(call("POST", path + "?priority=high", "application/json", "{\"item\": \"tea\", \"count\": 1}",
                shop), 400, "Parameter 'priority' validation failed: Cannot convert 'high' to number");
        assertRefused(call("PUT", path, "application/json", "{\"item\": \"tea\", \"count\": 1}", shop), 400,
                "HTTP method mismatch. Expected POST, got PUT");
        assertRefused(call("POST", path, "text/plain", "tea", shop), 400,
                "Content-type mismatch. Expected application/json, got text/plain");
        assertRefused(call("POST", path, "application/json", "{\"item\": ", shop), 400, "Invalid JSON body");
        assertRefused(call("DELETE", path, "multipart/form-data", "{\"item\": \"tea\"}", shop), 400,
                "The multipart body cannot be read");
        String large = "{\"item\": \"" + "t".repeat(70 * 1024) + "\", \"count\": 1}";
        assertRefused(call("POST", path, "application/json", large, shop), 413,
                "exceeds maximum allowed size of 65536 bytes");
        assertRefused(call("POST", "/triggers/webhook/nosuchcode", "application/json", "{}", shop), 404,
                "Webhook not found");
        // An unknown URL is answered before its body is read: a large or broken one is still 404.
        assertRefused(call("POST", "/triggers/webhook/" + "x".repeat(32), "application/json", large, shop), 404,
                "Webhook not found");
        HttpResponse<String> byRequest = api.postJson("/v1/workflows/run", ServiceApi.run(Map.of(), "blocking", "ada"));
        assertThat(byRequest.statusCode()).isEqualTo(400);
        assertThat(ServiceApi.json(byRequest).get("code").asText()).isEqualTo("invalid_param");
        assertThat(ServiceApi.json(byRequest).get("message").asText()).contains("starts from its triggers");
        assertThat(ServiceApi.json(api.get("/v1/workflows/logs")).get("total").asInt()).isZero();
    }

    @Test
    void thePayloadIsDataNeverATemplate() {
        String path = trigger("hook").get("url_path").asText();
        HttpResponse<String> answer = call("POST", path, "application/json",
                "{\"item\": \"{{ 7 * 7 }} {{#sys.user_id#}}\", \"count\": 1}", Map.of("X-Shop-Id", "{% raw %}"));
        JsonNode outputs = outputs(finished(TestServer.json(answer).get("workflow_run_id").asText()));
        assertThat(outputs.get("item").asText()).isEqualTo("{{ 7 * 7 }} {{#sys.user_id#}}");
        assertThat(outputs.get("order").asText()).isEqualTo("1 x {{ 7 * 7 }} {{#sys.user_id#}} for {% raw %}");
    }

    @Test
    void theOperatorsAuthenticationSwitchAndNewUrlGuardTheDoor() {
        String path = trigger("hook").get("url_path").asText();
        String body = "{\"item\": \"tea\", \"count\": 1}";
        String secret = "a-shared-secret-of-some-length";
        assertThat(server.admin("PUT", "/admin/apps/" + appId + "/triggers/hook/auth", "application/json",
                "{\"kind\": \"hmac\", \"secret\": \"" + secret + "\"}").statusCode()).isEqualTo(200);
        JsonNode shown = trigger("hook");
        assertThat(shown.get("auth_kind").asText()).isEqualTo("hmac");
        assertThat(shown.toString()).doesNotContain(secret);
        assertRefused(call("POST", path, "application/json", body, Map.of("X-Shop-Id", "s")), 401, "hmac");
        String signature = "sha256=" + HexFormat.of().formatHex(WebhookAuth.signature(secret,
                body.getBytes(StandardCharsets.UTF_8)));
        assertThat(call("POST", path, "application/json", body, Map.of("X-Shop-Id", "s",
                "X-Hexaflow-Signature", signature)).statusCode()).isEqualTo(200);
        assertRefused(call("POST", path, "application/json", body.replace("1", "2"), Map.of("X-Shop-Id", "s",
                "X-Hexaflow-Signature", signature)), 401, "hmac");

        assertThat(server.admin("POST", "/admin/apps/" + appId + "/triggers/hook/disable", null, null)
                .statusCode()).isEqualTo(200);
        assertRefused(call("POST", path, "application/json", body, Map.of("X-Shop-Id", "s",
                "X-Hexaflow-Signature", signature)), 404, "disabled");
        server.admin("POST", "/admin/apps/" + appId + "/triggers/hook/enable", null, null);
        String newPath = TestServer.json(server.admin("POST", "/admin/apps/" + appId + "/triggers/hook/new-url",
                null, null)).get("url_path").asText();
        assertThat(newPath).isNotEqualTo(path);
        assertRefused(call("POST", path, "application/json", body, Map.of()), 404, "Webhook not found");
        assertThat(call("POST", newPath, "application/json", body, Map.of("X-Shop-Id", "s",
                "X-Hexaflow-Signature", signature)).statusCode()).isEqualTo(200);
    }

    /** A run keeps the request's headers, never the one that holds the webhook's secret. */
    @Test
    void aRunKeepsNoSecretOfItsWebhookAndAnHmacWebhookTakesNoMultipartBody() {
        String path = trigger("hook").get("url_path").asText();
        String secret = "the-bearer-secret-0123456789";
        server.admin("PUT", "/admin/apps/" + appId + "/triggers/hook/auth", "application/json",
                "{\"kind\": \"bearer\", \"secret\": \"" + secret + "\"}");
        HttpResponse<String> answer = call("POST", path, "application/json", "{\"item\": \"tea\", \"count\": 1}",
                Map.of("X-Shop-Id", "s", "Authorization", "Bearer " + secret));
        assertThat(answer.statusCode()).isEqualTo(200);
        JsonNode run = finished(TestServer.json(answer).get("workflow_run_id").asText());
        assertThat(run.toString()).contains("X-Shop-Id").doesNotContain(secret);

        server.admin("PUT", "/admin/apps/" + appId + "/triggers/hook/auth", "application/json",
                "{\"kind\": \"hmac\", \"secret\": \"" + secret + "\"}");
        String emptySignature = "sha256=" + HexFormat.of().formatHex(WebhookAuth.signature(secret, new byte[0]));
        assertRefused(call("POST", path, "multipart/form-data; boundary=b", "--b\r\nContent-Disposition: form-data; "
                + "name=\"item\"\r\n\r\ntea\r\n--b--\r\n", Map.of("X-Shop-Id", "s", "X-Hexaflow-Signature",
                emptySignature)), 401, "hmac");
    }

    @Test
    void aPluginTriggerRunsOnlyOnceBoundAndItsEventBecomesItsOutputs() {
        assertThat(imported.get("warnings").toString()).contains("plugin trigger New issue (github)",
                "langgenius/github_trigger", "issues_opened", "hexaflow triggers bind ");
        JsonNode plugin = trigger("github");
        assertThat(plugin.get("enabled").asBoolean()).isFalse();
        String path = plugin.get("url_path").asText();
        assertRefused(call("POST", path, "application/json", "{\"title\": \"Crash\"}", Map.of()), 404,
                "not bound");
        server.admin("POST", "/admin/apps/" + appId + "/triggers/github/enable", null, null);
        HttpResponse<String> answer = call("POST", path, "application/json", "{\"title\": \"Crash\"}", Map.of());
        assertThat(answer.statusCode()).isEqualTo(200);
        JsonNode run = finished(TestServer.json(answer).get("workflow_run_id").asText());
        assertThat(run.get("status").asText()).as(run.toString()).isEqualTo("succeeded");
        assertThat(outputs(run).get("title").asText()).isEqualTo("Crash");
        assertThat(ServiceApi.json(api.get("/v1/workflows/logs")).get("data").get(0).get("workflow_run")
                .get("triggered_from").asText()).isEqualTo("plugin");
    }

    @Test
    void aNodeThatWaitsAnswersTheRunsEndAndANodeWithItsOwnBodyAnswersIt() {
        JsonNode imported = server.importApp("webhook-waits.yml");
        String waitsPath = triggerOf(imported.get("app_id").asText(), "wait").get("url_path").asText();
        HttpResponse<String> waited = call("POST", waitsPath, "application/x-www-form-urlencoded", "name=Ada+L",
                Map.of());
        assertThat(waited.statusCode()).isEqualTo(200);
        JsonNode data = TestServer.json(waited).get("data");
        assertThat(data.get("status").asText()).isEqualTo("succeeded");
        assertThat(data.get("outputs").get("greeting").asText()).isEqualTo("Hello Ada L");
        assertRefused(call("POST", waitsPath, "application/x-www-form-urlencoded", "name=%zz", Map.of()), 400,
                "bad %-escape");
        String textPath = triggerOf(imported.get("app_id").asText(), "text").get("url_path").asText();
        HttpResponse<String> text = call("PUT", textPath, "text/plain; charset=utf-8", "call me back", Map.of());
        assertThat(text.statusCode()).isEqualTo(202);
        assertThat(TestServer.json(text).get("accepted").asBoolean()).isTrue();
    }

    /** The app's completion webhook hears of a run its trigger started, as of any run. */
    @Test
    void aTriggeredRunsEndIsPostedToTheAppsCompletionWebhook() throws Exception {
        server.close();
        Configuration config = TestServer.config(dataDir).withEngine(EngineConfiguration.fromEnvironment(
                Map.of("HEXAFLOW_OUTBOUND_ALLOW", "127.0.0.1")));
        server = TestServer.start(config.withService(config.service().withWebhooks(WebhookDeliveryHttpTest.QUICK)));
        try (WebhookDeliveryHttpTest.Receiver receiver = new WebhookDeliveryHttpTest.Receiver()) {
            assertThat(server.admin("PUT", "/admin/apps/" + appId, "application/json", "{\"callback_url\": \""
                    + receiver.url("/ends") + "\"}").statusCode()).isEqualTo(200);
            HttpResponse<String> answer = call("POST", trigger("hook").get("url_path").asText(), "application/json",
                    "{\"item\": \"tea\", \"count\": 2}", Map.of("X-Shop-Id", "shop-7"));
            String runId = TestServer.json(answer).get("workflow_run_id").asText();
            JsonNode posted = TestServer.json(new String(receiver.next().body(), StandardCharsets.UTF_8));
            assertThat(posted.toString()).contains(runId, "2 x tea for shop-7");
        }
    }

    @Test
    void pastItsRateAUrlIsRefusedWithRetryAfter() {
        server.close();
        server = TestServer.start(TestServer.config(dataDir).withTriggers(new TriggerSettings(Duration.ofSeconds(10),
                64 * 1024, 3)));
        String path = trigger("hook").get("url_path").asText();
        for (int i = 0; i < 3; i++) {
            assertThat(call("POST", path, "application/json", "{}", Map.of()).statusCode()).isEqualTo(400);
        }
        HttpResponse<String> refused = call("POST", path, "application/json", "{}", Map.of());
        assertRefused(refused, 429, "Retry-After");
        long wait = Long.parseLong(refused.headers().firstValue("Retry-After").orElseThrow());
        assertThat(wait).isBetween(1L, 60L);
    }

    private JsonNode trigger(String nodeId) {
        return triggerOf(appId, nodeId);
    }

    private JsonNode triggerOf(String app, String nodeId) {
        HttpResponse<String> answer = server.admin("GET", "/admin/apps/" + app + "/triggers/" + nodeId, null, null);
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        return TestServer.json(answer);
    }

    /** A run's outputs as its detail shows them (an object; Dify's older servers wrote them as text). */
    private static JsonNode outputs(JsonNode run) {
        JsonNode outputs = run.get("outputs");
        return outputs.isTextual() ? TestServer.json(outputs.asText()) : outputs;
    }

    private JsonNode finished(String runId) {
        for (int i = 0; i < 300; i++) {
            HttpResponse<String> answer = api.get("/v1/workflows/run/" + runId);
            JsonNode run = ServiceApi.json(answer);
            // A run nobody follows is kept whole once it ends (or after a while): till then it is not found.
            if (answer.statusCode() == 200 && !run.get("status").asText().equals("running")) {
                return run;
            }
            sleep(50);
        }
        throw new AssertionError("run " + runId + " did not end");
    }

    private HttpResponse<String> call(String method, String path, String contentType, String body,
            Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.baseUrl() + path))
                .method(method, HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        headers.forEach(request::header);
        return TestServer.exchange(request, HttpResponse.BodyHandlers.ofString());
    }

    private static void assertRefused(HttpResponse<String> answer, int status, String message) {
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(status);
        JsonNode body = TestServer.json(answer);
        assertThat(body.has("error")).as(answer.body()).isTrue();
        assertThat(body.get("message").asText() + answer.headers().map()).contains(message);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
