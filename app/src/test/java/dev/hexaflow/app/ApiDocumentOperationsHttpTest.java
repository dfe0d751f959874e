package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each operation of {@code /openapi.json} sent once to the real server: a valid request where one is cheap (a run
 * of a small app, a knowledge base and its document), otherwise one the server refuses (an id it does not know, a
 * body it cannot take), and the answer's status must be one the operation lists, in the error shape of its API.
 * A 404 counts only when a route gave it: the server's answer for a path no route has says so in its message.
 */
class ApiDocumentOperationsHttpTest {

    /** What the server answers for a path that no route has (JavalinHttpServer's 404). */
    private static final String NO_ROUTE = "The requested URL was not found on the server.";

    @TempDir
    static Path dataDir;
    static TestServer server;
    static JsonNode document;
    static Fixtures fixtures;

    /**
     * The ids of what the test made: an app and its run, a campus key, a knowledge base and its document, an app with
     * triggers and its plugin trigger's URL.
     */
    record Fixtures(String appId, String appKey, String workflowId, String runId, String taskId, String campusKey,
            String datasetKey, String datasetId, String documentId, String batch, String segmentId,
            String triggerAppId, String pluginPath) {
    }

    /** One request: method, concrete path with its query, body and its type, and the bearer token (or none). */
    record Call(String method, String path, String contentType, String body, String token) {
    }

