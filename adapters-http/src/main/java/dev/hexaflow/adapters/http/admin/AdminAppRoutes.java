package dev.hexaflow.adapters.http.admin;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.adapters.http.JsonResponses;
import dev.hexaflow.adapters.http.RouteGroup;
import dev.hexaflow.adapters.http.workflow.SiteWire;
import dev.hexaflow.application.app.port.in.ApiException;
import dev.hexaflow.application.app.port.in.ExportDslQuery;
import dev.hexaflow.application.app.port.in.ExportDslUseCase.ExportedDsl;
import dev.hexaflow.application.app.port.in.ImportAppUseCase.ImportedApp;
import dev.hexaflow.application.app.port.in.ListAppsUseCase.AppSummary;
import dev.hexaflow.application.app.port.in.PublishWorkflowUseCase.Published;
import dev.hexaflow.application.app.service.AppServices;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.app.SiteSettings;
import dev.hexaflow.domain.workflow.InvalidWorkflowException;
import dev.hexaflow.domain.workflow.WorkflowProblem;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * App administration: import, publish and export DSL files, list apps, issue and revoke keys, site settings.
 */
public final class AdminAppRoutes implements RouteGroup {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final AdminAuthorization admin;
    private final AppServices services;

    public AdminAppRoutes(AdminAuthorization admin, AppServices services) {
        this.admin = admin;
        this.services = services;
    }

    @Override
    public void addTo(RoutesConfig routes) {
        routes.post("/admin/apps", guarded(this::importApp));
        routes.get("/admin/apps", guarded(this::list));
        routes.put("/admin/apps/{app_id}", guarded(this::publish));
        routes.post("/admin/apps/{app_id}/keys", guarded(this::issueKey));
        routes.delete("/admin/apps/{app_id}/keys/{key}", guarded(this::revokeKey));
        routes.put("/admin/apps/{app_id}/site", guarded(this::site));
        routes.get("/admin/apps/{app_id}/dsl", guarded(this::exportDsl));
    }

    /** The admin token, then the handler; refusals in the JSON error shape, a bad DSL with every problem. */
    private Handler guarded(Handler handler) {
        return admin.require(ctx -> {
            try {
                handler.handle(ctx);
            } catch (ApiException e) {
                JsonResponses.error(ctx, e.error().status(), e.error().code(), e.getMessage());
            } catch (InvalidWorkflowException e) {
                List<Map<String, Object>> problems = e.problems().stream().map(AdminAppRoutes::problem).toList();
                JsonResponses.error(ctx, 400, "invalid_dsl", e.getMessage(), Map.of("problems", problems));
            }
        });
    }

    private static Map<String, Object> problem(WorkflowProblem problem) {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("node_id", problem.nodeId());
        map.put("title", problem.title());
        map.put("message", problem.message());
        return map;
    }

    private void importApp(Context ctx) {
        ImportedApp imported = services.importApp.importApp(ctx.bodyAsBytes());
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("app_id", imported.appId());
        body.put("workflow_id", imported.workflowId());
        body.put("api_key", imported.apiKey());
        body.put("site_code", imported.siteCode());
        ctx.status(201).contentType("application/json").result(JsonResponses.json(body));
    }

    private void list(Context ctx) {
        List<Map<String, Object>> apps = services.listApps.list().stream().map(AdminAppRoutes::summary).toList();
        ctx.contentType("application/json").result(JsonResponses.json(Map.of("data", apps)));
    }

    private static Map<String, Object> summary(AppSummary app) {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("app_id", app.appId());
        map.put("name", app.name());
        map.put("mode", app.mode());
        map.put("workflow_id", app.workflowId());
        map.put("version", app.version());
        map.put("site_code", app.siteCode());
        map.put("enable_site", app.siteEnabled());
        map.put("created_at", app.createdAt());
        return map;
    }

