package dev.hexaflow.adapters.http.serviceapi.workflow;

import static dev.hexaflow.adapters.http.serviceapi.ServiceApiAuthentication.appId;
import static dev.hexaflow.adapters.http.serviceapi.ServiceApiAuthentication.user;

import dev.hexaflow.adapters.http.server.RequestLimits;
import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.http.serviceapi.ServiceApiAuthentication.Access;
import dev.hexaflow.adapters.http.serviceapi.ServiceApiBodies;
import dev.hexaflow.adapters.http.sse.RunEventStream;
import dev.hexaflow.adapters.http.support.JsonRequestBodies;
import dev.hexaflow.adapters.http.support.QueryNumbers;
import dev.hexaflow.adapters.http.wire.HumanInputWire;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.runs.port.in.AnswerFormUseCase;
import dev.hexaflow.application.runs.port.in.FollowRunUseCase;
import dev.hexaflow.application.runs.port.in.FollowRunUseCase.FollowRunQuery;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.time.Duration;
import java.util.Map;

/**
 * A run that waits for a person, as Dify's Service API serves it: its form opened and answered by token
 * ({@code /v1/form/human_input/{token}}), and its events followed again ({@code /v1/workflow/{id}/events}, past a
 * pause with {@code continue_on_pause}); as Hexaflow's extension, the app's runs waiting on a form.
 */
public final class HumanInputRoutes implements RouteGroup {

    private final JsonRequestBodies bodies;
    private final AnswerFormUseCase forms;
    private final FollowRunUseCase follow;
    private final Duration pingInterval;

    public HumanInputRoutes(AnswerFormUseCase forms, FollowRunUseCase follow, Duration pingInterval,
            RequestLimits limits) {
        this.bodies = new JsonRequestBodies(limits);
        this.forms = forms;
        this.follow = follow;
        this.pingInterval = pingInterval;
    }

    @Override
    public void addTo(RoutesConfig routes) {
        routes.get("/v1/form/human_input/{form_token}", this::open, Access.RUN);
        routes.post("/v1/form/human_input/{form_token}", this::answer, Access.RUN);
        routes.get("/v1/workflow/{workflow_run_id}/events", this::events, Access.READ_RUNS);
        routes.get("/v1/workflows/paused", this::paused, Access.READ_RUNS);
    }

    private void open(Context ctx) {
        ServiceApiBodies.json(ctx, 200, HumanInputWire.form(forms.open(appId(ctx), ctx.pathParam("form_token"))));
    }

    private void answer(Context ctx) {
        Map<String, Object> body = bodies.object(ctx);
        Object inputs = body.getOrDefault("inputs", Map.of());
        if (!(inputs instanceof Map<?, ?>)) {
            throw new ApiException(ApiError.INVALID_FORM_DATA, "inputs must be an object");
        }
        Object action = body.get("action");
        if (!(action instanceof String)) {
            throw new ApiException(ApiError.INVALID_FORM_DATA, "Invalid action: " + action);
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> given = (Map<String, Object>) inputs;
        forms.answer(appId(ctx), ctx.pathParam("form_token"), user(ctx, JsonRequestBodies.user(body)),
                (String) action, given);
        ServiceApiBodies.json(ctx, 200, Map.of());
    }

    /**
     * Dify's re-attach: a finished run's end alone; a run under way or paused from after its latest pause, then
     * live, ending at the next pause unless {@code continue_on_pause}; with {@code include_state_snapshot}, every
     * event it has told first. Another end user's run is not found.
     */
    private void events(Context ctx) {
        String user = ctx.queryParam("user");
        if (user == null || user.isBlank()) {
            throw new ApiException(ApiError.INVALID_PARAM, "user is required");
        }
        boolean snapshot = flag(ctx, "include_state_snapshot");
        FollowRunQuery query = new FollowRunQuery(appId(ctx), ctx.pathParam("workflow_run_id"), 0,
                flag(ctx, "continue_on_pause"), !snapshot, user(ctx, user));
        RunEventStream.replay(ctx, pingInterval, follow.follow(query));
    }

    private void paused(Context ctx) {
        int limit = QueryNumbers.number(ctx, "limit", 20);
        ServiceApiBodies.json(ctx, 200, Map.of("data", forms.waiting(appId(ctx), limit).stream()
                .map(HumanInputWire::waiting).toList()));
    }

    private static boolean flag(Context ctx, String name) {
        String value = ctx.queryParam(name);
        return value != null && (value.equalsIgnoreCase("true") || value.equals("1"));
    }
}
