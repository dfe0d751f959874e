package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.engine.EngineConfiguration;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Generated requests across every /v1, /v2 and /admin operation, most of them wrong in some way: malformed,
 * oversized and deeply nested JSON, wrong types, missing and extra fields, odd encodings, wrong methods and
 * content types, invalid ids, broken multipart, bad credentials. None may be answered with a 5xx, and every
 * error must come in the shape of its API: {@code {code, message, status}} on /v1 and /admin, the campus
 * envelope {@code {meta, data}} on /v2.
 */
class NoServerErrorFuzzTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final Set<Integer> CAMPUS_5XX = Set.of(501, 511);
    private static final int OVER_REQUEST_LIMIT = 17 * 1024 * 1024;

    private static Path dataDir;
    private static volatile String previous = "nothing";
    private static TestServer server;
    private static FakeModelServer model;
    private static Known known;
    /** The code of the echo app's MCP server, turned on. */
    private static String mcpCode;

    /** Real ids and credentials, so that generated requests also reach past authentication and lookups. */
    private record Known(String keyA, String keyB, String appA, String workflowA, String runA, String taskA,
            String uploadA, String campusKey, String dsl, String siteA, String webTokenA, String webTokenB,
            String keyChat, String conversation, String message, String variable, String datasetKey,
            String dataset, String document, String segment, Triggers triggers) {
    }

    /** An app with a webhook and a plugin trigger, their URLs' codes, and an app with a yearly schedule. */
    private record Triggers(String hookApp, String hookCode, String pluginCode, String tickApp) {
    }

    @BeforeContainer
    static void start() throws IOException {
        dataDir = Files.createTempDirectory("hexaflow-fuzz");
        model = new FakeModelServer();
        model.answer(FakeModelServer.Script.text("[\"a\", \"b\", \"c\"]", 1, 1));
        server = TestServer.start(TestServer.config(dataDir).withEngine(EngineConfiguration.fromEnvironment(
                Map.of("HEXAFLOW_LLM_MODELS", "*=local-model")).withLlm(model.baseUrl(), "sk-t")));
        JsonNode a = server.importApp("echo.yml");
        String keyChat = server.importApp("chatflow.yml").get("api_key").asText();
        ServiceApi chat = server.api(keyChat);
        JsonNode sent = ServiceApi.json(chat.postJson("/v1/chat-messages", Map.of("query", "hi", "inputs", Map.of(),
                "user", "fuzz", "auto_generate_name", false)));
        String conversation = sent.get("conversation_id").asText();
        String variable = ServiceApi.json(chat.get("/v1/conversations/" + conversation + "/variables?user=fuzz"))
                .get("data").get(0).get("id").asText();
        JsonNode b = server.importApp("reader.yml");
        ServiceApi api = server.api(a.get("api_key").asText());
        JsonNode run = ServiceApi.json(api.postJson("/v1/workflows/run",
                ServiceApi.run(Map.of("query", "hi"), "blocking", "ada")));
        String upload = api.upload("ada", "a.txt", "text/plain", "hello".getBytes(StandardCharsets.UTF_8));
        String datasetKey = TestServer.json(server.admin("POST", "/admin/datasets/keys", null, null)).get("key")
                .asText();
        ServiceApi knowledge = server.api(datasetKey);
        String dataset = ServiceApi.json(knowledge.postJson("/v1/datasets", Map.of("name", "Fuzz",
                "indexing_technique", "economy"))).get("id").asText();
        String document = ServiceApi.json(knowledge.postJson("/v1/datasets/" + dataset
                + "/document/create-by-text", Map.of("name", "a.md", "text", "Lunch is at noon."))).get("document")
                .get("id").asText();
        String segment = ServiceApi.json(knowledge.get("/v1/datasets/" + dataset + "/documents/" + document
                + "/segments")).get("data").get(0).get("id").asText();
        String dsl;
        try (InputStream in = NoServerErrorFuzzTest.class.getResourceAsStream("/apps/echo.yml")) {
            dsl = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        known = new Known(a.get("api_key").asText(), b.get("api_key").asText(), a.get("app_id").asText(),
                a.get("workflow_id").asText(), run.get("workflow_run_id").asText(), run.get("task_id").asText(),
                upload, server.issueCampusKey(), dsl, a.get("site_code").asText(), webToken(a), webToken(b),
                keyChat, conversation, sent.get("message_id").asText(), variable, datasetKey, dataset, document,
                segment, triggers());
        mcpCode = TestServer.json(server.admin("POST", "/admin/apps/" + known.appA() + "/mcp-server/enable", null,
                null)).get("server_code").asText();
    }

    private static Triggers triggers() throws IOException {
        String hookApp = server.importApp("webhook-trigger.yml").get("app_id").asText();
        String schedule;
        try (InputStream in = NoServerErrorFuzzTest.class.getResourceAsStream("/apps/schedule-trigger.yml")) {
            // Once a year rather than every second: the schedule is there to be set, not to fire.
            schedule = new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("'* * * * * *'", "'0 0 1 1 *'");
        }
        String tickApp = TestServer.json(server.admin("POST", "/admin/apps", "application/yaml", schedule))
                .get("app_id").asText();
        return new Triggers(hookApp, code(hookApp, "hook"), code(hookApp, "github"), tickApp);
    }

    private static String code(String app, String nodeId) {
        String path = TestServer.json(server.admin("GET", "/admin/apps/" + app + "/triggers/" + nodeId, null, null))
                .get("url_path").asText();
        return path.substring(path.lastIndexOf('/') + 1);
    }

    private static String webToken(JsonNode app) {
        return TestServer.json(server.send("POST", "/apps/" + app.get("site_code").asText() + "/token", null, null,
                null)).get("access_token").asText();
    }

    @AfterContainer
    static void stop() throws IOException {
        server.close();
        model.close();
        try (Stream<Path> files = Files.walk(dataDir)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        }
    }

    /**
     * A fixed seed, so that a build is repeatable and CI runs the same 10 000 requests that passed here; to
     * explore others, give {@code -Dhexaflow.fuzz.seed=N}, which changes every detail the generator draws.
     */
    @Property(tries = 10_000, shrinking = ShrinkingMode.OFF, seed = "20261121")
    void noRequestIsAServerErrorAndEveryErrorHasTheShapeOfItsApi(@ForAll("requests") Request request) {
        HttpResponse<byte[]> response = send(request);
        int status = response.statusCode();
        String body = new String(response.body(), StandardCharsets.UTF_8);

        boolean feed = request.path().startsWith("/v2");
        if (feed && CAMPUS_5XX.contains(status)) {
            // The campus API's own answers: 501 "Invalid method" and 511 "API key required" are its contract.
            if (!request.method().equals("HEAD")) {
                assertCampusEnvelope(request, status, response, body);
            }
        } else {
            assertThat(status).as("%s answered %s", request, body).isBetween(200, 499);
        }
        if (status >= 400 && !request.method().equals("HEAD")) {
            if (request.path().startsWith("/apps/") && body.startsWith("<!doctype html>")) {
                // A person's page: its refusal is a page too.
                assertThat(status).as("%s answered a page", request).isEqualTo(404);
                assertThat(body).contains("Page not found");
            } else if (feed && !(unreadableRequestLine(request) && body.startsWith("{\"code\""))) {
                assertCampusEnvelope(request, status, response, body);
            } else if (request.path().startsWith("/mcp/") && parse(request, body).has("jsonrpc")) {
                // An MCP server's refusal, a JSON-RPC error (one the server makes before the route is the common).
                JsonNode error = parse(request, body).path("error");
                assertThat(error.path("code").isInt()).as("%s: error code in %s", request, body).isTrue();
                assertThat(error.path("message").isTextual()).as("%s: message in %s", request, body).isTrue();
            } else if (request.path().startsWith("/triggers/") && parse(request, body).has("error")) {
                // A webhook trigger's refusal, in Dify's shape (one the server makes before the route is the common).
                JsonNode error = parse(request, body);
                assertThat(error.path("error").isTextual()).as("%s: error in %s", request, body).isTrue();
                assertThat(error.path("message").isTextual()).as("%s: message in %s", request, body).isTrue();
            } else {
                JsonNode error = parse(request, body);
                assertThat(error.path("code").isTextual()).as("%s: code in %s", request, body).isTrue();
                assertThat(error.path("message").isTextual()).as("%s: message in %s", request, body).isTrue();
                assertThat(error.path("status").asInt()).as("%s: status in %s", request, body).isEqualTo(status);
            }
        }
    }

    /**
     * HTTP refuses an encoded NUL in the path, or a request line past its 8 KB of headers, before even the path
     * is known: that is no API's request, and it may get the common JSON error.
     */
    private static boolean unreadableRequestLine(Request request) {
        String path = request.path().contains("?") ? request.path().substring(0, request.path().indexOf('?'))
                : request.path();
        return path.contains("%00") || request.path().length() > 7 * 1024;
    }

    private static void assertCampusEnvelope(Request request, int status, HttpResponse<byte[]> response,
            String body) {
        String type = response.headers().firstValue("Content-Type").orElse("");
        if (type.startsWith("application/xml")) {
            org.w3c.dom.Element root = xml(request, body);
            assertThat(root.getTagName()).as("%s: %s", request, body).isEqualTo("response");
            assertThat(root.getElementsByTagName("status").item(0).getTextContent()).as("%s: %s", request, body)
                    .isEqualTo(String.valueOf(status));
            assertThat(root.getElementsByTagName("data").getLength()).as("%s: %s", request, body).isEqualTo(1);
            return;
        }
        String json = body;
        if (type.startsWith("application/javascript")) {
            // A callback is a dotted path of JavaScript identifiers, which may be letters of any script.
            assertThat(body).as("%s: JSONP in %s", request, body)
                    .matches("(?s)[\\p{L}_$][\\p{L}\\p{N}\\p{M}_$.]*\\(.*\\);");
            json = body.substring(body.indexOf('(') + 1, body.length() - 2);
        } else {
            assertThat(type).as("%s: an error envelope is JSON, XML or JSONP", request).startsWith("application/json");
        }
        JsonNode envelope = parse(request, json);
        assertThat(envelope.path("meta").path("status").asInt()).as("%s: meta in %s", request, body)
                .isEqualTo(status);
        assertThat(envelope.path("meta").path("message").isTextual()).as("%s: %s", request, body).isTrue();
        assertThat(envelope.has("data")).as("%s: data in %s", request, body).isTrue();
    }

    private static org.w3c.dom.Element xml(Request request, String body) {
        try {
            javax.xml.parsers.DocumentBuilderFactory factory = javax.xml.parsers.DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            return factory.newDocumentBuilder().parse(new java.io.ByteArrayInputStream(
                    body.getBytes(StandardCharsets.UTF_8))).getDocumentElement();
        } catch (Exception e) {
            throw new AssertionError(request + " answered an error that is not XML: " + body, e);
        }
    }

    private static JsonNode parse(Request request, String body) {
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            throw new AssertionError(request + " answered an error that is not JSON: " + body, e);
        }
    }

    private static HttpResponse<byte[]> send(Request request) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(server.hexaflow.baseUrl() + request.path()))
                .timeout(Duration.ofSeconds(30))
                .method(request.method(), request.body().length == 0 ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(request.body()));
        request.headers().forEach(builder::header);
        try {
            HttpResponse<byte[]> response = CLIENT.send(builder.build(), HttpResponse.BodyHandlers.ofByteArray());
            previous = request + " answered " + response.statusCode() + " " + response.headers().map();
            return response;
        } catch (IOException e) {
            // A connection dropped under a request is often the previous answer's doing: name both.
            throw new UncheckedIOException(request + " got no answer; before it, " + previous, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    // ---- the generator

    /** One generated request; its string form is what a failure report shows. */
    record Request(String method, String path, Map<String, String> headers, byte[] body) {
        @Override
        public String toString() {
            String shown = new String(body, 0, Math.min(body.length, 300), StandardCharsets.UTF_8);
            return method + " " + (path.length() > 300 ? path.substring(0, 300) + "…" : path) + " " + headers
                    + " body[" + body.length + "]=" + shown;
        }
    }

    /** What an operation takes as its body when it is called rightly. */
    enum BodyKind { NONE, RUN, STOP, UPLOAD, DSL, SITE, CAMPUS_DATA, MCP_SERVER, TOOL_BINDING, CHAT, FEEDBACK, RENAME,
        VARIABLE, SPEECH, DATASET, DOCUMENT_TEXT, SEGMENT, RETRIEVE, DOCUMENT_FILE, MISSED_TICKS, TRIGGER_AUTH,
        WEBHOOK, DOC_STATUS, MCP_CALL, MCP_DESCRIPTION, ANNOTATION, ANNOTATION_REPLY, LIMITS }

    /** Which credential an operation takes. */
    enum Auth { APP, CHAT, ADMIN, DATASET, NONE }

    /** An operation of the three APIs, its path with {placeholders}, and what it takes. */
    record Operation(String method, String path, BodyKind body, Auth auth) {
    }

    static final List<Operation> OPERATIONS = List.of(
            new Operation("POST", "/v1/workflows/run", BodyKind.RUN, Auth.APP),
            new Operation("POST", "/v1/workflows/{workflow}/run", BodyKind.RUN, Auth.APP),
            new Operation("GET", "/v1/workflows/run/{run}", BodyKind.NONE, Auth.APP),
            new Operation("GET", "/v1/workflows/run/{run}/node-executions", BodyKind.NONE, Auth.APP),
            new Operation("POST", "/v1/workflows/tasks/{task}/stop", BodyKind.STOP, Auth.APP),
            new Operation("POST", "/v1/files/upload", BodyKind.UPLOAD, Auth.APP),
            new Operation("GET", "/v1/workflows/logs", BodyKind.NONE, Auth.APP),
            new Operation("GET", "/v1/workflows/paused", BodyKind.NONE, Auth.APP),
            new Operation("GET", "/v1/form/human_input/{task}", BodyKind.NONE, Auth.APP),
            new Operation("POST", "/v1/form/human_input/{task}", BodyKind.STOP, Auth.APP),
            new Operation("GET", "/v1/", BodyKind.NONE, Auth.NONE),
            new Operation("GET", "/v1/info", BodyKind.NONE, Auth.APP),
            new Operation("GET", "/v1/parameters", BodyKind.NONE, Auth.APP),
            new Operation("GET", "/v1/site", BodyKind.NONE, Auth.APP),
            new Operation("GET", "/v1/site", BodyKind.NONE, Auth.CHAT),
            new Operation("POST", "/v1/chat-messages", BodyKind.CHAT, Auth.CHAT),
            new Operation("POST", "/v1/chat-messages/{task}/stop", BodyKind.STOP, Auth.CHAT),
            new Operation("GET", "/v1/messages", BodyKind.NONE, Auth.CHAT),
            new Operation("POST", "/v1/messages/{message}/feedbacks", BodyKind.FEEDBACK, Auth.CHAT),
            new Operation("GET", "/v1/messages/{message}/suggested", BodyKind.NONE, Auth.CHAT),
            new Operation("GET", "/v1/app/feedbacks", BodyKind.NONE, Auth.CHAT),
            new Operation("GET", "/v1/conversations", BodyKind.NONE, Auth.CHAT),
            new Operation("DELETE", "/v1/conversations/{conversation}", BodyKind.STOP, Auth.CHAT),
            new Operation("POST", "/v1/conversations/{conversation}/name", BodyKind.RENAME, Auth.CHAT),
            new Operation("GET", "/v1/conversations/{conversation}/variables", BodyKind.NONE, Auth.CHAT),
            new Operation("PUT", "/v1/conversations/{conversation}/variables/{variable}", BodyKind.VARIABLE,
                    Auth.CHAT),
            new Operation("GET", "/v1/meta", BodyKind.NONE, Auth.CHAT),
            new Operation("POST", "/v1/text-to-audio", BodyKind.SPEECH, Auth.CHAT),
            new Operation("POST", "/v1/completion-messages", BodyKind.RUN, Auth.CHAT),
            new Operation("POST", "/v1/completion-messages/{task}/stop", BodyKind.STOP, Auth.CHAT),
            new Operation("GET", "/v1/datasets", BodyKind.NONE, Auth.DATASET),
            new Operation("POST", "/v1/datasets", BodyKind.DATASET, Auth.DATASET),
            new Operation("GET", "/v1/datasets/{dataset}", BodyKind.NONE, Auth.DATASET),
            new Operation("PATCH", "/v1/datasets/{dataset}", BodyKind.DATASET, Auth.DATASET),
            new Operation("POST", "/v1/datasets/{dataset}/document/create-by-text", BodyKind.DOCUMENT_TEXT,
                    Auth.DATASET),
            new Operation("POST", "/v1/datasets/{dataset}/document/create-by-file", BodyKind.DOCUMENT_FILE,
                    Auth.DATASET),
            new Operation("GET", "/v1/datasets/{dataset}/documents", BodyKind.NONE, Auth.DATASET),
            new Operation("GET", "/v1/datasets/{dataset}/documents/{document}/indexing-status", BodyKind.NONE,
                    Auth.DATASET),
            new Operation("GET", "/v1/datasets/{dataset}/documents/{document}", BodyKind.NONE, Auth.DATASET),
            new Operation("POST", "/v1/datasets/{dataset}/documents/{document}/update-by-text",
                    BodyKind.DOCUMENT_TEXT, Auth.DATASET),
            new Operation("GET", "/v1/datasets/{dataset}/documents/{document}/segments", BodyKind.NONE,
                    Auth.DATASET),
            new Operation("GET", "/v1/datasets/{dataset}/documents/{document}/segments/{segment}", BodyKind.NONE,
                    Auth.DATASET),
            new Operation("POST", "/v1/datasets/{dataset}/documents/{document}/segments/{segment}",
                    BodyKind.SEGMENT, Auth.DATASET),
            new Operation("POST", "/v1/datasets/{dataset}/retrieve", BodyKind.RETRIEVE, Auth.DATASET),
            new Operation("POST", "/v1/datasets/{dataset}/hit-testing", BodyKind.RETRIEVE, Auth.DATASET),
            new Operation("POST", "/admin/datasets/keys", BodyKind.NONE, Auth.ADMIN),
            new Operation("DELETE", "/admin/datasets/keys/{garbage}", BodyKind.NONE, Auth.ADMIN),
            new Operation("POST", "/v1/audio-to-text", BodyKind.UPLOAD, Auth.CHAT),
            new Operation("GET", "/files/{garbage}/file-preview", BodyKind.NONE, Auth.NONE),
            new Operation("GET", "/files/tools/{garbage}", BodyKind.NONE, Auth.NONE),
            new Operation("GET", "/v1/files/{upload}/preview", BodyKind.NONE, Auth.APP),
            new Operation("GET", "/v1/end-users/{garbage}", BodyKind.NONE, Auth.APP),
            new Operation("PATCH", "/v1/conversations/{conversation}/variables/{variable}", BodyKind.VARIABLE,
                    Auth.CHAT),
            new Operation("PATCH", "/v1/datasets/{dataset}/documents/status/{docAction}", BodyKind.DOC_STATUS,
                    Auth.DATASET),
            new Operation("GET", "/admin/knowledge/bases", BodyKind.NONE, Auth.ADMIN),
            new Operation("GET", "/admin/forms", BodyKind.NONE, Auth.ADMIN),
            new Operation("POST", "/admin/knowledge/bases", BodyKind.DATASET, Auth.ADMIN),
            new Operation("POST", "/admin/knowledge/bases/{dataset}/documents", BodyKind.DOCUMENT_TEXT, Auth.ADMIN),
            new Operation("POST", "/admin/knowledge/bases/{dataset}/retrieve", BodyKind.RETRIEVE, Auth.ADMIN),
            new Operation("POST", "/admin/apps", BodyKind.DSL, Auth.ADMIN),
            new Operation("GET", "/admin/apps", BodyKind.NONE, Auth.ADMIN),
            new Operation("PUT", "/admin/apps/{app}", BodyKind.DSL, Auth.ADMIN),
            new Operation("POST", "/admin/apps/{app}/keys", BodyKind.NONE, Auth.ADMIN),
            new Operation("DELETE", "/admin/apps/{app}/keys/{garbage}", BodyKind.NONE, Auth.ADMIN),
            new Operation("PUT", "/admin/apps/{app}/site", BodyKind.SITE, Auth.ADMIN),
            new Operation("POST", "/admin/campus/keys", BodyKind.NONE, Auth.ADMIN),
            new Operation("POST", "/admin/campus/keys/{garbage}/ban", BodyKind.NONE, Auth.ADMIN),
            new Operation("PUT", "/admin/campus/{dataSet}", BodyKind.CAMPUS_DATA, Auth.ADMIN),
            new Operation("GET", "/admin/tools", BodyKind.NONE, Auth.ADMIN),
            new Operation("PUT", "/admin/tools/servers/{toolServer}", BodyKind.MCP_SERVER, Auth.ADMIN),
            new Operation("DELETE", "/admin/tools/servers/{toolServer}", BodyKind.NONE, Auth.ADMIN),
            new Operation("PUT", "/admin/tools/bindings", BodyKind.TOOL_BINDING, Auth.ADMIN),
            new Operation("DELETE", "/admin/tools/bindings{toolQuery}", BodyKind.NONE, Auth.ADMIN),
            new Operation("GET", "/admin/apps/{triggerApp}/triggers", BodyKind.NONE, Auth.ADMIN),
            new Operation("GET", "/admin/apps/{triggerApp}/triggers/{trigger}", BodyKind.NONE, Auth.ADMIN),
            new Operation("POST", "/admin/apps/{triggerApp}/triggers/{trigger}/enable", BodyKind.NONE, Auth.ADMIN),
            new Operation("POST", "/admin/apps/{triggerApp}/triggers/{trigger}/disable", BodyKind.NONE, Auth.ADMIN),
            new Operation("PUT", "/admin/apps/{triggerApp}/triggers/{trigger}/missed-ticks", BodyKind.MISSED_TICKS,
                    Auth.ADMIN),
            // Never the webhook whose calls are fuzzed below: a secret or a new URL would leave them all at its door.
            new Operation("PUT", "/admin/apps/{triggerApp}/triggers/{otherTrigger}/auth", BodyKind.TRIGGER_AUTH,
                    Auth.ADMIN),
            new Operation("POST", "/admin/apps/{triggerApp}/triggers/{otherTrigger}/new-url", BodyKind.NONE,
                    Auth.ADMIN),
            new Operation("GET", "/triggers/webhook/{webhookCode}", BodyKind.NONE, Auth.NONE),
            new Operation("POST", "/triggers/webhook/{webhookCode}", BodyKind.WEBHOOK, Auth.NONE),
            new Operation("PUT", "/triggers/webhook/{webhookCode}", BodyKind.WEBHOOK, Auth.NONE),
            new Operation("PATCH", "/triggers/webhook/{webhookCode}", BodyKind.WEBHOOK, Auth.NONE),
            new Operation("DELETE", "/triggers/webhook/{webhookCode}", BodyKind.WEBHOOK, Auth.NONE),
            new Operation("HEAD", "/triggers/webhook/{webhookCode}", BodyKind.NONE, Auth.NONE),
            new Operation("GET", "/admin/apps/{app}/mcp-server", BodyKind.NONE, Auth.ADMIN),
            new Operation("PUT", "/admin/apps/{app}/mcp-server", BodyKind.MCP_DESCRIPTION, Auth.ADMIN),
            new Operation("POST", "/admin/apps/{app}/mcp-server/enable", BodyKind.NONE, Auth.ADMIN),
            new Operation("POST", "/admin/apps/{app}/mcp-server/disable", BodyKind.NONE, Auth.ADMIN),
            new Operation("POST", "/admin/apps/{app}/mcp-server/new-url", BodyKind.NONE, Auth.ADMIN),
            new Operation("POST", "/mcp/server/{mcpCode}/mcp", BodyKind.MCP_CALL, Auth.NONE),
            new Operation("GET", "/mcp/server/{mcpCode}/mcp", BodyKind.NONE, Auth.NONE),
            new Operation("DELETE", "/mcp/server/{mcpCode}/mcp", BodyKind.NONE, Auth.NONE),
            new Operation("GET", "/v2/{service}/{resource}.{format}", BodyKind.NONE, Auth.NONE),
            new Operation("GET", "/v2/{garbage}", BodyKind.NONE, Auth.NONE),
            new Operation("GET", "/apps/{site}", BodyKind.NONE, Auth.NONE),
            new Operation("POST", "/apps/{site}/token", BodyKind.NONE, Auth.NONE),
            new Operation("GET", "/web/{garbage}", BodyKind.NONE, Auth.NONE),
            new Operation("GET", "/{garbage}", BodyKind.NONE, Auth.NONE),
            new Operation("POST", "/v1/apps/annotation-reply/enable", BodyKind.ANNOTATION_REPLY, Auth.CHAT),
            new Operation("GET", "/v1/apps/annotation-reply/enable/status/{task}", BodyKind.NONE, Auth.CHAT),
            new Operation("GET", "/v1/apps/annotations", BodyKind.NONE, Auth.CHAT),
            new Operation("POST", "/v1/apps/annotations", BodyKind.ANNOTATION, Auth.CHAT),
            new Operation("PUT", "/v1/apps/annotations/{message}", BodyKind.ANNOTATION, Auth.CHAT),
            new Operation("DELETE", "/v1/apps/annotations/{message}", BodyKind.NONE, Auth.CHAT),
            new Operation("GET", "/v1/budgets", BodyKind.NONE, Auth.APP),
            new Operation("GET", "/admin/apps/{app}/budgets", BodyKind.NONE,
                    Auth.ADMIN),
            new Operation("GET", "/admin/apps/{app}/limits", BodyKind.NONE, Auth.ADMIN),
            new Operation("PUT", "/admin/apps/{app}/limits", BodyKind.LIMITS, Auth.ADMIN),
            new Operation("DELETE", "/admin/apps/{app}/limits", BodyKind.NONE, Auth.ADMIN));

    /** How far a request strays from the operation's right call. */
    enum Stray {
        NONE, WRONG_METHOD, WRONG_CREDENTIAL, NO_CREDENTIAL, WRONG_CONTENT_TYPE, WRONG_ID, DROP_FIELD, EXTRA_FIELD,
        WRONG_TYPE, MALFORMED, TRUNCATED, ODD_ENCODING, DEEP_NESTING, OVERSIZED, EMPTY_BODY, BROKEN_MULTIPART,
        ODD_QUERY
    }

    @Provide
    Arbitrary<Request> requests() {
        Arbitrary<Stray> strays = Arbitraries.frequencyOf(
                Tuple.of(6, Arbitraries.just(Stray.NONE)),
                Tuple.of(94, Arbitraries.of(Stray.values()).filter(stray -> stray != Stray.OVERSIZED)));
        return Combinators.combine(Arbitraries.of(OPERATIONS), strays, Arbitraries.integers().between(0, 999),
                Arbitraries.strings().all().ofMaxLength(40), Arbitraries.longs())
                .as(NoServerErrorFuzzTest::build);
    }

    private static Request build(Operation operation, Stray stray, int permille, String text, long noise) {
        Random random = new Random(noise ^ Long.getLong("hexaflow.fuzz.seed", 0L));
        // A request past the size limit is costly to send: one in a thousand, to operations that take a body.
        // (One sent to a URL that HTTP cannot even read sees its connection closed before any answer.)
        Stray chosen = permille == 0 && operation.body() != BodyKind.NONE ? Stray.OVERSIZED : stray;
        String method = chosen == Stray.WRONG_METHOD
                ? pick(random, List.of("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"))
                : operation.method();
        Map<String, String> headers = new LinkedHashMap<>();
        credential(operation.auth(), chosen, random, headers);
        String path = path(operation, chosen, text, random) + query(operation, chosen, text, random);
        byte[] body = body(operation.body(), chosen, text, random, headers);
        return new Request(method, path, headers, body);
    }

    private static void credential(Auth auth, Stray stray, Random random, Map<String, String> headers) {
        if (stray == Stray.NO_CREDENTIAL || auth == Auth.NONE && stray != Stray.WRONG_CREDENTIAL) {
            return;
        }
        String right = auth == Auth.ADMIN ? TestServer.ADMIN_TOKEN
                : auth == Auth.DATASET ? known.datasetKey()
                : auth == Auth.CHAT ? (random.nextInt(8) == 0 ? known.keyA() : known.keyChat())
                : random.nextInt(4) == 0 ? known.webTokenA() : known.keyA();
        String value = stray != Stray.WRONG_CREDENTIAL ? "Bearer " + right : pick(random, List.of(
                "Bearer " + known.keyB(), "Bearer app-" + "x".repeat(random.nextInt(40)), "Bearer",
                "Bearer ", "Basic " + right, "bearer " + right, "Bearer " + right + " extra",
                "Bearer " + "k".repeat(5000), "Token " + TestServer.ADMIN_TOKEN, "Bearer " + TestServer.ADMIN_TOKEN,
                "Bearer " + known.keyA(), "Bearer " + known.webTokenB(),
                "Bearer web-" + "w".repeat(random.nextInt(60)), "Bearer " + known.webTokenA() + "x",
                "Bearer dataset-" + "d".repeat(random.nextInt(40)), "Bearer " + known.datasetKey()));
        headers.put("Authorization", value);
    }

    private static String path(Operation operation, Stray stray, String text, Random random) {
        boolean wrong = stray == Stray.WRONG_ID;
        return operation.path()
                .replace("{workflow}", wrong ? odd(text, random) : pick(random, List.of(known.workflowA(), uuid(random))))
                .replace("{run}", wrong ? odd(text, random) : pick(random, List.of(known.runA(), uuid(random))))
                .replace("{task}", wrong ? odd(text, random) : pick(random, List.of(known.taskA(), uuid(random))))
                .replace("{app}", wrong ? odd(text, random) : pick(random, List.of(known.appA(), uuid(random))))
                .replace("{dataSet}", wrong ? odd(text, random)
                        : pick(random, List.of("tutors", "printers", "holidays", "hours")))
                .replace("{service}", wrong ? odd(text, random) : pick(random, List.of("resources", "resoruces",
                        "events", "foo")))
                .replace("{resource}", wrong ? odd(text, random) : pick(random, List.of("tutors", "printers",
                        "holidays", "bar")))
                .replace("{format}", wrong ? odd(text, random) : pick(random, List.of("json", "xml", "ics", "csv")))
                .replace("{site}", wrong ? odd(text, random)
                        : pick(random, List.of(known.siteA(), "x" + known.siteA())))
                .replace("{toolServer}", wrong ? odd(text, random) : pick(random, List.of("calc", "local", "x")))
                .replace("{toolQuery}", wrong ? "?provider=" + encode(text) + "&tool=" + encode(text)
                        : pick(random, List.of("?provider=jina&tool=reader", "?provider=jina", "")))
                .replace("{conversation}", wrong ? odd(text, random)
                        : pick(random, List.of(known.conversation(), uuid(random))))
                .replace("{message}", wrong ? odd(text, random) : pick(random, List.of(known.message(), uuid(random))))
                .replace("{variable}", wrong ? odd(text, random) : pick(random, List.of(known.variable(), uuid(random))))
                .replace("{dataset}", wrong ? odd(text, random) : pick(random, List.of(known.dataset(), uuid(random))))
                .replace("{document}", wrong ? odd(text, random)
                        : pick(random, List.of(known.document(), uuid(random))))
                .replace("{segment}", wrong ? odd(text, random) : pick(random, List.of(known.segment(), uuid(random))))
                .replace("{triggerApp}", wrong ? odd(text, random) : pick(random, List.of(
                        known.triggers().hookApp(), known.triggers().tickApp(), uuid(random))))
                .replace("{trigger}", wrong ? odd(text, random) : pick(random, List.of("hook", "github", "tick",
                        "end", uuid(random))))
                .replace("{otherTrigger}", wrong ? odd(text, random) : pick(random, List.of("github", "tick", "end",
                        uuid(random))))
                .replace("{webhookCode}", wrong ? odd(text, random) : pick(random, List.of(known.triggers().hookCode(),
                        known.triggers().hookCode(), known.triggers().pluginCode(), "x".repeat(32))))
                .replace("{upload}", wrong ? odd(text, random) : pick(random, List.of(known.uploadA(), uuid(random))))
                .replace("{docAction}", wrong ? odd(text, random) : pick(random, List.of("enable", "disable",
                        "archive", "un_archive")))
                .replace("{mcpCode}", wrong ? odd(text, random) : pick(random, List.of(mcpCode, mcpCode,
                        "0".repeat(32))))
                .replace("{garbage}", odd(text, random));
    }

    /** An id or path segment that is no id: generated text, traversal, encodings, huge, empty. */
    private static String odd(String text, Random random) {
        return switch (random.nextInt(7)) {
            case 0 -> encode(text);
            case 1 -> "..%2F..%2Fetc%2Fpasswd";
            case 2 -> "%00" + encode(text);
            case 3 -> "x".repeat(2000 + random.nextInt(4000));
            case 4 -> "%C3%28%FF";
            case 5 -> String.valueOf(random.nextLong());
            default -> encode(uuid(random) + text);
        };
    }

    private static String query(Operation operation, Stray stray, String text, Random random) {
        List<String> pairs = new ArrayList<>();
        if (operation.path().startsWith("/v2")) {
            if (random.nextBoolean()) {
                pairs.add("key=" + (random.nextBoolean() ? known.campusKey() : encode(text)));
            }
            if (random.nextInt(3) == 0) {
                pairs.add("callback=" + (random.nextBoolean() ? "cb.onData" : encode(text)));
            }
        }
        if (operation.auth() == Auth.CHAT && operation.method().equals("GET")) {
            pairs.add("user=fuzz");
            String value = stray == Stray.ODD_QUERY ? encode(text) : pick(random, List.of(known.conversation(),
                    known.message(), "20", "-updated_at", "last", uuid(random)));
            for (String name : List.of("conversation_id", "first_id", "last_id", "limit", "sort_by",
                    "variable_name", "page")) {
                if (name.equals("conversation_id") ? random.nextInt(4) != 0 : random.nextInt(3) == 0) {
                    pairs.add(name + "=" + (name.equals("conversation_id") && random.nextBoolean()
                            ? known.conversation() : random.nextBoolean() ? value : pick(random, List.of("0", "-1",
                            "101", "99999999999999999999", "created_at", "%FF", ""))));
                }
            }
        }
        if (operation.path().equals("/v1/workflows/logs") || stray == Stray.ODD_QUERY) {
            String value = stray == Stray.ODD_QUERY ? encode(text) : pick(random, List.of("1", "20", "succeeded"));
            for (String name : List.of("page", "limit", "status", "keyword", "created_at__before",
                    "created_at__after", "created_by_end_user_session_id", "user")) {
                if (random.nextInt(3) == 0) {
                    pairs.add(name + "=" + (random.nextBoolean() ? value : pick(random, List.of("0", "-1",
                            "101", "99999999999999999999", "1.5", "2026-01-01T00:00:00Z", "yesterday", "%FF",
                            "running", ""))));
                }
            }
        }
        if (stray == Stray.ODD_QUERY) {
            pairs.add(encode(text) + "=" + encode(text));
            pairs.add("user=" + "u".repeat(3000));
        }
        return pairs.isEmpty() ? "" : "?" + String.join("&", pairs);
    }

    private static byte[] body(BodyKind kind, Stray stray, String text, Random random, Map<String, String> headers) {
        if (kind == BodyKind.UPLOAD || kind == BodyKind.DOCUMENT_FILE) {
            return multipart(stray, text, random, headers);
        }
        String type = switch (kind) {
            case DSL -> "application/yaml";
            case CAMPUS_DATA -> random.nextBoolean() ? "text/csv" : "application/json";
            default -> "application/json";
        };
        headers.put("Content-Type", stray == Stray.WRONG_CONTENT_TYPE ? pick(random, List.of("text/plain",
                "application/xml", "multipart/form-data", "application/x-www-form-urlencoded", "image/png",
                "application/json; charset=ISO-8859-1", "", ";;;", "application/" + encode(text))) : type);
        if (kind == BodyKind.NONE && stray != Stray.MALFORMED && stray != Stray.OVERSIZED) {
            headers.remove("Content-Type");
            return new byte[0];
        }
        String right = rightBody(kind, headers.getOrDefault("Content-Type", ""));
        return switch (stray) {
            case DROP_FIELD, EXTRA_FIELD, WRONG_TYPE -> kind == BodyKind.DSL || right.startsWith("date")
                    ? yamlOrCsvMutation(right, text, random)
                    : jsonMutation(right, stray, text, random);
            case MALFORMED -> pick(random, List.of(text, "{" + text, "[" + text + "]", "{\"inputs\":",
                    "null", "42", "\"text\"", "[]", "{}{}", "---\n- : :\n  {", "*alias", "!!java.io.File /etc",
                    right.replace(":", random.nextBoolean() ? "=" : "::")))
                    .getBytes(StandardCharsets.UTF_8);
            case TRUNCATED -> right.substring(0, random.nextInt(Math.max(1, right.length())))
                    .getBytes(StandardCharsets.UTF_8);
            case ODD_ENCODING -> oddEncoding(right, random);
            case DEEP_NESTING -> deep(random);
            case OVERSIZED -> new byte[OVER_REQUEST_LIMIT];
            case EMPTY_BODY -> new byte[0];
            default -> right.getBytes(StandardCharsets.UTF_8);
        };
    }

    private static String rightBody(BodyKind kind, String contentType) {
        return switch (kind) {
            case RUN -> "{\"inputs\":{\"query\":\"hello\",\"tone\":\"calm\"},\"response_mode\":\"blocking\","
                    + "\"user\":\"fuzz\"}";
            case STOP -> "{\"user\":\"fuzz\"}";
            case CHAT -> "{\"query\":\"hello\",\"inputs\":{},\"response_mode\":\"blocking\",\"user\":\"fuzz\","
                    + "\"conversation_id\":\"" + known.conversation() + "\",\"auto_generate_name\":false}";
            case FEEDBACK -> "{\"rating\":\"like\",\"content\":\"fine\",\"user\":\"fuzz\"}";
            case RENAME -> "{\"name\":\"Fuzzed\",\"auto_generate\":false,\"user\":\"fuzz\"}";
            case VARIABLE -> "{\"value\":\"fuzzed\",\"user\":\"fuzz\"}";
            case DOC_STATUS -> "{\"document_ids\":[\"" + known.document() + "\"]}";
            case SPEECH -> "{\"message_id\":\"" + known.message() + "\",\"text\":\"hi\",\"user\":\"fuzz\"}";
            case DSL -> known.dsl();
            case DATASET -> "{\"name\":\"Fuzzed\",\"description\":\"d\",\"indexing_technique\":\"economy\","
                    + "\"retrieval_model\":{\"search_method\":\"keyword_search\",\"top_k\":2}}";
            case DOCUMENT_TEXT -> "{\"name\":\"b.md\",\"text\":\"Dinner is at seven.\",\"process_rule\":"
                    + "{\"mode\":\"custom\",\"rules\":{\"pre_processing_rules\":[{\"id\":\"remove_extra_spaces\","
                    + "\"enabled\":true}],\"segmentation\":{\"separator\":\"\\\\n\",\"max_tokens\":100}}}}";
            case SEGMENT -> "{\"segment\":{\"content\":\"Lunch is at one.\",\"enabled\":true}}";
            case RETRIEVE -> "{\"query\":\"lunch\",\"retrieval_model\":{\"search_method\":\"hybrid_search\","
                    + "\"top_k\":3,\"score_threshold_enabled\":true,\"score_threshold\":0.1,\"weights\":"
                    + "{\"vector_setting\":{\"vector_weight\":0.5},\"keyword_setting\":{\"keyword_weight\":0.5}}}}";
            case DOCUMENT_FILE -> "";
            case MCP_SERVER -> "{\"url\":\"http://127.0.0.1:9/mcp\",\"headers\":{\"X-Api-Key\":\"k\"}}";
            case TOOL_BINDING -> "{\"provider\":\"jina\",\"tool\":\"reader\",\"mcp\":{\"server\":\"calc\","
                    + "\"tool\":\"read\"}}";
            case MISSED_TICKS -> "{\"policy\":\"run_once\"}";
            case TRIGGER_AUTH -> "{\"kind\":\"hmac\",\"header\":\"X-Sig\",\"secret\":"
                    + "\"a-shared-secret-of-some-length\"}";
            case WEBHOOK -> "{\"item\":\"tea\",\"count\":3,\"gift\":true,\"title\":\"Crash\"}";
            case MCP_CALL -> "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"Echo\","
                    + "\"arguments\":{\"query\":\"hi\"}}}";
            case MCP_DESCRIPTION -> "{\"description\":\"Says it back\",\"parameters\":{\"query\":\"What to say\"}}";
            case ANNOTATION -> "{\"question\":\"Fuzzed?\",\"answer\":\"Fuzzed.\"}";
            case ANNOTATION_REPLY -> "{\"score_threshold\":0.99,\"embedding_provider_name\":\"openai\","
                    + "\"embedding_model_name\":\"text-embedding-3-small\"}";
            case LIMITS -> "{\"active_runs\":500,\"rate_per_key\":{\"per_minute\":600000,\"burst\":100000},"
                    + "\"budgets\":[{\"scope\":\"app\",\"period\":\"day\",\"measure\":\"tokens\",\"amount\":9000000}]}";
            case SITE -> "{\"title\":\"Echo\",\"description\":\"Says back\",\"default_language\":\"en-US\"}";
            case CAMPUS_DATA -> contentType.equals("text/csv") ? "date,holiday\n2027-01-01,New Year's Day\n"
                    : "[{\"date\":\"2027-01-01\",\"name\":\"New Year's Day\"}]";
            default -> "";
        };
    }

    private static byte[] jsonMutation(String right, Stray stray, String text, Random random) {
        try {
            Object tree = JSON.readValue(right, Object.class);
            Object target = tree instanceof List<?> records ? records.get(0) : tree;
            if (((Map<?, ?>) target).get("inputs") instanceof Map<?, ?> inputs && random.nextBoolean()) {
                target = inputs;
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> fields = (Map<String, Object>) target;
            List<String> names = new ArrayList<>(fields.keySet());
            String name = names.isEmpty() ? text : pick(random, names);
            switch (stray) {
                case DROP_FIELD -> fields.remove(name);
                case EXTRA_FIELD -> fields.put(text.isEmpty() ? "extra" : text, oddValue(text, random));
                default -> fields.put(name, oddValue(text, random));
            }
            return JSON.writeValueAsBytes(tree);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Object oddValue(String text, Random random) {
        return switch (random.nextInt(10)) {
            case 0 -> 42;
            case 1 -> -1.5e300;
            case 2 -> true;
            case 3 -> null;
            case 4 -> List.of(text, 1, Map.of());
            case 5 -> Map.of("upload_file_id", known.uploadA(), "transfer_method", "local_file", "type", "document");
            case 6 -> "q".repeat(1 + random.nextInt(200_000));
            case 7 -> new java.math.BigInteger("9".repeat(500));
            case 8 -> Map.of(text, Map.of(text, List.of()));
            default -> text;
        };
    }

    private static byte[] yamlOrCsvMutation(String right, String text, Random random) {
        List<String> lines = new ArrayList<>(List.of(right.split("\n", -1)));
        int at = random.nextInt(lines.size());
        switch (random.nextInt(4)) {
            case 0 -> lines.remove(at);
            case 1 -> lines.add(at, text);
            case 2 -> lines.set(at, lines.get(at).replaceAll("[a-z]+", text.replace("$", "")));
            default -> lines.set(at, "  ".repeat(random.nextInt(6)) + text + ": " + text);
        }
        return String.join("\n", lines).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] oddEncoding(String right, Random random) {
        return switch (random.nextInt(5)) {
            case 0 -> right.getBytes(StandardCharsets.UTF_16);
            case 1 -> concat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, right.getBytes(StandardCharsets.UTF_8));
            case 2 -> right.replace("hello", "h\u00e9llo").getBytes(StandardCharsets.ISO_8859_1);
            case 3 -> concat(right.getBytes(StandardCharsets.UTF_8), new byte[] {(byte) 0xC3, (byte) 0x28, 0});
            default -> right.replace("hello", "\\ud800 \\u0000").getBytes(StandardCharsets.UTF_8);
        };
    }

    private static byte[] deep(Random random) {
        int depth = 500 + random.nextInt(5000);
        String open = random.nextBoolean() ? "[" : "{\"a\":";
        String close = open.equals("[") ? "]" : "}";
        return (open.repeat(depth) + "1" + close.repeat(depth)).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] multipart(Stray stray, String text, Random random, Map<String, String> headers) {
        String boundary = "fuzz" + Long.toHexString(random.nextLong());
        headers.put("Content-Type", switch (stray) {
            case WRONG_CONTENT_TYPE -> pick(random, List.of("multipart/form-data", "application/json",
                    "multipart/form-data; boundary=", "multipart/mixed; boundary=" + boundary,
                    "multipart/form-data; boundary=other"));
            default -> "multipart/form-data; boundary=" + boundary;
        });
        if (stray == Stray.OVERSIZED) {
            return new byte[OVER_REQUEST_LIMIT];
        }
        String filename = switch (stray) {
            case WRONG_TYPE, EXTRA_FIELD -> pick(random, List.of(text, "../../" + text + ".txt", "a/b.txt",
                    "..", "a\\b.txt", "x".repeat(300) + ".txt", "c:\\x.txt", "\u0000.txt", "a\"b.txt"));
            case DROP_FIELD -> null;
            default -> "note.txt";
        };
        String type = stray == Stray.WRONG_TYPE ? pick(random, List.of("", "image/png", text, "text/plain"))
                : "text/plain";
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        write(out, "--" + boundary + "\r\nContent-Disposition: form-data; name=\"user\"\r\n\r\n"
                + (stray == Stray.WRONG_ID ? text : "fuzz") + "\r\n");
        write(out, "--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\""
                + (filename == null ? "" : "; filename=\"" + filename + "\"") + "\r\nContent-Type: " + type
                + "\r\n\r\n");
        write(out, stray == Stray.EMPTY_BODY ? "" : "content " + text);
        if (stray == Stray.BROKEN_MULTIPART) {
            return pick(random, List.of(out.toByteArray(),
                    ("--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\""
                            + "\r\n" + "X".repeat(random.nextInt(20_000))).getBytes(StandardCharsets.UTF_8),
                    ("--" + boundary + "\r\n\r\n\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8),
                    ("garbage before\r\n--" + boundary + "--").getBytes(StandardCharsets.UTF_8),
                    Arrays.copyOf(out.toByteArray(), random.nextInt(out.size() + 1))));
        }
        write(out, "\r\n--" + boundary + "--\r\n");
        return out.toByteArray();
    }

    private static void write(ByteArrayOutputStream out, String text) {
        out.writeBytes(text.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] both = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    private static String uuid(Random random) {
        return new UUID(random.nextLong(), random.nextLong()).toString();
    }

    private static <T> T pick(Random random, List<T> choices) {
        return choices.get(random.nextInt(choices.size()));
    }
}
