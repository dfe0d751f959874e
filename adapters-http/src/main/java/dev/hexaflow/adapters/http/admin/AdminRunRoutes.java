package dev.hexaflow.adapters.http.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.http.support.HttpRefusal;
import dev.hexaflow.adapters.http.support.JsonResponses;
import dev.hexaflow.adapters.http.support.QueryNumbers;
import dev.hexaflow.adapters.http.support.QueryTimes;
import dev.hexaflow.adapters.http.wire.DifyWire;
import dev.hexaflow.adapters.http.wire.HumanInputWire;
import dev.hexaflow.application.runs.port.in.AnswerFormUseCase;
import dev.hexaflow.application.runs.port.in.ControlRunUseCase;
import dev.hexaflow.application.runs.port.in.InspectRunsUseCase.RunDetail;
import dev.hexaflow.application.runs.port.in.InspectRunsUseCase.RunItem;
import dev.hexaflow.application.runs.port.in.InspectRunsUseCase.RunList;
import dev.hexaflow.application.runs.port.in.InspectRunsUseCase.RunsQuery;
import dev.hexaflow.application.runs.port.in.InspectRunsUseCase.StreamedEvent;
import dev.hexaflow.application.runs.port.in.InspectRunsUseCase;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunUnderWay;
import dev.hexaflow.domain.workflow.KeptForm;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Runs for the operator, across apps: search them, read one whole (every node's inputs, outputs, error and time,
 * and its stream's events), stop it, run it again. The run's fields are those of Dify's run detail, with the app
 * and end user beside them.
 */
public final class AdminRunRoutes implements RouteGroup {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final AdminAuthorization admin;
    private final InspectRunsUseCase inspect;
    private final ControlRunUseCase control;
    private final AnswerFormUseCase forms;

    public AdminRunRoutes(AdminAuthorization admin, InspectRunsUseCase inspect, ControlRunUseCase control,
            AnswerFormUseCase forms) {
        this.forms = forms;
        this.admin = admin;
        this.inspect = inspect;
        this.control = control;
    }

    @Override
    public void addTo(RoutesConfig routes) {
        routes.get("/admin/runs", admin.require(this::search));
        routes.get("/admin/runs/{run_id}", admin.require(this::detail));
        routes.post("/admin/runs/{run_id}/stop", admin.require(this::stop));
        routes.post("/admin/runs/{run_id}/rerun", admin.require(this::rerun));
        routes.get("/admin/forms", admin.require(this::waitingForms));
    }

    /** Every app's forms waiting for a person, newest first, or one app's with {@code app_id}. */
    private void waitingForms(Context ctx) {
        json(ctx, 200, Map.of("data", forms.waiting(text(ctx, "app_id"), QueryNumbers.number(ctx, "limit", 20))
                .stream().map(AdminRunRoutes::form).toList()));
    }

    private static Map<String, Object> form(KeptForm kept) {
        Map<String, Object> item = new LinkedHashMap<>(HumanInputWire.waiting(kept));
        item.put("app_id", kept.appId());
        return item;
    }

    private void search(Context ctx) {
        RunList list = inspect.search(new RunsQuery(text(ctx, "app_id"), text(ctx, "mode"), text(ctx, "status"),
                text(ctx, "user"), QueryTimes.time(ctx, "created_at__after"),
                QueryTimes.time(ctx, "created_at__before"), text(ctx, "keyword"), text(ctx, "cursor"),
                QueryNumbers.number(ctx, "limit", 20)));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("limit", list.limit());
        body.put("has_more", list.hasMore());
        body.put("next_cursor", list.nextCursor());
        body.put("data", list.data().stream().map(AdminRunRoutes::item).toList());
        json(ctx, 200, body);
    }

    private void detail(Context ctx) {
        RunDetail detail = inspect.detail(ctx.pathParam("run_id"));
        Map<String, Object> body = item(detail.run());
        body.put("node_executions", detail.nodeExecutions().stream().map(DifyWire::nodeExecution).toList());
        body.put("events", detail.events().stream().map(AdminRunRoutes::event).toList());
        // A paused run waits on these forms; their tokens let the operator answer them for a person.
        body.put("forms", forms.waitingOf(detail.run().appId(), detail.run().run().id()).stream()
                .map(AdminRunRoutes::form).toList());
        json(ctx, 200, body);
    }

    private void stop(Context ctx) {
        boolean stopped = control.stop(ctx.pathParam("run_id"));
        json(ctx, 200, Map.of("result", "success", "stopped", stopped));
    }

    /** {@code {"version": "same"}} (the default) runs the run's own version again, {@code "newest"} the app's. */
    private void rerun(Context ctx) {
        String version = "same";
        if (!ctx.body().isBlank()) {
            try {
                JsonNode given = JSON.readTree(ctx.body());
                version = given.path("version").asText("same");
            } catch (IOException e) {
                throw HttpRefusal.invalid("Send {\"version\": \"same\"} or {\"version\": \"newest\"}, or no body");
            }
        }
        if (!version.equals("same") && !version.equals("newest")) {
            throw HttpRefusal.invalid("version must be \"same\" or \"newest\"");
        }
        RunUnderWay run = control.rerun(ctx.pathParam("run_id"), version.equals("same"));
        json(ctx, 202, Map.of("workflow_run_id", run.runId(), "task_id", run.taskId()));
    }

    /** A run as Dify's run detail shows it, with its app, task, version, end user and trace. */
    private static Map<String, Object> item(RunItem item) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("app", app(item));
        body.put("task_id", item.taskId());
        body.put("version", item.version());
        body.put("end_user", Map.of("id", item.endUser().id(), "session_id", item.endUser().sessionId()));
        body.putAll(DifyWire.finishedData(item.run()));
        body.remove("files");
        body.remove("created_by");
        body.put("inputs", DifyWire.wire(item.run().inputs()));
        // The OpenTelemetry trace of the run's spans, to look up in the tracing backend; null when not traced.
        body.put("trace_id", item.traceId());
        return body;
    }

    private static Map<String, Object> app(RunItem item) {
        Map<String, Object> app = new LinkedHashMap<>();
        app.put("id", item.appId());
        app.put("name", item.appName());
        app.put("mode", item.appMode());
        return app;
    }

    /** A kept event as its stream sent it: its number and its data, read back as JSON. */
    private static Map<String, Object> event(StreamedEvent event) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("seq", event.seq());
        try {
            body.put("data", JSON.readTree(event.data()));
        } catch (JsonProcessingException e) {
            body.put("data", event.data());
        }
        return body;
    }

    private static String text(Context ctx, String name) {
        String value = ctx.queryParam(name);
        return value == null || value.isBlank() ? null : value.strip();
    }

    private static void json(Context ctx, int status, Object body) {
        ctx.status(status).contentType("application/json").result(JsonResponses.json(body));
    }
}
