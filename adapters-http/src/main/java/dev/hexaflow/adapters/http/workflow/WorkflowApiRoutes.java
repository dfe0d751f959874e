package dev.hexaflow.adapters.http.workflow;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.adapters.http.JsonResponses;
import dev.hexaflow.adapters.http.ResponseBodies;
import dev.hexaflow.adapters.http.RouteGroup;
import dev.hexaflow.adapters.http.SlowBodyException;
import dev.hexaflow.application.app.port.in.ApiError;
import dev.hexaflow.application.app.port.in.ApiException;
import dev.hexaflow.application.app.port.in.AuthenticateUseCase.Operation;
import dev.hexaflow.application.app.port.in.RunWorkflowUseCase.RunWorkflowCommand;
import dev.hexaflow.application.app.port.in.UploadFileUseCase.UploadFileCommand;
import dev.hexaflow.application.app.port.out.RunRepository.LogEntry;
import dev.hexaflow.application.app.port.out.RunRepository.LogPage;
import dev.hexaflow.application.app.port.out.RunRepository.LogQuery;
import dev.hexaflow.application.app.service.AppServices;
import dev.hexaflow.application.workflow.engine.RunHandle;
import dev.hexaflow.application.workflow.engine.RunListener;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.workflow.Values;
import dev.hexaflow.domain.workflow.WorkflowRun;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.UploadedFile;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Dify's workflow-app Service API under {@code /v1}: bearer-key auth with Dify's messages, every error as
 * {@code {"code", "message", "status"}}, blocking and streaming runs, stop, run detail, logs, uploads, info,
 * parameters and site. A streaming run is written frame by frame from the POST itself; the run goes on whether
 * or not the client stays.
 */
public final class WorkflowApiRoutes implements RouteGroup {

    private static final ObjectMapper JSON = ResponseBodies.jsonMapper();

    private final AppServices services;
    private final Duration pingInterval;

    public WorkflowApiRoutes(AppServices services, Duration pingInterval) {
        this.services = services;
        this.pingInterval = pingInterval;
    }

    /** A handler that runs for an authenticated app. */
    @FunctionalInterface
    private interface AppHandler {
        void handle(Context ctx, String appId) throws Exception;
    }

    @Override
    public void addTo(RoutesConfig routes) {
        routes.post("/v1/workflows/run", app(Operation.RUN, (ctx, appId) -> run(ctx, appId, null)));
        routes.post("/v1/workflows/{workflow_id}/run", app(Operation.RUN, (ctx, appId) -> run(ctx, appId,
                ctx.pathParam("workflow_id"))));
        routes.get("/v1/workflows/run/{workflow_run_id}", app(Operation.READ_RUNS, this::detail));
        routes.post("/v1/workflows/tasks/{task_id}/stop", app(Operation.STOP, this::stop));
        routes.post("/v1/files/upload", app(Operation.UPLOAD, this::upload));
        routes.get("/v1/workflows/logs", app(Operation.READ_RUNS, this::logs));
        routes.get("/v1/info", app(Operation.DESCRIBE, this::info));
        routes.get("/v1/parameters", app(Operation.DESCRIBE, (ctx, appId) -> json(ctx, 200,
                services.describe.parameters(appId))));
        routes.get("/v1/site", app(Operation.DESCRIBE, this::site));
    }

    /**
     * Dify's bearer check (an app key, or a token the app's web page handed out, for what a page does), then the
     * handler; an {@link ApiException} becomes Dify's error body.
     */
    private io.javalin.http.Handler app(Operation operation, AppHandler handler) {
        return ctx -> {
            String header = ctx.header("Authorization");
            if (header == null || header.isBlank() || !header.strip().contains(" ")) {
                unauthorized(ctx, "Authorization header must be provided and start with 'Bearer'");
                return;
            }
            String[] parts = header.strip().split("\\s+", 2);
            if (!parts[0].equalsIgnoreCase("bearer")) {
                unauthorized(ctx, "Authorization scheme must be 'Bearer'");
                return;
            }
            String appId;
            try {
                appId = services.authenticate.appOf(parts[1].strip(), operation);
            } catch (ApiException e) {
                if (e.error() == ApiError.UNAUTHORIZED) {
                    unauthorized(ctx, e.getMessage());
                } else {
                    error(ctx, e.error(), e.getMessage());
                }
                return;
            }
            try {
                handler.handle(ctx, appId);
            } catch (ApiException e) {
                error(ctx, e.error(), e.getMessage());
            }
        };
    }

    private static void unauthorized(Context ctx, String message) {
        ctx.header("WWW-Authenticate", "Bearer realm=\"api\"");
        error(ctx, ApiError.UNAUTHORIZED, message);
    }

    static void error(Context ctx, ApiError error, String message) {
        JsonResponses.error(ctx, error.status(), error.code(), message);
    }

