package dev.hexaflow.adapters.http.admin;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.hexaflow.adapters.http.server.RequestLimits;
import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.http.support.JsonRequestBodies;
import dev.hexaflow.adapters.http.support.JsonResponses;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.mcpserver.port.in.ManageMcpServerUseCase;
import dev.hexaflow.application.mcpserver.port.in.ManageMcpServerUseCase.McpServerView;
import dev.hexaflow.domain.mcpserver.AppMcpServer;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An app's MCP server for the operator, as Dify's console sets it ({@code /apps/{id}/server} and its refresh):
 * shown with its URL, switched on (made at the first switch) and off, described, and given a new URL (the old one
 * stops at once).
 */
public final class AdminMcpServerRoutes implements RouteGroup {

    private final AdminAuthorization admin;
    private final ManageMcpServerUseCase servers;
    private final JsonRequestBodies bodies = new JsonRequestBodies(RequestLimits.DEFAULTS);

    public AdminMcpServerRoutes(AdminAuthorization admin, ManageMcpServerUseCase servers) {
        this.admin = admin;
        this.servers = servers;
    }

    @Override
    public void addTo(RoutesConfig routes) {
        // Each path written out whole: DocumentsTest reads the admin routes from these calls.
        routes.get("/admin/apps/{app_id}/mcp-server", admin.require(ctx -> json(ctx, servers.show(appId(ctx)))));
        routes.put("/admin/apps/{app_id}/mcp-server", admin.require(this::describe));
        routes.post("/admin/apps/{app_id}/mcp-server/enable", admin.require(ctx -> json(ctx,
                servers.setEnabled(appId(ctx), true))));
        routes.post("/admin/apps/{app_id}/mcp-server/disable", admin.require(ctx -> json(ctx,
                servers.setEnabled(appId(ctx), false))));
        routes.post("/admin/apps/{app_id}/mcp-server/new-url", admin.require(ctx -> json(ctx,
                servers.newUrl(appId(ctx)))));
    }

    /** {@code {"description": TEXT, "parameters": {VARIABLE: TEXT}}}, as Dify's console sends them. */
    private void describe(Context ctx) {
        Map<String, Object> body = bodies.object(ctx);
        Object description = body.get("description");
        if (description != null && !(description instanceof String)) {
            throw new ApiException(ApiError.INVALID_PARAM, "description must be a string");
        }
        Object given = body.get("parameters");
        if (given != null && !(given instanceof Map<?, ?>)) {
            throw new ApiException(ApiError.INVALID_PARAM, "parameters must be an object of descriptions");
        }
        Map<String, String> parameters = new LinkedHashMap<>();
        if (given instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                if (!(entry.getValue() instanceof String text)) {
                    throw new ApiException(ApiError.INVALID_PARAM, "parameters." + entry.getKey()
                            + " must be a string");
                }
                parameters.put(String.valueOf(entry.getKey()), text);
            }
        }
        json(ctx, servers.describe(appId(ctx), (String) description, parameters));
    }

    private static String appId(Context ctx) {
        return ctx.pathParam("app_id");
    }

    private static void json(Context ctx, McpServerView view) {
        ctx.status(200).contentType("application/json").result(JsonResponses.json(ServerBody.of(view)));
    }

    /**
     * Dify's {@code AppMCPServerResponse} (its {@code name} is the tool's, the app's name), with the app and the
     * path callers are given; the fields of a server are null while the app has none.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record ServerBody(String appId, String id, String name, String serverCode, String urlPath, String description,
            String status, boolean enabled, Map<String, String> parameters, Long createdAt, Long updatedAt) {

        static ServerBody of(McpServerView view) {
            AppMcpServer s = view.server();
            if (s == null) {
                return new ServerBody(view.appId(), null, view.toolName(), null, null, null, "inactive", false,
                        Map.of(), null, null);
            }
            return new ServerBody(view.appId(), s.id(), view.toolName(), s.code(), s.path(), s.description(),
                    s.status(), s.enabled(), s.parameters(), s.createdAt(), s.updatedAt());
        }
    }
}
