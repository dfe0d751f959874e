package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static dev.hexaflow.app.api.ServiceApi.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.app.api.ServiceApi.Part;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.app.config.ServiceSettings;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every /v1 operation, code and response mode on a real server, with Dify's wire shapes. */
class WorkflowApiHttpTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dataDir;
    static TestServer server;
    static ServiceApi echo;
    static ServiceApi reader;
    static ServiceApi slow;
    static String echoWorkflowId;

    @BeforeAll
    static void start() {
        server = TestServer.start(TestServer.config(dataDir).withService(ServiceSettings.DEFAULTS
                .withPingInterval(Duration.ofMillis(300))));
        JsonNode imported = server.importApp("echo.yml");
        echo = server.api(imported.get("api_key").asText());
        echoWorkflowId = imported.get("workflow_id").asText();
        reader = server.api(server.importApp("reader.yml").get("api_key").asText());
        slow = server.api(server.importApp("slow.yml").get("api_key").asText());
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    // ---- runs

    @Test
    void aBlockingRunAnswersTheCompletionResponse() {
        HttpResponse<String> response = echo.postJson("/v1/workflows/run",
                run(Map.of("query", "hello"), "blocking", "ada"));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/json");
        JsonNode body = json(response);
        assertThat(fieldNames(body)).containsExactly("task_id", "workflow_run_id", "data");
        JsonNode data = body.get("data");
        assertThat(data.get("id").asText()).isEqualTo(body.get("workflow_run_id").asText());
        assertThat(data.get("workflow_id").asText()).isEqualTo(echoWorkflowId);
        assertThat(data.get("status").asText()).isEqualTo("succeeded");
        assertThat(data.get("outputs").get("answer").asText()).isEqualTo("You said: hello (calm)");
        assertThat(data.get("total_steps").asInt()).isEqualTo(3);
        assertThat(data.get("created_at").isIntegralNumber()).isTrue();
        assertThat(data.get("finished_at").isIntegralNumber()).isTrue();
        assertThat(data.get("elapsed_time").isFloatingPointNumber()).isTrue();
    }

    @Test
    void aResponseModeOtherThanStreamingIsBlocking() {
        HttpResponse<String> response = echo.postJson("/v1/workflows/run",
                Map.of("inputs", Map.of("query", "hi"), "user", "ada"));

        assertThat(json(response).get("data").get("status").asText()).isEqualTo("succeeded");
    }

    @Test
    void aStreamingRunSendsDataFramesFromStartedToFinished() throws IOException {
        HttpResponse<InputStream> response = echo.postStreaming("/v1/workflows/run",
                run(Map.of("query", "stream me"), "streaming", "ada"));
        String body = new String(response.body().readAllBytes(), StandardCharsets.UTF_8);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/event-stream");
        assertThat(body).endsWith("\n\n");
        List<JsonNode> events = new ArrayList<>();
        for (String frame : body.split("\n\n")) {
            assertThat(frame).as("each frame is one data line").startsWith("data: ").doesNotContain("\n");
            events.add(JSON.readTree(frame.substring("data: ".length())));
        }
        // As Dify's response coordinator: the end's outputs stream as soon as the template gives its text, before
        // the template's node_finished and before the end node starts.
        assertThat(events).extracting(e -> e.get("event").asText()).containsExactly("workflow_started",
                "node_started", "node_finished", "node_started", "text_chunk", "text_chunk", "text_chunk",
                "node_finished", "node_started", "node_finished", "workflow_finished");
        String runId = events.get(0).get("workflow_run_id").asText();
        String taskId = events.get(0).get("task_id").asText();
        assertThat(events).allSatisfy(e -> {
            assertThat(e.get("workflow_run_id").asText()).isEqualTo(runId);
            assertThat(e.get("task_id").asText()).isEqualTo(taskId);
        });
        JsonNode started = events.get(0).get("data");
        assertThat(started.get("inputs").get("sys.user_id").asText()).isEqualTo("ada");
        assertThat(started.get("sequence_number").asInt()).isEqualTo(1);
        JsonNode chunk = events.get(4).get("data");
        assertThat(chunk.get("text").asText()).isEqualTo("You said: stream me (calm)");
        assertThat(chunk.get("from_variable_selector")).hasSize(2);
        JsonNode finished = events.get(events.size() - 1).get("data");
        assertThat(finished.get("status").asText()).isEqualTo("succeeded");
        JsonNode node = events.get(2).get("data");
        assertThat(fieldNames(node)).contains("id", "node_id", "node_type", "title", "index", "predecessor_node_id",
                "inputs", "process_data", "outputs", "status", "error", "elapsed_time", "execution_metadata",
                "created_at");
        assertThat(fieldNames(node.get("execution_metadata"))).contains("total_tokens", "total_price", "currency");
    }

    @Test
    void aQuietStreamIsKeptAliveWithPingEventsThatHaveNoDataLine() throws IOException {
        HttpResponse<InputStream> response = slow.postStreaming("/v1/workflows/run",
                run(Map.of("millis", 1000), "streaming", "ada"));
        String body = new String(response.body().readAllBytes(), StandardCharsets.UTF_8);

        assertThat(body).contains("\n\nevent: ping\n\n");
        assertThat(body.split("\n\n")).filteredOn(frame -> !frame.startsWith("data: "))
                .containsOnly("event: ping");
        assertThat(body).contains("\"event\":\"workflow_finished\"");
    }

    @Test
    void aGivenPublishedVersionRunsAndAnUnknownOneIs404() {
        HttpResponse<String> given = echo.postJson("/v1/workflows/" + echoWorkflowId + "/run",
                run(Map.of("query", "v"), "blocking", "ada"));
        HttpResponse<String> unknown = echo.postJson("/v1/workflows/00000000-0000-0000-0000-000000000000/run",
                run(Map.of("query", "v"), "blocking", "ada"));

        assertThat(json(given).get("data").get("workflow_id").asText()).isEqualTo(echoWorkflowId);
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(json(unknown).get("code").asText()).isEqualTo("not_found");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{\"inputs\": {\"query\": \"x\"}, \"response_mode\": \"blocking\"}|Arg user must be provided.",
            "{\"inputs\": {\"query\": \"x\"}, \"response_mode\": \"streaming\", \"user\": \"\"}|Arg user must be provided.",
            "{\"inputs\": {}, \"response_mode\": \"streaming\", \"user\": \"u\"}|query is required in input form",
            "{\"inputs\": {\"query\": 5}, \"user\": \"u\"}|(type 'text-input') query in input form must be a string",
            "{\"inputs\": {\"query\": \"x\", \"tone\": \"angry\"}, \"user\": \"u\"}|tone in input form must be one of the following: ['calm', 'loud']",
            "{\"inputs\": {\"query\": \"012345678901234567890123456789012345678901234567890\"}, \"user\": \"u\"}|query in input form must be less than 50 characters",
            "{\"user\": \"u\"}|Missing required parameter in the JSON body: inputs",
            "{\"inputs\": [1], \"user\": \"u\"}|inputs must be an object",
            "{\"inputs\": {\"query\": \"x\"}, \"user\": \"u\", \"files\": 3}|files must be a list",
            "[1, 2]|Invalid JSON payload received or JSON payload is empty.",
            "{\"inputs\": |Invalid JSON payload received or JSON payload is empty.",
            "|Invalid JSON payload received or JSON payload is empty."})
    void aBadRunRequestIs400InvalidParamWithDifysMessageAndStartsNothing(String body, String message) {
        long runsBefore = total(echo);

        HttpResponse<String> response = echo.postRaw("/v1/workflows/run", "application/json",
                (body == null ? "" : body).getBytes(StandardCharsets.UTF_8));

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/json");
        JsonNode error = json(response);
        assertThat(fieldNames(error)).containsExactly("code", "message", "status");
        assertThat(error.get("code").asText()).isEqualTo("invalid_param");
        assertThat(error.get("message").asText()).isEqualTo(message);
        assertThat(error.get("status").asInt()).isEqualTo(400);
        assertThat(total(echo)).isEqualTo(runsBefore);
    }

    @Test
    void aWrongContentTypeIs415AndABodyOverTheLimitIs413() {
        HttpResponse<String> text = echo.postRaw("/v1/workflows/run", "text/plain", "{}".getBytes());
        HttpResponse<String> huge = echo.postRaw("/v1/workflows/run", "application/json",
                ("{\"inputs\": {\"query\": \"" + "x".repeat(17 * 1024 * 1024) + "\"}}").getBytes());

        assertThat(text.statusCode()).isEqualTo(415);
        assertThat(json(text).get("code").asText()).isEqualTo("unsupported_media_type");
        assertThat(huge.statusCode()).isEqualTo(413);
        assertThat(json(huge).get("code").asText()).isEqualTo("request_entity_too_large");
    }

    @Test
    void aClientThatLeavesMidStreamNeitherStopsNorLosesTheRun() throws Exception {
        HttpResponse<InputStream> response = slow.postStreaming("/v1/workflows/run",
                run(Map.of("millis", 800), "streaming", "leaver"));
        BufferedReader lines = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8));
        String runId = JSON.readTree(lines.readLine().substring(6)).get("workflow_run_id").asText();
        response.body().close();

        JsonNode detail = awaitFinished(slow, runId);

        assertThat(detail.get("status").asText()).isEqualTo("succeeded");
        assertThat(detail.get("outputs").get("done").asBoolean()).isTrue();
    }

    @Test
    void aStopEndsAStreamingRunWithinASecondAndTheRunIsKeptStopped() throws Exception {
        HttpResponse<InputStream> response = slow.postStreaming("/v1/workflows/run",
                run(Map.of("millis", 20000), "streaming", "ada"));
        BufferedReader lines = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8));
        JsonNode first = JSON.readTree(lines.readLine().substring(6));
        String taskId = first.get("task_id").asText();
        Thread.sleep(200);

        long asked = System.nanoTime();
        HttpResponse<String> stop = slow.postJson("/v1/workflows/tasks/" + taskId + "/stop", Map.of("user", "ada"));
        String rest = readAll(lines);
        double seconds = (System.nanoTime() - asked) / 1e9;

        assertThat(stop.statusCode()).isEqualTo(200);
        assertThat(stop.body()).isEqualTo("{\"result\":\"success\"}");
        assertThat(seconds).isLessThan(1.0);
        assertThat(rest).contains("\"event\":\"workflow_finished\"").contains("\"status\":\"stopped\"");
        assertThat(json(slow.get("/v1/workflows/run/" + first.get("workflow_run_id").asText()))
                .get("status").asText()).isEqualTo("stopped");
    }

    @Test
    void aStopNeedsAUserAndTouchesNoOtherAppsTask() throws Exception {
        HttpResponse<InputStream> response = slow.postStreaming("/v1/workflows/run",
                run(Map.of("millis", 600), "streaming", "ada"));
        BufferedReader lines = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8));
        JsonNode first = JSON.readTree(lines.readLine().substring(6));

        HttpResponse<String> noUser = slow.postJson("/v1/workflows/tasks/" + first.get("task_id").asText() + "/stop",
                Map.of());
        HttpResponse<String> otherApp = echo.postJson("/v1/workflows/tasks/" + first.get("task_id").asText()
                + "/stop", Map.of("user", "ada"));
        String rest = readAll(lines);

        assertThat(noUser.statusCode()).isEqualTo(400);
        assertThat(json(noUser).get("message").asText()).isEqualTo("Arg user must be provided.");
        assertThat(otherApp.body()).isEqualTo("{\"result\":\"success\"}");
        assertThat(rest).contains("\"status\":\"succeeded\"");
    }

    @Test
    void aWorkflowThatNeedsAModelOnAServerWithoutOneIsProviderNotInitialize() {
        ServiceApi chat = server.api(server.importApp("chat.yml").get("api_key").asText());

        HttpResponse<String> response = chat.postJson("/v1/workflows/run", run(Map.of("q", "hi"), "streaming", "ada"));

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(json(response).get("code").asText()).isEqualTo("provider_not_initialize");
        assertThat(json(chat.get("/v1/workflows/logs")).get("total").asInt()).isZero();
    }

    @Test
    void aFileWhoseTypeIsNotTheOneItIsGivenAsIsRefused() {
        String picture = reader.upload("ada", "cat.png", "image/png", new byte[] {1, 2, 3});

        HttpResponse<String> response = reader.postJson("/v1/workflows/run", run(Map.of("doc", Map.of(
                "type", "document", "transfer_method", "local_file", "upload_file_id", picture)), "blocking", "ada"));

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(json(response).get("message").asText())
                .isEqualTo("Detected file type does not match the specified type. Please verify the file.");
    }

    // ---- run detail

    @Test
    void theRunDetailHasTheInputsAsJsonTextWithTheSysKeys() throws Exception {
        String runId = json(echo.postJson("/v1/workflows/run", run(Map.of("query", "detail"), "blocking", "ada")))
                .get("workflow_run_id").asText();

        HttpResponse<String> response = echo.get("/v1/workflows/run/" + runId);

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode detail = json(response);
        assertThat(fieldNames(detail)).containsExactly("id", "workflow_id", "status", "inputs", "outputs", "error",
                "total_steps", "total_tokens", "created_at", "finished_at", "elapsed_time");
        assertThat(detail.get("inputs").isTextual()).isTrue();
        JsonNode inputs = JSON.readTree(detail.get("inputs").asText());
        assertThat(inputs.get("query").asText()).isEqualTo("detail");
        assertThat(inputs.get("sys.user_id").asText()).isEqualTo("ada");
        assertThat(inputs.has("sys.workflow_run_id")).isTrue();
        assertThat(detail.get("outputs").get("answer").asText()).isEqualTo("You said: detail (calm)");
    }

    @Test
    void anUnknownRunOrAnotherAppsRunIs404() {
        String runId = json(echo.postJson("/v1/workflows/run", run(Map.of("query", "mine"), "blocking", "ada")))
                .get("workflow_run_id").asText();

        HttpResponse<String> unknown = echo.get("/v1/workflows/run/not-a-run");
        HttpResponse<String> foreign = reader.get("/v1/workflows/run/" + runId);

        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(json(unknown).get("code").asText()).isEqualTo("not_found");
        assertThat(foreign.statusCode()).isEqualTo(404);
        assertThat(foreign.body()).isEqualTo(unknown.body());
    }

    // ---- files

    @Test
    void anUploadAnswers201WithDifysFieldsAndCanBeReadByItsUsersRun() {
        String csv = "name,age\nAda,36\n";
        HttpResponse<String> response = reader.multipart("/v1/files/upload", List.of(Part.field("user", "ada"),
                Part.file("people.csv", "text/csv", csv.getBytes(StandardCharsets.UTF_8))));

        assertThat(response.statusCode()).isEqualTo(201);
        JsonNode file = json(response);
        assertThat(file.get("name").asText()).isEqualTo("people.csv");
        assertThat(file.get("size").asLong()).isEqualTo(csv.length());
        assertThat(file.get("extension").asText()).isEqualTo("csv");
        assertThat(file.get("mime_type").asText()).isEqualTo("text/csv");
        assertThat(file.get("created_by").asText()).isNotBlank();
        assertThat(file.get("created_at").isIntegralNumber()).isTrue();

        JsonNode run = json(reader.postJson("/v1/workflows/run", run(Map.of("doc", Map.of("type", "document",
                "transfer_method", "local_file", "upload_file_id", file.get("id").asText())), "blocking", "ada")));

        assertThat(run.get("data").get("status").asText()).isEqualTo(run.get("data").get("error").isNull()
                ? "succeeded" : run.get("data").get("error").asText());
        assertThat(run.get("data").get("outputs").get("text").asText())
                .isEqualTo("| name | age |\n| --- | --- |\n| Ada | 36 |");
    }

    @Test
    void anUploadIsNoOtherUsersOrOtherAppsInput() {
        String mine = reader.upload("ada", "a.txt", "text/plain", "secret".getBytes());
        String echoFile = echo.upload("ada", "b.txt", "text/plain", "other app".getBytes());

        HttpResponse<String> otherUser = reader.postJson("/v1/workflows/run", run(Map.of("doc", Map.of(
                "type", "document", "transfer_method", "local_file", "upload_file_id", mine)), "blocking", "bob"));
        HttpResponse<String> otherApp = reader.postJson("/v1/workflows/run", run(Map.of("doc", Map.of(
                "type", "document", "transfer_method", "local_file", "upload_file_id", echoFile)), "blocking", "ada"));
        HttpResponse<String> both = reader.postJson("/v1/workflows/run", run(Map.of("doc", Map.of(
                "type", "document", "transfer_method", "local_file", "upload_file_id", mine,
                "url", "http://127.0.0.1:9/x.txt")), "blocking", "ada"));

        assertThat(otherUser.statusCode()).isEqualTo(400);
        assertThat(json(otherUser).get("message").asText()).isEqualTo("doc: no upload " + mine + " of this user");
        assertThat(otherApp.statusCode()).isEqualTo(400);
        assertThat(both.statusCode()).isEqualTo(400);
        assertThat(json(both).get("message").asText()).isEqualTo("doc: give url or upload_file_id, not both");
    }

    @Test
    void uploadChecksComeInDifysOrderWithDifysCodes() {
        byte[] text = "x".getBytes();
        assertUpload(List.of(Part.field("user", "ada")), 400, "no_file_uploaded", "Please upload your file.");
        assertUpload(List.of(Part.file("a.txt", "text/plain", text), Part.file("b.txt", "text/plain", text)), 400,
                "too_many_files", "Only one file is allowed.");
        assertUpload(List.of(Part.file("", "text/plain", text)), 400, "filename_not_exists_error",
                "The specified filename does not exist.");
        assertUpload(List.of(Part.file("a:b.txt", "text/plain", text)), 400, "invalid_param",
                "Filename contains invalid characters");
        assertUpload(List.of(Part.file("big.png", "image/png", new byte[11 * 1024 * 1024])), 413,
                "file_too_large", null);
        HttpResponse<String> notMultipart = reader.postJson("/v1/files/upload", Map.of("file", "x"));
        assertThat(json(notMultipart).get("code").asText()).isEqualTo("no_file_uploaded");
    }

    @Test
    void aRefusedUploadLeavesNoBlobBehind() throws IOException {
        Path files = dataDir.resolve("files");
        long before = count(files);

        assertUpload(List.of(Part.file("big.mp4", "video/mp4", new byte[101 * 1024 * 1024])), 413,
                "file_too_large", null);

        assertThat(count(files)).isEqualTo(before);
    }

    private static void assertUpload(List<Part> parts, int status, String code, String message) {
        HttpResponse<String> response = reader.multipart("/v1/files/upload", parts);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(json(response).get("code").asText()).isEqualTo(code);
        if (message != null) {
            assertThat(json(response).get("message").asText()).isEqualTo(message);
        }
    }

    private static long count(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.count();
        }
    }

    // ---- logs

    @Test
    void logsSearchByKeywordStatusAndUserNewestFirstAndShowOnlyTheAppsOwnRuns() {
        echo.postJson("/v1/workflows/run", run(Map.of("query", "zebra crossing"), "blocking", "logger-1"));
        echo.postJson("/v1/workflows/run", run(Map.of("query", "quiet"), "blocking", "logger-2"));
        reader.postJson("/v1/workflows/run", run(Map.of("doc", Map.of("type", "document", "transfer_method",
                "remote_url", "url", "http://127.0.0.1:9/zebra.txt")), "blocking", "logger-1"));

        JsonNode zebra = json(echo.get("/v1/workflows/logs?keyword=ZEBRA"));
        JsonNode byUser = json(echo.get("/v1/workflows/logs?created_by_end_user_session_id=logger-2"));
        JsonNode failed = json(reader.get("/v1/workflows/logs?status=failed&limit=1"));
        JsonNode page = json(echo.get("/v1/workflows/logs?page=1&limit=1"));

        assertThat(zebra.get("total").asInt()).isEqualTo(1);
        JsonNode item = zebra.get("data").get(0);
        assertThat(fieldNames(item)).containsExactly("id", "workflow_run", "details", "created_from",
                "created_by_role", "created_by_account", "created_by_end_user", "created_at");
        assertThat(fieldNames(item.get("workflow_run"))).containsExactly("id", "version", "status", "triggered_from",
                "error", "elapsed_time", "total_tokens", "total_steps", "created_at", "finished_at",
                "exceptions_count");
        assertThat(item.get("created_by_end_user").get("session_id").asText()).isEqualTo("logger-1");
        assertThat(item.get("created_from").asText()).isEqualTo("service-api");
        assertThat(byUser.get("data")).hasSize(1);
        assertThat(failed.get("data").get(0).get("workflow_run").get("status").asText()).isEqualTo("failed");
        assertThat(page.get("limit").asInt()).isEqualTo(1);
        assertThat(page.get("has_more").asBoolean()).isTrue();
        assertThat(page.get("data").get(0).get("workflow_run").get("created_at").asLong())
                .isGreaterThanOrEqualTo(json(echo.get("/v1/workflows/logs?page=2&limit=1")).get("data").get(0)
                        .get("workflow_run").get("created_at").asLong());
    }

    @ParameterizedTest
    @CsvSource({"page=0", "page=100000", "limit=0", "limit=101", "limit=ten", "status=done",
            "created_at__before=yesterday"})
    void aLogQueryOutOfRangeIs400InvalidParam(String query) {
        HttpResponse<String> response = echo.get("/v1/workflows/logs?" + query);

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(json(response).get("code").asText()).isEqualTo("invalid_param");
    }

    @Test
    void logsTakeIsoTimes() {
        JsonNode future = json(echo.get("/v1/workflows/logs?created_at__after=2999-01-01T00:00:00Z"));
        JsonNode past = json(echo.get("/v1/workflows/logs?created_at__before=2000-01-01"));

        assertThat(future.get("total").asInt()).isZero();
        assertThat(past.get("total").asInt()).isZero();
    }

    // ---- app

    @Test
    void infoParametersAndSiteAreShapedAsDifys() {
        JsonNode info = json(echo.get("/v1/info"));
        JsonNode parameters = json(echo.get("/v1/parameters"));
        JsonNode site = json(echo.get("/v1/site"));

        assertThat(info.get("name").asText()).isEqualTo("Echo");
        assertThat(info.get("description").asText()).isEqualTo("Says back what it is told.");
        assertThat(info.get("tags").isArray()).isTrue();
        assertThat(info.get("mode").asText()).isEqualTo("workflow");
        JsonNode form = parameters.get("user_input_form");
        assertThat(form).hasSize(2);
        assertThat(form.get(0).get("text-input").get("variable").asText()).isEqualTo("query");
        assertThat(form.get(0).get("text-input").get("required").asBoolean()).isTrue();
        assertThat(form.get(1).get("select").get("options")).hasSize(2);
        assertThat(parameters.get("opening_statement").asText()).isEqualTo("hi");
        assertThat(parameters.get("file_upload").get("enabled").asBoolean()).isTrue();
        assertThat(parameters.get("system_parameters").get("file_size_limit").asInt()).isEqualTo(15);
        assertThat(parameters.get("system_parameters").get("image_file_size_limit").asInt()).isEqualTo(10);
        assertThat(parameters.get("speech_to_text").get("enabled").asBoolean()).isFalse();
        assertThat(site.get("title").asText()).isEqualTo("Echo");
        assertThat(site.get("icon_type").asText()).isEqualTo("emoji");
        assertThat(site.get("icon").asText()).isEqualTo("🔁");
        assertThat(site.get("default_language").asText()).isEqualTo("en-US");
        assertThat(site.has("show_workflow_steps")).isTrue();
    }

    // ---- auth

    @ParameterizedTest
    @CsvSource(nullValues = "none", delimiter = '|', value = {
            "none|Authorization header must be provided and start with 'Bearer'",
            "Bearer|Authorization header must be provided and start with 'Bearer'",
            "Basic abc|Authorization scheme must be 'Bearer'",
            "Bearer app-000000000000000000000000|Access token is invalid",
            "Bearer not-even-a-key|Access token is invalid"})
    void aRequestWithoutAValidKeyIs401WithDifysMessage(String header, String message) throws Exception {
        java.net.http.HttpRequest.Builder request = java.net.http.HttpRequest.newBuilder(
                java.net.URI.create(server.hexaflow.baseUrl() + "/v1/info")).GET();
        if (header != null) {
            request.header("Authorization", header);
        }
        HttpResponse<String> response = java.net.http.HttpClient.newHttpClient().send(request.build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.headers().firstValue("WWW-Authenticate")).contains("Bearer realm=\"api\"");
        assertThat(json(response).get("code").asText()).isEqualTo("unauthorized");
        assertThat(json(response).get("message").asText()).isEqualTo(message);
    }

    // ---- helpers

    private static long total(ServiceApi api) {
        return json(api.get("/v1/workflows/logs")).get("total").asLong();
    }

    /** The run once it has ended; 30 s at most, for a run of slow.yml may first wait for a JavaScript worker. */
    private static JsonNode awaitFinished(ServiceApi api, String runId) throws InterruptedException {
        long until = System.nanoTime() + java.time.Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < until) {
            JsonNode detail = json(api.get("/v1/workflows/run/" + runId));
            if (!detail.get("status").asText().equals("running")) {
                return detail;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("run " + runId + " did not finish");
    }

    private static String readAll(BufferedReader lines) throws IOException {
        StringBuilder text = new StringBuilder();
        String line;
        while ((line = lines.readLine()) != null) {
            text.append(line).append('\n');
        }
        return text.toString();
    }

    static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