    @BeforeAll
    static void start() {
        server = TestServer.start(dataDir);
        document = TestServer.json(server.get("/openapi.json"));
        fixtures = makeFixtures();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static Fixtures makeFixtures() {
        JsonNode app = server.importApp("echo.yml");
        String appKey = app.get("api_key").asText();
        JsonNode run = TestServer.json(server.send("POST", "/v1/workflows/run", "application/json",
                "{\"inputs\": {\"query\": \"hi\"}, \"response_mode\": \"blocking\", \"user\": \"ada\"}", appKey));
        String datasetKey = TestServer.json(server.admin("POST", "/admin/datasets/keys", null, null)).get("key")
                .asText();
        String datasetId = TestServer.json(server.send("POST", "/v1/datasets", "application/json",
                "{\"name\": \"Handbook\", \"indexing_technique\": \"economy\"}", datasetKey)).get("id").asText();
        JsonNode added = TestServer.json(server.send("POST", "/v1/datasets/" + datasetId
                + "/document/create-by-text", "application/json", "{\"name\": \"leave.md\", \"text\": \"Paid leave: 25"
                + " days a year.\", \"indexing_technique\": \"economy\", \"process_rule\": {\"mode\": \"automatic\"}}",
                datasetKey));
        String documentId = added.get("document").get("id").asText();
        JsonNode segments = TestServer.json(server.send("GET", "/v1/datasets/" + datasetId + "/documents/"
                + documentId + "/segments", null, null, datasetKey));
        String triggerAppId = server.importApp("webhook-trigger.yml").get("app_id").asText();
        String pluginPath = TestServer.json(server.admin("GET", "/admin/apps/" + triggerAppId + "/triggers/github",
                null, null)).get("url_path").asText();
        return new Fixtures(app.get("app_id").asText(), appKey, app.get("workflow_id").asText(),
                run.get("workflow_run_id").asText(), run.get("task_id").asText(), server.issueCampusKey(),
                datasetKey, datasetId, documentId, added.get("batch").asText(),
                segments.get("data").get(0).get("id").asText(), triggerAppId, pluginPath);
    }

    @Test
    void eachOperationAnswersAStatusItDocuments() {
        Map<String, Call> calls = calls(fixtures);
        List<String> wrong = new ArrayList<>();
        Set<String> operations = ApiDocumentTest.operations(document);
        for (String operation : operations) {
            Call call = calls.get(operation);
            if (call == null) {
                wrong.add(operation + ": no request for it in ApiDocumentOperationsHttpTest.calls");
                continue;
            }
            HttpResponse<String> answer = server.send(call.method(), call.path(), call.contentType(), call.body(),
                    call.token());
            problem(operation, call, answer).ifPresent(wrong::add);
        }
        Set<String> unused = new TreeSet<>(calls.keySet());
        unused.removeAll(operations);

        assertThat(wrong).as("operations whose answer their responses do not list").isEmpty();
        assertThat(unused).as("requests in ApiDocumentOperationsHttpTest.calls for no operation").isEmpty();
    }

    /** What is wrong with an answer to an operation's request, if anything. */
    private static java.util.Optional<String> problem(String operation, Call call, HttpResponse<String> answer) {
        int status = answer.statusCode();
        String said = operation + " (sent " + call.method() + " " + call.path() + ") answered " + status + " "
                + abbreviated(answer.body());
        JsonNode responses = operationNode(operation).path("responses");
        if (!responses.has(String.valueOf(status))) {
            return java.util.Optional.of(said + ": not among its documented " + fieldNames(responses));
        }
        if (status == 404 && answer.body().contains(NO_ROUTE)) {
            return java.util.Optional.of(said + ": no route answered it");
        }
        // An answer to HEAD has no body, and so no shape.
        if (status >= 400 && !call.method().equals("HEAD") && !inErrorShape(call.path(), answer.body())) {
            return java.util.Optional.of(said + ": not in its API's error shape");
        }
        return java.util.Optional.empty();
    }

    /**
     * /v2 answers in the feed's envelope, a webhook trigger in Dify's {error, message}; every other API in
     * {code, message, status}.
     */
    private static boolean inErrorShape(String path, String body) {
        JsonNode json;
        try {
            json = TestServer.json(body);
        } catch (AssertionError notJson) {
            return false;
        }
        if (path.startsWith("/v2")) {
            return json.path("meta").path("status").isInt() && json.path("data").isArray();
        }
        if (path.startsWith("/triggers/")) {
            return json.path("error").isTextual() && json.path("message").isTextual();
        }
        if (path.startsWith("/mcp/")) {
            return json.path("jsonrpc").isTextual() && json.path("error").path("message").isTextual();
        }
        return json.path("code").isTextual() && json.path("message").isTextual() && json.path("status").isInt();
    }

    private static JsonNode operationNode(String operation) {
        int space = operation.indexOf(' ');
        return document.get("paths").get(operation.substring(space + 1))
                .get(operation.substring(0, space).toLowerCase(Locale.ROOT));
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static String abbreviated(String body) {
        return body.length() <= 200 ? body : body.substring(0, 200) + "…";
    }

    /** A request for each operation, by its method and path template. */
    static Map<String, Call> calls(Fixtures f) {
        Map<String, Call> calls = new LinkedHashMap<>();
        probesAndFiles(calls, f);
        workflow(calls, f);
        chat(calls, f);
        knowledge(calls, f);
        knowledgeChunksAndMetadata(calls, f);
        campus(calls, f);
        adminApps(calls, f);
        adminOthers(calls, f);
        adminRuns(calls, f);
        triggers(calls, f);
        mcpServers(calls, f);
        limits(calls, f);
        return calls;
    }

    private static void probesAndFiles(Map<String, Call> calls, Fixtures f) {
        calls.put("GET /health", new Call("GET", "/health", null, null, null));
        calls.put("GET /readyz", new Call("GET", "/readyz", null, null, null));
        calls.put("POST /v1/files/upload", multipart("/v1/files/upload", "file", "note.txt", "hello", f.appKey()));
        calls.put("GET /files/{id}/file-preview", new Call("GET", "/files/nope/file-preview?timestamp=1&nonce=n"
                + "&sign=s", null, null, null));
        calls.put("GET /files/tools/{file}", new Call("GET", "/files/tools/nope.png?timestamp=1&nonce=n&sign=s",
                null, null, null));
        calls.put("GET /v1/files/{file_id}/preview", get("/v1/files/nope/preview?as_attachment=true", f.appKey()));
        calls.put("GET /v1/end-users/{end_user_id}", get("/v1/end-users/nope", f.appKey()));
    }

    private static void workflow(Map<String, Call> calls, Fixtures f) {
        String run = "{\"inputs\": {\"query\": \"hi\"}, \"response_mode\": \"blocking\", \"user\": \"ada\"}";
        calls.put("POST /v1/workflows/run", json("POST", "/v1/workflows/run", run, f.appKey()));
        calls.put("POST /v1/workflows/{workflow_id}/run", json("POST", "/v1/workflows/" + f.workflowId() + "/run",
                run, f.appKey()));
        calls.put("GET /v1/workflows/run/{workflow_run_id}", get("/v1/workflows/run/" + f.runId(), f.appKey()));
        calls.put("GET /v1/workflows/run/{workflow_run_id}/events", get("/v1/workflows/run/" + f.runId()
                + "/events?after=0", f.appKey()));
        calls.put("GET /v1/workflows/run/{workflow_run_id}/node-executions", get("/v1/workflows/run/" + f.runId()
                + "/node-executions?page=1&limit=5", f.appKey()));
        calls.put("POST /v1/workflows/tasks/{task_id}/stop", json("POST", "/v1/workflows/tasks/" + f.taskId()
                + "/stop", "{\"user\": \"ada\"}", f.appKey()));
        calls.put("GET /v1/workflows/logs", get("/v1/workflows/logs?keyword=hi&limit=1", f.appKey()));
        calls.put("GET /v1/form/human_input/{form_token}", get("/v1/form/human_input/nope", f.appKey()));
        calls.put("POST /v1/form/human_input/{form_token}", json("POST", "/v1/form/human_input/nope",
                "{\"action\": \"approve\", \"inputs\": {}, \"user\": \"ada\"}", f.appKey()));
        calls.put("GET /api/form/human_input/{form_token}", get("/api/form/human_input/nope", null));
        calls.put("POST /api/form/human_input/{form_token}", json("POST", "/api/form/human_input/nope",
                "{\"action\": \"approve\", \"inputs\": {}}", null));
        calls.put("GET /v1/workflow/{workflow_run_id}/events", get("/v1/workflow/" + f.runId() + "/events?user=ada",
                f.appKey()));
        calls.put("GET /v1/workflows/paused", get("/v1/workflows/paused?limit=5", f.appKey()));
        calls.put("GET /v1/", get("/v1/", null));
        calls.put("GET /v1/info", get("/v1/info", f.appKey()));
        calls.put("GET /v1/parameters", get("/v1/parameters", f.appKey()));
        calls.put("GET /v1/site", get("/v1/site", f.appKey()));
        calls.put("GET /v1/meta", get("/v1/meta", f.appKey()));
    }

    /** The app is a workflow, so the chat operations refuse it (Dify's not_chat_app) or know no such id. */
    private static void chat(Map<String, Call> calls, Fixtures f) {
        String key = f.appKey();
        calls.put("POST /v1/chat-messages", json("POST", "/v1/chat-messages", "{\"query\": \"hi\", \"inputs\": {},"
                + " \"user\": \"ada\"}", key));
        calls.put("POST /v1/chat-messages/{task_id}/stop", json("POST", "/v1/chat-messages/nope/stop",
                "{\"user\": \"ada\"}", key));
        calls.put("POST /v1/text-to-audio", json("POST", "/v1/text-to-audio", "{\"text\": \"hi\", \"user\":"
                + " \"ada\"}", key));
        calls.put("POST /v1/audio-to-text", multipart("/v1/audio-to-text", "user", null, "ada", key));
        calls.put("GET /v1/messages", get("/v1/messages?user=ada&conversation_id=nope", key));
        calls.put("POST /v1/messages/{message_id}/feedbacks", json("POST", "/v1/messages/nope/feedbacks",
                "{\"rating\": \"like\", \"user\": \"ada\"}", key));
        calls.put("GET /v1/messages/{message_id}/suggested", get("/v1/messages/nope/suggested?user=ada", key));
        calls.put("GET /v1/app/feedbacks", get("/v1/app/feedbacks?page=1&limit=5", key));
        calls.put("GET /v1/conversations", get("/v1/conversations?user=ada&limit=5", key));
        calls.put("DELETE /v1/conversations/{conversation_id}", json("DELETE", "/v1/conversations/nope",
                "{\"user\": \"ada\"}", key));
        calls.put("POST /v1/conversations/{conversation_id}/name", json("POST", "/v1/conversations/nope/name",
                "{\"name\": \"x\", \"user\": \"ada\"}", key));
        calls.put("GET /v1/conversations/{conversation_id}/variables", get("/v1/conversations/nope/variables"
                + "?user=ada", key));
        calls.put("PUT /v1/conversations/{conversation_id}/variables/{variable_id}", json("PUT",
                "/v1/conversations/nope/variables/nope", "{\"value\": 1, \"user\": \"ada\"}", key));
        calls.put("PATCH /v1/conversations/{conversation_id}/variables/{variable_id}", json("PATCH",
                "/v1/conversations/nope/variables/nope", "{\"value\": 1, \"user\": \"ada\"}", key));
        calls.put("POST /v1/completion-messages", json("POST", "/v1/completion-messages", "{\"inputs\": {},"
                + " \"user\": \"ada\"}", key));
        calls.put("POST /v1/completion-messages/{task_id}/stop", json("POST", "/v1/completion-messages/nope/stop",
                "{\"user\": \"ada\"}", key));
        String reply = "{\"score_threshold\": 0.9, \"embedding_provider_name\": \"openai\", "
                + "\"embedding_model_name\": \"text-embedding-3-small\"}";
        calls.put("POST /v1/apps/annotation-reply/{action}", json("POST", "/v1/apps/annotation-reply/enable",
                reply, key));
        calls.put("GET /v1/apps/annotation-reply/{action}/status/{job_id}", get("/v1/apps/annotation-reply/enable"
                + "/status/" + java.util.UUID.randomUUID(), key));
        calls.put("GET /v1/apps/annotations", get("/v1/apps/annotations?page=1&limit=5", key));
        calls.put("POST /v1/apps/annotations", json("POST", "/v1/apps/annotations", "{\"question\": \"q\", "
                + "\"answer\": \"a\"}", key));
        calls.put("PUT /v1/apps/annotations/{annotation_id}", json("PUT", "/v1/apps/annotations/nope",
                "{\"question\": \"q\", \"answer\": \"a\"}", key));
        calls.put("DELETE /v1/apps/annotations/{annotation_id}", json("DELETE", "/v1/apps/annotations/nope", null,
                key));
        calls.put("GET /v1/budgets", get("/v1/budgets?user=ada", key));
    }

    private static void knowledge(Map<String, Call> calls, Fixtures f) {
        String key = f.datasetKey();
        String base = "/v1/datasets/" + f.datasetId();
        String doc = base + "/documents/" + f.documentId();
        String text = "{\"name\": \"more.md\", \"text\": \"More text.\", \"indexing_technique\": \"economy\","
                + " \"process_rule\": {\"mode\": \"automatic\"}}";
        calls.put("GET /v1/datasets", get("/v1/datasets?page=1&limit=5", key));
        calls.put("POST /v1/datasets", json("POST", "/v1/datasets", "{}", key));
        calls.put("GET /v1/datasets/{id}", get(base, key));
        calls.put("PATCH /v1/datasets/{id}", json("PATCH", base, "{\"description\": \"Rules\"}", key));
        calls.put("DELETE /v1/datasets/{id}", json("DELETE", "/v1/datasets/nope", null, key));
        calls.put("POST /v1/datasets/{id}/document/create-by-text", json("POST", base
                + "/document/create-by-text", text, key));
        calls.put("POST /v1/datasets/{id}/document/create_by_text", json("POST", base
                + "/document/create_by_text", "{}", key));
        calls.put("POST /v1/datasets/{id}/document/create-by-file", multipart(base + "/document/create-by-file",
                "file", "note.txt", "Some text.", key));
        calls.put("POST /v1/datasets/{id}/document/create_by_file", multipart(base + "/document/create_by_file",
                "data", null, "{}", key));
        calls.put("GET /v1/datasets/{id}/documents", get(base + "/documents?limit=5", key));
        calls.put("GET /v1/datasets/{id}/documents/{batch}/indexing-status", get(base + "/documents/" + f.batch()
                + "/indexing-status", key));
        calls.put("GET /v1/datasets/{id}/documents/{doc}", get(doc, key));
        calls.put("DELETE /v1/datasets/{id}/documents/{doc}", json("DELETE", base + "/documents/nope", null, key));
        calls.put("POST /v1/datasets/{id}/documents/{doc}/update-by-text", json("POST", doc + "/update-by-text",
                "{\"text\": 5}", key));
        calls.put("POST /v1/datasets/{id}/documents/{doc}/update_by_text", json("POST", base
                + "/documents/nope/update_by_text", "{\"text\": \"x\"}", key));
        calls.put("POST /v1/datasets/{id}/documents/{doc}/update-by-file", multipart(doc + "/update-by-file",
                "data", null, "{}", key));
        calls.put("POST /v1/datasets/{id}/documents/{doc}/update_by_file", multipart(base
                + "/documents/nope/update_by_file", "file", "note.txt", "x", key));
        calls.put("POST /v1/datasets/{id}/retrieve", json("POST", base + "/retrieve", "{\"query\": \"leave\"}",
                key));
        calls.put("POST /v1/datasets/{id}/hit-testing", json("POST", base + "/hit-testing", "{}", key));
    }

    private static void knowledgeChunksAndMetadata(Map<String, Call> calls, Fixtures f) {
        String key = f.datasetKey();
        String base = "/v1/datasets/" + f.datasetId();
        String segments = base + "/documents/" + f.documentId() + "/segments";
        String segment = segments + "/" + f.segmentId();
        calls.put("GET /v1/datasets/{id}/documents/{doc}/segments", get(segments + "?limit=5", key));
        calls.put("POST /v1/datasets/{id}/documents/{doc}/segments", json("POST", segments, "{}", key));
        calls.put("GET /v1/datasets/{id}/documents/{doc}/segments/{segment}", get(segment, key));
        calls.put("POST /v1/datasets/{id}/documents/{doc}/segments/{segment}", json("POST", segment, "{}", key));
        calls.put("DELETE /v1/datasets/{id}/documents/{doc}/segments/{segment}", json("DELETE", segments + "/nope",
                null, key));
        calls.put("GET /v1/datasets/{id}/documents/{doc}/segments/{segment}/child_chunks", get(segment
                + "/child_chunks", key));
        calls.put("POST /v1/datasets/{id}/documents/{doc}/segments/{segment}/child_chunks", json("POST", segment
                + "/child_chunks", "{}", key));
        calls.put("PATCH /v1/datasets/{id}/documents/{doc}/segments/{segment}/child_chunks/{child}", json("PATCH",
                segment + "/child_chunks/nope", "{\"content\": \"x\"}", key));
        calls.put("DELETE /v1/datasets/{id}/documents/{doc}/segments/{segment}/child_chunks/{child}", json(
                "DELETE", segment + "/child_chunks/nope", null, key));
        calls.put("GET /v1/datasets/{id}/metadata", get(base + "/metadata", key));
        calls.put("POST /v1/datasets/{id}/metadata", json("POST", base + "/metadata", "{\"type\": \"string\","
                + " \"name\": \"author\"}", key));
        calls.put("GET /v1/datasets/{id}/metadata/built-in", get(base + "/metadata/built-in", key));
        calls.put("POST /v1/datasets/{id}/metadata/built-in/{action}", json("POST", base
                + "/metadata/built-in/enable", null, key));
        calls.put("PATCH /v1/datasets/{id}/metadata/{metadata}", json("PATCH", base + "/metadata/nope",
                "{\"name\": \"x\"}", key));
        calls.put("DELETE /v1/datasets/{id}/metadata/{metadata}", json("DELETE", base + "/metadata/nope", null,
                key));
        calls.put("POST /v1/datasets/{id}/documents/metadata", json("POST", base + "/documents/metadata", "{}",
                key));
        calls.put("GET /v1/datasets/tags", get("/v1/datasets/tags", key));
        calls.put("POST /v1/datasets/tags", json("POST", "/v1/datasets/tags", "{\"name\": \"hr\"}", key));
        calls.put("PATCH /v1/datasets/tags", json("PATCH", "/v1/datasets/tags", "{\"tag_id\": \"nope\", \"name\":"
                + " \"x\"}", key));
        calls.put("DELETE /v1/datasets/tags", json("DELETE", "/v1/datasets/tags", "{\"tag_id\": \"nope\"}", key));
        calls.put("POST /v1/datasets/tags/binding", json("POST", "/v1/datasets/tags/binding", "{}", key));
        calls.put("POST /v1/datasets/tags/unbinding", json("POST", "/v1/datasets/tags/unbinding", "{}", key));
        calls.put("GET /v1/datasets/{id}/tags", get(base + "/tags", key));
        calls.put("PATCH /v1/datasets/{id}/documents/status/{action}", json("PATCH", base + "/documents/status/"
                + "un_archive", "{\"document_ids\": [\"" + f.documentId() + "\"]}", key));
    }

    private static void campus(Map<String, Call> calls, Fixtures f) {
        calls.put("GET /v2/{service}/{file}", get("/v2/resources/tutors.json?key=" + f.campusKey(), null));
    }

    private static void adminApps(Map<String, Call> calls, Fixtures f) {
        String token = TestServer.ADMIN_TOKEN;
        String app = "/admin/apps/" + f.appId();
        calls.put("POST /admin/apps", new Call("POST", "/admin/apps", "application/yaml", "app: {}", token));
        calls.put("GET /admin/apps", get("/admin/apps", token));
        calls.put("PUT /admin/apps/{app_id}", json("PUT", app, "{\"callback_url\": null}", token));
        calls.put("GET /admin/apps/{app_id}/dsl", get(app + "/dsl", token));
        calls.put("POST /admin/apps/{app_id}/keys", json("POST", app + "/keys", null, token));
        calls.put("DELETE /admin/apps/{app_id}/keys/{key}", json("DELETE", app + "/keys/app-nope", null, token));
        calls.put("PUT /admin/apps/{app_id}/site", json("PUT", app + "/site", "{\"title\": \"Echo\"}", token));
        calls.put("GET /admin/apps/{app_id}/deliveries", get(app + "/deliveries?limit=1", token));
        calls.put("POST /admin/apps/{app_id}/webhook-secret", json("POST", app + "/webhook-secret", null, token));
        calls.put("POST /admin/campus/keys", json("POST", "/admin/campus/keys", null, token));
        calls.put("POST /admin/campus/keys/{key}/ban", json("POST", "/admin/campus/keys/nope/ban", null, token));
        calls.put("PUT /admin/campus/{dataSet}", new Call("PUT", "/admin/campus/holidays", "text/csv",
                "date,holiday\n2027-02-30,Family Day\n", token));
        calls.put("GET /admin/backup", get("/admin/backup", token));
        calls.put("GET /admin/apps/{app_id}/budgets", get("/admin/apps/" + f.appId() + "/budgets?user=ada", token));
    }

    private static void adminRuns(Map<String, Call> calls, Fixtures f) {
        String token = TestServer.ADMIN_TOKEN;
        String app = "/admin/apps/" + f.appId();
        calls.put("GET /admin/apps/{app_id}/keys", get(app + "/keys", token));
        calls.put("POST /admin/apps/{app_id}/deliveries/{delivery_id}/redeliver", json("POST", app
                + "/deliveries/nope/redeliver", null, token));
        calls.put("GET /admin/apps/{app_id}/conversations", get(app + "/conversations", token));
        calls.put("GET /admin/apps/{app_id}/conversations/{conversation_id}/messages", get(app
                + "/conversations/nope/messages", token));
        calls.put("GET /admin/instances", get("/admin/instances", token));
        calls.put("GET /admin/runs", get("/admin/runs?limit=5&status=succeeded", token));
        calls.put("GET /admin/runs/{run_id}", get("/admin/runs/" + f.runId(), token));
        calls.put("GET /admin/forms", get("/admin/forms?limit=5", token));
        calls.put("POST /admin/runs/{run_id}/stop", json("POST", "/admin/runs/" + f.runId() + "/stop", null, token));
        calls.put("POST /admin/runs/{run_id}/rerun", json("POST", "/admin/runs/" + f.runId() + "/rerun",
                "{\"version\": \"same\"}", token));
    }

    private static void adminOthers(Map<String, Call> calls, Fixtures f) {
        String token = TestServer.ADMIN_TOKEN;
        calls.put("GET /admin/tools", get("/admin/tools", token));
        calls.put("PUT /admin/tools/servers/{name}", json("PUT", "/admin/tools/servers/local", "{}", token));
        calls.put("DELETE /admin/tools/servers/{name}", json("DELETE", "/admin/tools/servers/nope", null, token));
        calls.put("PUT /admin/tools/bindings", json("PUT", "/admin/tools/bindings", "{}", token));
        calls.put("DELETE /admin/tools/bindings", json("DELETE", "/admin/tools/bindings?provider=p&tool=t", null,
                token));
        calls.put("GET /admin/knowledge/bases", get("/admin/knowledge/bases", token));
        calls.put("POST /admin/knowledge/bases", json("POST", "/admin/knowledge/bases", "{\"name\": \"Policies\","
                + " \"indexing_technique\": \"economy\"}", token));
        calls.put("POST /admin/knowledge/bases/{id}/documents", json("POST", "/admin/knowledge/bases/"
                + f.datasetId() + "/documents", "{\"name\": \"a.md\", \"text\": \"Some text.\"}", token));
        calls.put("GET /admin/knowledge/bases/{id}/documents", get("/admin/knowledge/bases/" + f.datasetId()
                + "/documents", token));
        calls.put("POST /admin/knowledge/bases/{id}/retrieve", json("POST", "/admin/knowledge/bases/"
                + f.datasetId() + "/retrieve", "{\"query\": \"text\"}", token));
        calls.put("POST /admin/knowledge/bases/{id}/aliases", json("POST", "/admin/knowledge/bases/"
                + f.datasetId() + "/aliases", "{\"dataset_id\": \"dify-dataset-1\"}", token));
        calls.put("DELETE /admin/knowledge/aliases/{dataset_id}", json("DELETE", "/admin/knowledge/aliases/nope",
                null, token));
        calls.put("POST /admin/datasets/keys", json("POST", "/admin/datasets/keys", null, token));
        calls.put("DELETE /admin/datasets/keys/{key}", json("DELETE", "/admin/datasets/keys/dataset-nope", null,
                token));
    }

    /**
     * Sent in the document's order (by method, then path): the plugin trigger is switched off, then on again, before
     * an event is sent to its URL; the webhook gets a new URL and a secret, and is called at an unknown one.
     */
    private static void triggers(Map<String, Call> calls, Fixtures f) {
        String token = TestServer.ADMIN_TOKEN;
        String app = "/admin/apps/" + f.triggerAppId() + "/triggers";
        calls.put("GET /admin/apps/{app_id}/triggers", get(app, token));
        calls.put("GET /admin/apps/{app_id}/triggers/{node_id}", get(app + "/hook", token));
        calls.put("POST /admin/apps/{app_id}/triggers/{node_id}/disable", json("POST", app + "/github/disable", null,
                token));
        calls.put("POST /admin/apps/{app_id}/triggers/{node_id}/enable", json("POST", app + "/github/enable", null,
                token));
        calls.put("PUT /admin/apps/{app_id}/triggers/{node_id}/missed-ticks", json("PUT", app + "/hook/missed-ticks",
                "{\"policy\": \"run_once\"}", token));
        calls.put("PUT /admin/apps/{app_id}/triggers/{node_id}/auth", json("PUT", app + "/hook/auth", "{\"kind\": "
                + "\"header\", \"header\": \"X-Token\", \"secret\": \"a-shared-secret-of-some-length\"}", token));
        calls.put("POST /admin/apps/{app_id}/triggers/{node_id}/new-url", json("POST", app + "/hook/new-url", null,
                token));
        calls.put("POST /triggers/webhook/{code}", json("POST", f.pluginPath(), "{\"title\": \"Crash\"}", null));
        for (String method : List.of("GET", "PUT", "PATCH", "DELETE", "HEAD")) {
            calls.put(method + " /triggers/webhook/{code}", json(method, "/triggers/webhook/nope", null, null));
        }
    }

    /**
     * The echo app's MCP server, in the document's order: switched off (it has none yet), then on, given a new URL;
     * its door is called at an unknown code.
     */
    private static void mcpServers(Map<String, Call> calls, Fixtures f) {
        String token = TestServer.ADMIN_TOKEN;
        String app = "/admin/apps/" + f.appId() + "/mcp-server";
        calls.put("GET /admin/apps/{app_id}/mcp-server", get(app, token));
        calls.put("PUT /admin/apps/{app_id}/mcp-server", json("PUT", app, "{\"description\": \"Says it back\", "
                + "\"parameters\": {\"query\": \"What to say\"}}", token));
        calls.put("POST /admin/apps/{app_id}/mcp-server/disable", json("POST", app + "/disable", null, token));
        calls.put("POST /admin/apps/{app_id}/mcp-server/enable", json("POST", app + "/enable", null, token));
        calls.put("POST /admin/apps/{app_id}/mcp-server/new-url", json("POST", app + "/new-url", null, token));
        String unknown = "/mcp/server/" + "0".repeat(32) + "/mcp";
        calls.put("POST /mcp/server/{server_code}/mcp", json("POST", unknown, "{\"jsonrpc\": \"2.0\", \"id\": 1, "
                + "\"method\": \"ping\"}", null));
        calls.put("GET /mcp/server/{server_code}/mcp", get(unknown, null));
        calls.put("DELETE /mcp/server/{server_code}/mcp", json("DELETE", unknown, null, null));
    }

    /** The echo app's limits: shown (the defaults), set, and reset. */
    private static void limits(Map<String, Call> calls, Fixtures f) {
        String token = TestServer.ADMIN_TOKEN;
        String app = "/admin/apps/" + f.appId() + "/limits";
        calls.put("GET /admin/apps/{app_id}/limits", get(app, token));
        calls.put("PUT /admin/apps/{app_id}/limits", json("PUT", app, "{\"active_runs\": 50, \"rate_per_key\": "
                + "{\"per_minute\": 6000, \"burst\": 100}}", token));
        calls.put("DELETE /admin/apps/{app_id}/limits", json("DELETE", app, null, token));
    }

    private static Call get(String path, String token) {
        return new Call("GET", path, null, null, token);
    }

    private static Call json(String method, String path, String body, String token) {
        return new Call(method, path, body == null ? null : "application/json", body, token);
    }

    /** A multipart body of one part: a file when {@code filename} is given, else a field. */
    private static Call multipart(String path, String name, String filename, String content, String token) {
        String boundary = "----operations";
        String disposition = "Content-Disposition: form-data; name=\"" + name + "\""
                + (filename == null ? "" : "; filename=\"" + filename + "\"\r\nContent-Type: text/plain");
        String body = "--" + boundary + "\r\n" + disposition + "\r\n\r\n" + content + "\r\n--" + boundary + "--\r\n";
        return new Call("POST", path, "multipart/form-data; boundary=" + boundary, body, token);
    }
}
