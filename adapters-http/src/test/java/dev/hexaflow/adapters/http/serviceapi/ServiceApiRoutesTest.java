package dev.hexaflow.adapters.http.serviceapi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.adapters.http.server.Refusals;
import dev.hexaflow.adapters.http.server.RequestLimits;
import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.http.serviceapi.workflow.AppInfoRoutes;
import dev.hexaflow.adapters.http.serviceapi.workflow.LogRoutes;
import dev.hexaflow.adapters.http.serviceapi.workflow.RunRoutes;
import dev.hexaflow.adapters.http.serviceapi.workflow.UploadRoutes;
import dev.hexaflow.application.apps.port.in.AuthenticateUseCase.Operation;
import dev.hexaflow.application.apps.port.in.AuthenticateUseCase;
import dev.hexaflow.application.apps.port.in.Caller;
import dev.hexaflow.application.apps.port.in.DescribeAppUseCase;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.files.port.in.UploadFileUseCase;
import dev.hexaflow.application.runs.port.in.GetRunUseCase;
import dev.hexaflow.application.runs.port.in.ListNodeExecutionsUseCase;
import dev.hexaflow.application.runs.port.in.ListRunLogsUseCase.RunLogEntry;
import dev.hexaflow.application.runs.port.in.ListRunLogsUseCase.RunLogPage;
import dev.hexaflow.application.runs.port.in.ListRunLogsUseCase.RunLogsQuery;
import dev.hexaflow.application.runs.port.in.ListRunLogsUseCase;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunUnderWay;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunWorkflowCommand;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase;
import dev.hexaflow.application.runs.port.in.StopTaskUseCase;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.app.EndUser;
import dev.hexaflow.domain.app.UploadLimits;
import dev.hexaflow.domain.app.UploadedFile;
import dev.hexaflow.domain.workflow.DataTree;
import dev.hexaflow.domain.workflow.InputField;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.WorkflowRun;
import io.javalin.Javalin;
import io.javalin.testtools.JavalinTest;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The Service API's route groups on their own: Javalin with small hand-written use cases behind them, so that
 * authentication, request parsing and Dify's wire shapes are tested without the composition root.
 */
class ServiceApiRoutesTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String KEY = "app-test";
    static final String PAGE_USER = "web-0123456789abcdef0123456789abcdef";
    static final WorkflowRun FINISHED = WorkflowRun.started("run-1", "wf-1", Map.of("name", "Ada"), 100)
            .finish(RunStatus.SUCCEEDED, Map.of("greeting", "Hello, Ada"), null, 0.25, 7, 3, 0, 101);

    /** Takes {@link #KEY} for app-1, and only for what a page may do when it starts with "web-". */
    static final AuthenticateUseCase AUTHENTICATE = (token, operation) -> {
        if (token.equals(KEY)) {
            return Caller.appKey("app-1");
        }
        if (token.equals("web-page") && operation.openToWebPages()) {
            return Caller.page("app-1", PAGE_USER);
        }
        throw new ApiException(token.equals("web-page") ? ApiError.FORBIDDEN : ApiError.UNAUTHORIZED,
                "Access token is invalid");
    };

    final AtomicReference<RunWorkflowCommand> started = new AtomicReference<>();
    final AtomicReference<RunLogsQuery> searched = new AtomicReference<>();
    final List<String> stopped = new ArrayList<>();

    /** A run that emits its events at once and ends with {@code end}. */
    RunWorkflowUseCase runs(CompletableFuture<WorkflowRun> end) {
        return (command, observer) -> {
            started.set(command);
            observer.on(new RunEvent.WorkflowStarted(WorkflowRun.started("run-1", "wf-1", command.inputs(), 100)));
            observer.on(new RunEvent.TextChunk("Hello", List.of("llm", "text")));
            return new RunUnderWay("run-1", "task-1", end);
        };
    }

    Javalin server(RunWorkflowUseCase run) {
        GetRunUseCase getRun = (appId, runId) -> {
            if (!appId.equals("app-1") || !runId.equals("run-1")) {
                throw new ApiException(ApiError.NOT_FOUND, "Workflow run not found.");
            }
            return FINISHED;
        };
        StopTaskUseCase stop = (appId, taskId, user) -> stopped.add(appId + "/" + taskId + "/" + user);
        ListRunLogsUseCase logs = query -> {
            searched.set(query);
            return new RunLogPage(query.page(), query.limit(), 1, false, List.of(new RunLogEntry("log-1", FINISHED,
                    "v1", new EndUser("eu-1", "app-1", "alice", 100), 100, "app-run")));
        };
        UploadFileUseCase upload = command -> new UploadedFile("file-1", command.appId(), "eu-1",
                command.filename(), 5, "txt", "text/plain", "blob-1", 100);
        DescribeAppUseCase describe = new DescribeAppUseCase() {
            @Override
            public App app(String appId) {
                throw new ApiException(ApiError.NOT_FOUND, "App not found.");
            }

            @Override
            public AppParameters parameters(String appId) {
                return new AppParameters(DataTree.of(Map.of("opening_statement", "Hi")),
                        List.of(InputField.of(DataTree.of(Map.of("type", "paragraph", "variable", "text", "label", "Text")))),
                        new UploadLimits(10, 100, 50, 15));
            }
        };
        ServiceApiAuthentication authentication = new ServiceApiAuthentication(AUTHENTICATE);
        List<RouteGroup> groups = List.of(authentication,
                new RunRoutes(run, getRun, stop, query -> new ListNodeExecutionsUseCase.NodeExecutionPage(query.page(),
                        query.limit(), 0, false, List.of()), query -> {
                            throw new ApiException(ApiError.NOT_FOUND, "Workflow run not found.");
                        }, authentication, Duration.ofSeconds(10), RequestLimits.DEFAULTS, null), new UploadRoutes(upload),
                new LogRoutes(logs), new AppInfoRoutes(describe));
        return Javalin.create(config -> {
            groups.forEach(group -> group.addTo(config.routes));
            Refusals.mapOnto(config.routes);
        });
    }

    static JsonNode json(io.javalin.testtools.Response response) throws Exception {
        return JSON.readTree(response.body().string());
    }

    @Test
    void aRequestWithoutABearerKeyIsRefusedWithDifysMessageBeforeTheRouteRuns() {
        JavalinTest.test(server(runs(new CompletableFuture<>())), (server, client) -> {
            var none = client.post("/v1/workflows/run", "{\"inputs\": {}, \"user\": \"u\"}");
            assertThat(none.code()).isEqualTo(401);
            assertThat(none.headers().get("WWW-Authenticate")).containsExactly("Bearer realm=\"api\"");
            assertThat(json(none).get("message").asText())
                    .isEqualTo("Authorization header must be provided and start with 'Bearer'");
            var basic = client.post("/v1/workflows/run", "{}", request -> request.header("Authorization", "Basic x"));
            assertThat(json(basic).get("message").asText()).isEqualTo("Authorization scheme must be 'Bearer'");
            var page = client.get("/v1/workflows/logs", request -> request.header("Authorization", "Bearer web-page"));
            assertThat(page.code()).isEqualTo(403);
            assertThat(json(page).get("code").asText()).isEqualTo("forbidden");
            assertThat(started.get()).as("no route ran").isNull();
            assertThat(searched.get()).isNull();
        });
    }

    @Test
    void aBlockingRunAnswersTheKeptRunWithItsTaskAndTheCommandCarriesTheAuthenticatedApp() {
        JavalinTest.test(server(runs(CompletableFuture.completedFuture(FINISHED))), (server, client) -> {
            var answer = client.post("/v1/workflows/run", "{\"inputs\": {\"name\": \"Ada\"}, \"user\": 42}",
                    request -> request.header("Authorization", "Bearer " + KEY));
            assertThat(answer.code()).isEqualTo(200);
            JsonNode body = json(answer);
            assertThat(body.get("task_id").asText()).isEqualTo("task-1");
            assertThat(body.get("workflow_run_id").asText()).isEqualTo("run-1");
            assertThat(body.get("data").get("status").asText()).isEqualTo("succeeded");
            assertThat(body.get("data").get("outputs").get("greeting").asText()).isEqualTo("Hello, Ada");
            assertThat(started.get()).isEqualTo(new RunWorkflowCommand("app-1", null, "42", Map.of("name", "Ada"),
                    List.of()));
        });
    }

    @Test
    void anAsyncRunIsAnsweredWith202AndItsIdsOnceItsStartIsHeardNotItsEnd() {
        CompletableFuture<WorkflowRun> never = new CompletableFuture<>();
        JavalinTest.test(server(runs(never)), (server, client) -> {
            var answer = client.post("/v1/workflows/run", "{\"inputs\": {}, \"user\": \"u\", "
                    + "\"response_mode\": \"async\"}", request -> request.header("Authorization", "Bearer " + KEY));
            assertThat(answer.code()).isEqualTo(202);
            JsonNode body = json(answer);
            assertThat(body.get("task_id").asText()).isEqualTo("task-1");
            assertThat(body.get("workflow_run_id").asText()).isEqualTo("run-1");
            assertThat(never).as("the run is still going").isNotDone();
        });
    }

    @Test
    void aStreamedRunWritesEachEventAsAFrameAndEndsWithTheRun() {
        JavalinTest.test(server(runs(CompletableFuture.completedFuture(FINISHED))), (server, client) -> {
            var answer = client.post("/v1/workflows/wf-9/run",
                    "{\"inputs\": {}, \"user\": \"u\", \"response_mode\": \"streaming\"}",
                    request -> request.header("Authorization", "Bearer " + KEY));
            assertThat(answer.headers().get("Content-Type").get(0)).startsWith("text/event-stream");
            List<JsonNode> frames = new ArrayList<>();
            for (String frame : answer.body().string().split("\n\n")) {
                assertThat(frame).startsWith("data: ");
                frames.add(JSON.readTree(frame.substring("data: ".length())));
            }
            assertThat(frames).extracting(frame -> frame.get("event").asText())
                    .containsExactly("workflow_started", "text_chunk");
            assertThat(frames.get(1).get("data").get("text").asText()).isEqualTo("Hello");
            assertThat(frames.get(1).get("task_id").asText()).isEqualTo("task-1");
            assertThat(started.get().workflowId()).isEqualTo("wf-9");
        });
    }

    @Test
    void aStreamedRunThatCouldNotBeKeptEndsWithDifysErrorEventForTheRefusal() {
        CompletableFuture<WorkflowRun> refused = CompletableFuture.failedFuture(
                new ApiException(ApiError.INSUFFICIENT_STORAGE, "The disk is full."));
        JavalinTest.test(server(runs(refused)), (server, client) -> {
            String stream = client.post("/v1/workflows/run",
                    "{\"inputs\": {}, \"user\": \"u\", \"response_mode\": \"streaming\"}",
                    request -> request.header("Authorization", "Bearer " + KEY)).body().string();
            String[] frames = stream.split("\n\n");
            JsonNode last = JSON.readTree(frames[frames.length - 1].substring("data: ".length()));
            assertThat(last.get("event").asText()).isEqualTo("error");
            assertThat(last.get("code").asText()).isEqualTo("insufficient_storage");
            assertThat(last.get("status").asInt()).isEqualTo(507);
            assertThat(last.get("message").asText()).isEqualTo("The disk is full.");
        });
    }

    @Test
    void aRequestBodyThatIsNotAJsonObjectIsRefusedAsDifyRefusesIt() {
        JavalinTest.test(server(runs(new CompletableFuture<>())), (server, client) -> {
            var list = client.post("/v1/workflows/run", "[1]", request -> request.header("Authorization",
                    "Bearer " + KEY));
            assertThat(list.code()).isEqualTo(400);
            assertThat(json(list).get("message").asText())
                    .isEqualTo("Invalid JSON payload received or JSON payload is empty.");
            var text = client.request("/v1/workflows/run", request -> request.header("Authorization", "Bearer " + KEY)
                    .header("Content-Type", "text/plain").post(HttpRequest.BodyPublishers.ofString("{}")));
            assertThat(text.code()).isEqualTo(415);
            assertThat(json(text).get("code").asText()).isEqualTo("unsupported_media_type");
            var noInputs = client.post("/v1/workflows/run", "{\"user\": \"u\"}",
                    request -> request.header("Authorization", "Bearer " + KEY));
            assertThat(json(noInputs).get("message").asText())
                    .isEqualTo("Missing required parameter in the JSON body: inputs");
            assertThat(started.get()).isNull();
        });
    }

    @Test
    void runDetailAndStopSpeakForTheAuthenticatedAppOnly() {
        JavalinTest.test(server(runs(new CompletableFuture<>())), (server, client) -> {
            JsonNode detail = json(client.get("/v1/workflows/run/run-1",
                    request -> request.header("Authorization", "Bearer " + KEY)));
            assertThat(detail.get("workflow_id").asText()).isEqualTo("wf-1");
            assertThat(detail.get("total_tokens").asLong()).isEqualTo(7);
            assertThat(detail.get("elapsed_time").asDouble()).isEqualTo(0.25);
            assertThat(detail.get("inputs").asText()).as("inputs as Dify keeps them, a JSON text")
                    .isEqualTo("{\"name\": \"Ada\"}");
            var unknown = client.get("/v1/workflows/run/run-2", request -> request.header("Authorization",
                    "Bearer " + KEY));
            assertThat(unknown.code()).isEqualTo(404);
            assertThat(json(unknown).get("code").asText()).isEqualTo("not_found");
            var stop = client.post("/v1/workflows/tasks/task-1/stop", "{\"user\": \"alice\"}",
                    request -> request.header("Authorization", "Bearer " + KEY));
            var pageStop = client.post("/v1/workflows/tasks/task-2/stop", "{\"user\": \"" + PAGE_USER + "\"}",
                    request -> request.header("Authorization", "Bearer web-page"));
            var pageStopForAlice = client.post("/v1/workflows/tasks/task-3/stop", "{\"user\": \"alice\"}",
                    request -> request.header("Authorization", "Bearer web-page"));
            assertThat(json(stop).get("result").asText()).isEqualTo("success");
            assertThat(json(pageStop).get("result").asText()).isEqualTo("success");
            assertThat(pageStopForAlice.code()).as("a page's token acts for its own user only").isEqualTo(403);
            assertThat(json(pageStopForAlice).get("code").asText()).isEqualTo("forbidden");
            assertThat(stopped).containsExactly("app-1/task-1/alice", "app-1/task-2/" + PAGE_USER);
        });
    }

    @Test
    void theLogSearchReadsDifysQueryAndAnswersDifysPage() {
        JavalinTest.test(server(runs(new CompletableFuture<>())), (server, client) -> {
            JsonNode page = json(client.get("/v1/workflows/logs?keyword=Ada&status=succeeded&page=2&limit=5"
                    + "&created_at__after=2026-01-01&created_at__before=2026-01-02T00:00:00%2B01:00"
                    + "&created_by_end_user_session_id=alice",
                    request -> request.header("Authorization", "Bearer " + KEY)));
            assertThat(searched.get()).isEqualTo(new RunLogsQuery("app-1", "Ada", "succeeded", 2, 5, 1767308400L,
                    1767225600L, "alice"));
            assertThat(page.get("has_more").asBoolean()).isFalse();
            JsonNode item = page.get("data").get(0);
            assertThat(item.get("workflow_run").get("version").asText()).isEqualTo("v1");
            assertThat(item.get("workflow_run").get("total_steps").asInt()).isEqualTo(3);
            assertThat(item.get("created_by_end_user").get("session_id").asText()).isEqualTo("alice");
            assertThat(item.get("created_by_end_user").get("is_anonymous").asBoolean()).isFalse();
            assertThat(item.has("details")).isTrue();
            var badPage = client.get("/v1/workflows/logs?page=two", request -> request.header("Authorization",
                    "Bearer " + KEY));
            assertThat(badPage.code()).isEqualTo(400);
            assertThat(json(badPage).get("message").asText()).isEqualTo("page must be a whole number, was 'two'");
        });
    }

    @Test
    void theParametersCarryTheFormAsDifyShapesItAndDifysDefaultsForAbsentFeatures() {
        JavalinTest.test(server(runs(new CompletableFuture<>())), (server, client) -> {
            JsonNode parameters = json(client.get("/v1/parameters", request -> request.header("Authorization",
                    "Bearer web-page")));
            assertThat(parameters.get("opening_statement").asText()).isEqualTo("Hi");
            assertThat(parameters.get("speech_to_text").get("enabled").asBoolean()).isFalse();
            assertThat(parameters.get("user_input_form").get(0).get("paragraph").get("variable").asText())
                    .isEqualTo("text");
            assertThat(parameters.get("file_upload").get("image").get("number_limits").asInt()).isEqualTo(3);
            assertThat(parameters.get("system_parameters").get("file_size_limit").asInt()).isEqualTo(15);
            assertThat(parameters.get("system_parameters").get("workflow_file_upload_limit").asInt()).isEqualTo(10);
            var info = client.get("/v1/info", request -> request.header("Authorization", "Bearer " + KEY));
            assertThat(info.code()).isEqualTo(404);
        });
    }

    @Test
    void anUploadHandsTheOnePartToTheUseCaseAndAnswersDifysFileResponse() {
        JavalinTest.test(server(runs(new CompletableFuture<>())), (server, client) -> {
            String boundary = "b0undary";
            String body = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"user\"\r\n\r\nalice\r\n--"
                    + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\n"
                    + "Content-Type: text/plain\r\n\r\nhello\r\n--" + boundary + "--\r\n";
            var answer = client.request("/v1/files/upload", request -> request
                    .header("Authorization", "Bearer " + KEY)
                    .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                    .post(HttpRequest.BodyPublishers.ofString(body)));
            assertThat(answer.code()).isEqualTo(201);
            JsonNode file = json(answer);
            assertThat(file.get("name").asText()).isEqualTo("a.txt");
            assertThat(file.get("mime_type").asText()).isEqualTo("text/plain");
            assertThat(file.get("created_by").asText()).isEqualTo("eu-1");
            assertThat(file.has("preview_url")).isTrue();
        });
    }

    @Test
    void everyRefusalOfTheServiceHasDifysCodeAndAnHttpErrorStatus() {
        for (ApiError error : ApiError.values()) {
            assertThat(dev.hexaflow.adapters.http.support.DifyErrors.code(error)).as(error.name()).matches("[a-z_]+");
            assertThat(dev.hexaflow.adapters.http.support.DifyErrors.status(error)).as(error.name()).isBetween(400, 599);
        }
        assertThat(Operation.READ_RUNS.openToWebPages()).isFalse();
    }
}