    private static void json(Context ctx, int status, Object body) {
        ResponseBodies.write(ctx, status, "application/json; charset=utf-8",
                DifyWire.json(body).getBytes(StandardCharsets.UTF_8));
    }

    // ---- runs

    private void run(Context ctx, String appId, String workflowId) throws IOException {
        Map<String, Object> body = jsonBody(ctx);
        Object inputs = body.get("inputs");
        if (!(inputs instanceof Map<?, ?>)) {
            throw new ApiException(ApiError.INVALID_PARAM, inputs == null
                    ? "Missing required parameter in the JSON body: inputs"
                    : "inputs must be an object");
        }
        Object files = body.get("files");
        if (files != null && !(files instanceof List<?>)) {
            throw new ApiException(ApiError.INVALID_PARAM, "files must be a list");
        }
        boolean streaming = "streaming".equals(body.get("response_mode"));
        @SuppressWarnings("unchecked")
        RunWorkflowCommand command = new RunWorkflowCommand(appId, workflowId, user(body),
                (Map<String, Object>) inputs, files == null ? List.of() : List.copyOf((List<?>) files));
        if (streaming) {
            RunEventStream.write(ctx, pingInterval, listener -> services.run.start(command, listener));
        } else {
            RunHandle handle = services.run.start(command, RunListener.NONE);
            WorkflowRun run = handle.await();
            json(ctx, 200, DifyWire.completion(run, handle.taskId()));
        }
    }

    private void detail(Context ctx, String appId) {
        WorkflowRun run = services.getRun.get(appId, ctx.pathParam("workflow_run_id"));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", run.id());
        body.put("workflow_id", run.workflowId());
        body.put("status", run.status().wireName());
        body.put("inputs", Values.pythonJson(run.inputs()));
        body.put("outputs", run.outputs() == null ? Map.of() : run.outputs());
        body.put("error", run.error());
        body.put("total_steps", run.totalSteps());
        body.put("total_tokens", run.totalTokens());
        body.put("created_at", run.createdAt());
        body.put("finished_at", run.finishedAt());
        body.put("elapsed_time", run.finishedAt() == null ? null : run.elapsedTime());
        json(ctx, 200, body);
    }

    private void stop(Context ctx, String appId) throws IOException {
        services.stop.stop(appId, ctx.pathParam("task_id"), user(jsonBody(ctx)));
        json(ctx, 200, Map.of("result", "success"));
    }

    // ---- files

    private void upload(Context ctx, String appId) {
        List<UploadedFile> parts;
        String user;
        try {
            boolean multipart = ctx.contentType() != null
                    && ctx.contentType().toLowerCase(Locale.ROOT).startsWith("multipart/form-data");
            parts = multipart ? ctx.uploadedFiles("file") : List.of();
            user = multipart ? ctx.formParam("user") : null;
        } catch (Exception e) {
            // Jetty's ServletException for a body that is no multipart at all is checked, yet thrown here.
            // Jetty drops the connection of a multipart body it gave up on; the answer says so.
            ctx.header("Connection", "close");
            if (isTooLarge(e)) {
                throw new ApiException(ApiError.FILE_TOO_LARGE, "File size exceeded.");
            }
            throw new ApiException(ApiError.INVALID_PARAM, "The multipart body cannot be read: "
                    + rootMessage(e));
        }
        UploadedFile part = parts.size() == 1 ? parts.get(0) : null;
        try (InputStream content = part == null ? InputStream.nullInputStream() : part.content()) {
            dev.hexaflow.domain.app.UploadedFile file = services.upload.upload(new UploadFileCommand(appId, user,
                    parts.size(), part == null ? null : part.filename(), part == null ? null : part.contentType(),
                    content));
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("id", file.id());
            body.put("name", file.name());
            body.put("size", file.size());
            body.put("extension", file.extension());
            body.put("mime_type", file.mimeType());
            body.put("created_by", file.endUserId());
            body.put("created_at", file.createdAt());
            body.put("preview_url", null);
            body.put("source_url", null);
            body.put("original_url", null);
            body.put("user_id", file.endUserId());
            body.put("tenant_id", null);
            body.put("conversation_id", null);
            body.put("file_key", null);
            json(ctx, 201, body);
        } catch (IOException e) {
            throw new ApiException(ApiError.INVALID_PARAM, "The uploaded file cannot be read");
        }
    }

