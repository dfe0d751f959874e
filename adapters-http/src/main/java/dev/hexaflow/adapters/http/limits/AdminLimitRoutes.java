package dev.hexaflow.adapters.http.limits;

import dev.hexaflow.adapters.http.admin.AdminAuthorization;
import dev.hexaflow.adapters.http.server.RequestLimits;
import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.http.support.JsonRequestBodies;
import dev.hexaflow.adapters.http.support.JsonResponses;
import dev.hexaflow.application.limits.port.in.ManageLimitsUseCase;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An app's limits for the operator: shown (its own, or the defaults it has), set whole, and reset to the
 * server's defaults.
 */
public final class AdminLimitRoutes implements RouteGroup {

    private final AdminAuthorization admin;
    private final ManageLimitsUseCase limits;
    private final JsonRequestBodies bodies = new JsonRequestBodies(RequestLimits.DEFAULTS);

    public AdminLimitRoutes(AdminAuthorization admin, ManageLimitsUseCase limits) {
        this.admin = admin;
        this.limits = limits;
    }

    @Override
    public void addTo(RoutesConfig routes) {
        // Each path written out whole: DocumentsTest reads the admin routes from these calls.
        routes.get("/admin/apps/{app_id}/limits", admin.require(this::show));
        routes.put("/admin/apps/{app_id}/limits", admin.require(ctx -> {
            limits.set(appId(ctx), LimitsJson.read(bodies.object(ctx)));
            show(ctx);
        }));
        routes.delete("/admin/apps/{app_id}/limits", admin.require(ctx -> {
            limits.reset(appId(ctx));
            show(ctx);
        }));
    }

    /** {@code {app_id, own, limits}}: the limits in force, and whether they are the app's own. */
    private void show(Context ctx) {
        ManageLimitsUseCase.LimitsView view = limits.view(appId(ctx));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("app_id", view.appId());
        body.put("own", view.own());
        body.put("limits", LimitsJson.of(view.limits()));
        ctx.status(200).contentType("application/json").result(JsonResponses.json(body));
    }

    private static String appId(Context ctx) {
        return ctx.pathParam("app_id");
    }
}