    private void publish(Context ctx) {
        Published published = services.publish.publish(ctx.pathParam("app_id"), ctx.bodyAsBytes());
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("workflow_id", published.workflowId());
        body.put("version", published.version());
        body.put("published", published.isNew());
        ctx.contentType("application/json").result(JsonResponses.json(body));
    }

    /** The DSL as imported, as a YAML file the import (here or in Dify) takes back. */
    private void exportDsl(Context ctx) {
        ExportedDsl exported = services.exportDsl.export(new ExportDslQuery(ctx.pathParam("app_id"),
                Optional.ofNullable(ctx.queryParam("workflow_id"))));
        ctx.header("X-Workflow-Id", exported.workflowId());
        ctx.header("Content-Disposition", "attachment; filename=\"" + exported.appId() + ".yml\"");
        ctx.contentType("application/yaml; charset=utf-8").result(exported.dsl());
    }

    private void issueKey(Context ctx) {
        String key = services.keys.issue(ctx.pathParam("app_id"));
        ctx.status(201).contentType("application/json").result(JsonResponses.json(Map.of("api_key", key)));
    }

    private void revokeKey(Context ctx) {
        services.keys.revoke(ctx.pathParam("app_id"), ctx.pathParam("key"));
        ctx.contentType("application/json").result("{\"result\":\"success\"}");
    }

    /**
     * Site settings as /v1/site shows them, and {@code enable_site} to turn the app's web page on or off; fields
     * left out keep their values. Answers the settings with the page's code and whether it is on.
     */
    private void site(Context ctx) throws IOException {
        App app = services.describe.app(ctx.pathParam("app_id"));
        SiteSettings current = app.site();
        Map<String, Object> given;
        try {
            Object parsed = JSON.readValue(ctx.bodyAsBytes(), Object.class);
            if (!(parsed instanceof Map<?, ?>)) {
                throw new IllegalArgumentException("not an object");
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> map = (Map<String, Object>) parsed;
            given = map;
        } catch (IOException | IllegalArgumentException e) {
            JsonResponses.error(ctx, 400, "invalid_param", "Send the site settings as a JSON object");
            return;
        }
        SiteSettings next;
        boolean enabled;
        try {
            enabled = flag(given, "enable_site", app.siteEnabled());
            next = new SiteSettings(text(given, "title", current.title()),
                    text(given, "icon_type", current.iconType()), text(given, "icon", current.icon()),
                    text(given, "icon_background", current.iconBackground()),
                    text(given, "icon_url", current.iconUrl()), text(given, "description", current.description()),
                    text(given, "copyright", current.copyright()),
                    text(given, "privacy_policy", current.privacyPolicy()),
                    text(given, "custom_disclaimer", current.customDisclaimer()),
                    text(given, "default_language", current.defaultLanguage()),
                    flag(given, "show_workflow_steps", current.showWorkflowSteps()),
                    flag(given, "use_icon_as_answer_icon", current.useIconAsAnswerIcon()));
        } catch (IllegalArgumentException e) {
            JsonResponses.error(ctx, 400, "invalid_param", e.getMessage());
            return;
        }
        services.updateSite.update(app.id(), next);
        if (enabled != app.siteEnabled()) {
            services.updateSite.enable(app.id(), enabled);
        }
        Map<String, Object> body = new LinkedHashMap<>(SiteWire.site(next));
        body.put("site_code", app.siteCode());
        body.put("enable_site", enabled);
        ctx.contentType("application/json").result(JsonResponses.json(body));
    }

    private static String text(Map<String, Object> given, String key, String otherwise) {
        if (!given.containsKey(key)) {
            return otherwise;
        }
        Object value = given.get(key);
        if (value != null && !(value instanceof String)) {
            throw new IllegalArgumentException(key + " must be text");
        }
        return (String) value;
    }

    private static boolean flag(Map<String, Object> given, String key, boolean otherwise) {
        Object value = given.get(key);
        if (value == null) {
            return otherwise;
        }
        if (!(value instanceof Boolean b)) {
            throw new IllegalArgumentException(key + " must be true or false");
        }
        return b;
    }
}