    private static boolean isTooLarge(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String message = String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT);
            if (message.contains("exceeds") || message.contains("too large") || message.contains("max")) {
                return true;
            }
        }
        return false;
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return String.valueOf(t.getMessage());
    }

    // ---- logs

    private void logs(Context ctx, String appId) {
        LogQuery query = new LogQuery(appId, ctx.queryParam("keyword"), blankToNull(ctx.queryParam("status")),
                number(ctx, "page", 1), number(ctx, "limit", 20), time(ctx, "created_at__before"),
                time(ctx, "created_at__after"), blankToNull(ctx.queryParam("created_by_end_user_session_id")));
        LogPage page = services.logs.list(query);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("page", page.page());
        body.put("limit", page.limit());
        body.put("total", page.total());
        body.put("has_more", page.hasMore());
        body.put("data", page.items().stream().map(WorkflowApiRoutes::logItem).toList());
        json(ctx, 200, body);
    }

    private static Map<String, Object> logItem(LogEntry entry) {
        WorkflowRun run = entry.run();
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("id", run.id());
        summary.put("version", entry.version());
        summary.put("status", run.status().wireName());
        summary.put("triggered_from", "app-run");
        summary.put("error", run.error());
        summary.put("elapsed_time", run.elapsedTime());
        summary.put("total_tokens", run.totalTokens());
        summary.put("total_steps", run.totalSteps());
        summary.put("created_at", run.createdAt());
        summary.put("finished_at", run.finishedAt());
        summary.put("exceptions_count", run.exceptionsCount());
        Map<String, Object> user = new LinkedHashMap<>();
        user.put("id", entry.user().id());
        user.put("type", "service-api");
        user.put("is_anonymous", false);
        user.put("session_id", entry.user().sessionId());
        Map<String, Object> item = new LinkedHashMap<>();
        item.put("id", entry.logId());
        item.put("workflow_run", summary);
        item.put("details", null);
        item.put("created_from", "service-api");
        item.put("created_by_role", "end_user");
        item.put("created_by_account", null);
        item.put("created_by_end_user", user);
        item.put("created_at", entry.createdAt());
        return item;
    }

    private static int number(Context ctx, String name, int otherwise) {
        String text = ctx.queryParam(name);
        if (text == null || text.isBlank()) {
            return otherwise;
        }
        try {
            return Integer.parseInt(text.strip());
        } catch (NumberFormatException e) {
            throw new ApiException(ApiError.INVALID_PARAM, name + " must be a whole number, was '" + text + "'");
        }
    }

    /** An ISO 8601 time (with or without zone, or a date) as Unix seconds; without a zone it is UTC. */
    private static Long time(Context ctx, String name) {
        String text = blankToNull(ctx.queryParam(name));
        if (text == null) {
            return null;
        }
        try {
            return OffsetDateTime.parse(text).toEpochSecond();
        } catch (DateTimeParseException notOffset) {
            try {
                return LocalDateTime.parse(text).toEpochSecond(ZoneOffset.UTC);
            } catch (DateTimeParseException notLocal) {
                try {
                    return LocalDate.parse(text).atStartOfDay().toEpochSecond(ZoneOffset.UTC);
                } catch (DateTimeParseException notDate) {
                    throw new ApiException(ApiError.INVALID_PARAM, name + " must be an ISO 8601 time, was '"
                            + text + "'");
                }
            }
        }
    }

    // ---- app

    private void info(Context ctx, String appId) {
        App app = services.describe.app(appId);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", app.name());
        body.put("description", app.description());
        body.put("tags", app.tags());
        body.put("mode", app.mode());
        body.put("author_name", "");
        json(ctx, 200, body);
    }

    private void site(Context ctx, String appId) {
        json(ctx, 200, SiteWire.site(services.describe.app(appId).site()));
    }

    // ---- request bodies

    /** The body as a JSON object; anything else is Dify's invalid JSON error, or 415 for a declared other type. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> jsonBody(Context ctx) {
        String type = ctx.contentType();
        if (type != null && !type.isBlank() && !type.toLowerCase(Locale.ROOT).contains("json")) {
            throw new UnsupportedMediaType();
        }
        try {
            Object body = JSON.readValue(ctx.bodyAsBytes(), Object.class);
            if (body instanceof Map<?, ?> map) {
                return (Map<String, Object>) map;
            }
        } catch (IOException | RuntimeException e) {
            if (e instanceof io.javalin.http.HttpResponseException tooLarge) {
                throw tooLarge;
            }
            if (SlowBodyException.isCauseOf(e)) {
                // Not the client's JSON but its pace: the server's answer for that (408) says so.
                throw e instanceof RuntimeException unchecked ? unchecked : new UncheckedIOException(
                        (IOException) e);
            }
        }
        throw new ApiException(ApiError.INVALID_PARAM, "Invalid JSON payload received or JSON payload is empty.");
    }

    private static String user(Map<String, Object> body) {
        Object user = body.get("user");
        return user instanceof String || user instanceof Number ? String.valueOf(user) : null;
    }

    private static String blankToNull(String text) {
        return text == null || text.isBlank() ? null : text.strip();
    }

    /** A request whose declared content type is not JSON, answered as werkzeug answers it. */
    static final class UnsupportedMediaType extends ApiException {
        UnsupportedMediaType() {
            super(ApiError.UNSUPPORTED_MEDIA_TYPE, "Did not attempt to load JSON data because the request "
                    + "Content-Type was not 'application/json'.");
        }
    }

}
