package dev.hexaflow.adapters.http.admin;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.hexaflow.adapters.http.server.RequestLimits;
import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.http.support.JsonRequestBodies;
import dev.hexaflow.adapters.http.support.JsonResponses;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.triggers.port.in.ManageTriggersUseCase;
import dev.hexaflow.application.triggers.port.in.ManageTriggersUseCase.TriggerView;
import dev.hexaflow.domain.trigger.MissedTicks;
import dev.hexaflow.domain.trigger.Trigger;
import dev.hexaflow.domain.trigger.WebhookAuth;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.List;
import java.util.Map;

/**
 * An app's triggers for the operator: each with its URL or its next fire times and latest ticks, switched on and
 * off, a schedule's policy for missed ticks, a webhook's authentication (its secret never shown again) and a new
 * URL (the old one stops at once).
 */
public final class AdminTriggerRoutes implements RouteGroup {

    private final AdminAuthorization admin;
    private final ManageTriggersUseCase triggers;
    private final JsonRequestBodies bodies = new JsonRequestBodies(RequestLimits.DEFAULTS);

    public AdminTriggerRoutes(AdminAuthorization admin, ManageTriggersUseCase triggers) {
        this.admin = admin;
        this.triggers = triggers;
    }

    @Override
    public void addTo(RoutesConfig routes) {
        // Each path written out whole: DocumentsTest reads the admin routes from these calls.
        routes.get("/admin/apps/{app_id}/triggers", admin.require(this::list));
        routes.get("/admin/apps/{app_id}/triggers/{node_id}", admin.require(ctx -> json(ctx,
                triggers.get(appId(ctx), nodeId(ctx)))));
        routes.post("/admin/apps/{app_id}/triggers/{node_id}/enable", admin.require(ctx -> json(ctx,
                triggers.setEnabled(appId(ctx), nodeId(ctx), true))));
        routes.post("/admin/apps/{app_id}/triggers/{node_id}/disable", admin.require(ctx -> json(ctx,
                triggers.setEnabled(appId(ctx), nodeId(ctx), false))));
        routes.put("/admin/apps/{app_id}/triggers/{node_id}/missed-ticks", admin.require(this::missedTicks));
        routes.put("/admin/apps/{app_id}/triggers/{node_id}/auth", admin.require(this::auth));
        routes.post("/admin/apps/{app_id}/triggers/{node_id}/new-url", admin.require(ctx -> json(ctx,
                triggers.newUrl(appId(ctx), nodeId(ctx)))));
    }

    private void list(Context ctx) {
        List<TriggerBody> data = triggers.list(appId(ctx)).stream().map(TriggerBody::of).toList();
        ctx.status(200).contentType("application/json").result(JsonResponses.json(Map.of("data", data)));
    }

    /** {@code {"policy": "skip" | "run_once"}}. */
    private void missedTicks(Context ctx) {
        String policy = text(bodies.object(ctx), "policy");
        try {
            json(ctx, triggers.setMissedTicks(appId(ctx), nodeId(ctx), MissedTicks.fromWireName(policy)));
        } catch (IllegalArgumentException e) {
            throw new ApiException(ApiError.INVALID_PARAM, e.getMessage());
        }
    }

    /** {@code {"kind": "none" | "header" | "bearer" | "hmac", "header": NAME, "secret": SECRET}}. */
    private void auth(Context ctx) {
        Map<String, Object> body = bodies.object(ctx);
        WebhookAuth auth;
        try {
            auth = new WebhookAuth(WebhookAuth.Kind.fromWireName(text(body, "kind")), optional(body, "header"),
                    optional(body, "secret"));
        } catch (IllegalArgumentException e) {
            throw new ApiException(ApiError.INVALID_PARAM, e.getMessage());
        }
        json(ctx, triggers.setAuth(appId(ctx), nodeId(ctx), auth));
    }

    private static String text(Map<String, Object> body, String name) {
        if (!(body.get(name) instanceof String text) || text.isBlank()) {
            throw new ApiException(ApiError.INVALID_PARAM, name + " is required");
        }
        return text;
    }

    private static String optional(Map<String, Object> body, String name) {
        Object value = body.get(name);
        if (value != null && !(value instanceof String)) {
            throw new ApiException(ApiError.INVALID_PARAM, name + " must be a string");
        }
        return (String) value;
    }

    private static String appId(Context ctx) {
        return ctx.pathParam("app_id");
    }

    private static String nodeId(Context ctx) {
        return ctx.pathParam("node_id");
    }

    private static void json(Context ctx, TriggerView view) {
        ctx.status(200).contentType("application/json").result(JsonResponses.json(TriggerBody.of(view)));
    }

    /**
     * A trigger as the operator sees it: {@code kind} in Dify's words ({@code schedule}, {@code webhook},
     * {@code plugin}); {@code url_path} for a webhook or a plugin trigger; a schedule's cron, zone and next fire
     * times (Unix seconds); the authentication's kind and header, never its secret; the latest ticks.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record TriggerBody(String id, String nodeId, String kind, String title, boolean enabled, String urlPath,
            String cron, String timezone, List<Long> nextFires, String missedTicks, String authKind,
            String authHeader, List<TickBody> ticks) {

        static TriggerBody of(TriggerView view) {
            Trigger t = view.trigger();
            boolean schedule = t.schedule() != null;
            return new TriggerBody(t.id(), t.nodeId(), t.kind().triggeredFrom(), t.title(), t.enabled(), view.path(),
                    schedule ? t.schedule().cron() : null, schedule ? t.schedule().zone().getId() : null,
                    view.nextFires(), schedule ? t.missedTicks().wireName() : null, t.auth().kind().wireName(),
                    t.auth().headerName(), view.ticks().stream().map(tick -> new TickBody(tick.dueAt(),
                            tick.firedAt(), tick.outcome().name().toLowerCase(java.util.Locale.ROOT), tick.runId()))
                            .toList());
        }
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record TickBody(long dueAt, long firedAt, String outcome, String workflowRunId) {
    }
}
