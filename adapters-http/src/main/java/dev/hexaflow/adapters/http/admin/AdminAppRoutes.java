package dev.hexaflow.adapters.http.admin;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.http.serviceapi.SiteBody;
import dev.hexaflow.adapters.http.support.HttpRefusal;
import dev.hexaflow.adapters.http.support.JsonResponses;
import dev.hexaflow.application.apps.port.in.DescribeAppUseCase;
import dev.hexaflow.application.apps.port.in.ExportDslQuery;
import dev.hexaflow.application.apps.port.in.ExportDslUseCase.ExportedDsl;
import dev.hexaflow.application.apps.port.in.ExportDslUseCase;
import dev.hexaflow.application.apps.port.in.ImportAppUseCase.ImportedApp;
import dev.hexaflow.application.apps.port.in.ImportAppUseCase;
import dev.hexaflow.application.apps.port.in.ListAppsUseCase.AppSummary;
import dev.hexaflow.application.apps.port.in.ListAppsUseCase;
import dev.hexaflow.application.apps.port.in.ManageAppKeysUseCase;
import dev.hexaflow.application.apps.port.in.PublishWorkflowUseCase.Published;
import dev.hexaflow.application.apps.port.in.PublishWorkflowUseCase;
import dev.hexaflow.application.apps.port.in.UpdateSiteUseCase;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.webhooks.port.in.ManageWebhooksUseCase;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.app.SiteSettings;
import dev.hexaflow.domain.workflow.InvalidWorkflowException;
import dev.hexaflow.domain.workflow.WorkflowProblem;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * App administration: import, publish and export DSL files, list apps, issue and revoke keys, site settings, the
 * app's settings (its default callback URL).
 */
public final class AdminAppRoutes implements RouteGroup {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final AdminAuthorization admin;
    private final ImportAppUseCase importApp;
    private final ListAppsUseCase listApps;
    private final PublishWorkflowUseCase publish;
    private final ExportDslUseCase exportDsl;
    private final ManageAppKeysUseCase keys;
    private final DescribeAppUseCase describe;
    private final UpdateSiteUseCase updateSite;
    private final ManageWebhooksUseCase webhooks;

    public AdminAppRoutes(AdminAuthorization admin, ImportAppUseCase importApp, ListAppsUseCase listApps,
            PublishWorkflowUseCase publish, ExportDslUseCase exportDsl, ManageAppKeysUseCase keys,
            DescribeAppUseCase describe, UpdateSiteUseCase updateSite, ManageWebhooksUseCase webhooks) {
        this.admin = admin;
        this.importApp = importApp;
        this.listApps = listApps;
        this.publish = publish;
        this.exportDsl = exportDsl;
        this.keys = keys;
        this.describe = describe;
        this.updateSite = updateSite;
        this.webhooks = webhooks;
    }

    @Override
    public void addTo(RoutesConfig routes) {
        routes.post("/admin/apps", admin.require(this::importApp));
        routes.get("/admin/apps", admin.require(this::list));
        routes.put("/admin/apps/{app_id}", admin.require(this::publish));
        routes.post("/admin/apps/{app_id}/keys", admin.require(this::issueKey));
        routes.get("/admin/apps/{app_id}/keys", admin.require(this::listKeys));
        routes.delete("/admin/apps/{app_id}/keys/{key}", admin.require(this::revokeKey));
        routes.put("/admin/apps/{app_id}/site", admin.require(this::site));
        routes.get("/admin/apps/{app_id}/dsl", admin.require(this::exportDsl));
    }

    /**
     * Calls a use case that reads the request's DSL file: a file it refuses is answered 400 {@code invalid_dsl}
     * with every problem.
     */
    private static <T> T readingDsl(Supplier<T> call) {
        try {
            return call.get();
        } catch (InvalidWorkflowException e) {
            List<Problem> problems = e.problems().stream().map(Problem::of).toList();
            throw new HttpRefusal(400, "invalid_dsl", e.getMessage(), Map.of("problems", problems));
        }
    }

    /** One problem of a refused DSL: the node it is in (null for the file as a whole) and what is wrong. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Problem(String nodeId, String title, String message) {

        static Problem of(WorkflowProblem problem) {
            return new Problem(problem.nodeId(), problem.title(), problem.message());
        }
    }

    private void importApp(Context ctx) {
        ImportedApp imported = readingDsl(() -> importApp.importApp(ctx.bodyAsBytes()));
        json(ctx, 201, new Imported(imported.appId(), imported.workflowId(), imported.apiKey(), imported.siteCode(),
                imported.warnings()));
    }

    private void list(Context ctx) {
        Map<String, String> callbacks = webhooks.defaultCallbacks();
        json(ctx, 200, new AppList(listApps.list().stream()
                .map(app -> AppListItem.of(app, callbacks.get(app.appId()))).toList()));
    }

    /**
     * A DSL file publishes a new version; a JSON object of app settings only ({@code callback_url}, null to
     * clear) changes those and answers them. A DSL always names its {@code app} and {@code workflow}, so the two
     * never meet.
     */
    private void publish(Context ctx) {
        Optional<Map<String, Object>> settings = settingsOnly(ctx.bodyAsBytes());
        if (settings.isPresent()) {
            Object url = settings.get().get("callback_url");
            if (url != null && !(url instanceof String)) {
                throw new ApiException(dev.hexaflow.application.common.ApiError.INVALID_PARAM,
                        "callback_url must be an http or https URL, or null");
            }
            String appId = ctx.pathParam("app_id");
            json(ctx, 200, new AppSettings(appId, webhooks.setDefaultCallback(appId, (String) url).orElse(null)));
            return;
        }
        Published published = readingDsl(() -> publish.publish(ctx.pathParam("app_id"), ctx.bodyAsBytes()));
        json(ctx, 200, new PublishedVersion(published.workflowId(), published.version(), published.isNew(),
                published.warnings()));
    }

    /** The body as app settings, when it is a JSON object whose keys are all settings' (and one at least). */
    private static Optional<Map<String, Object>> settingsOnly(byte[] body) {
        int i = 0;
        while (i < body.length && Character.isWhitespace(body[i])) {
            i++;
        }
        if (i == body.length || body[i] != '{') {
            return Optional.empty();
        }
        try {
            Object parsed = JSON.readValue(body, Object.class);
            if (parsed instanceof Map<?, ?> map && !map.isEmpty() && APP_SETTINGS.containsAll(map.keySet())) {
                @SuppressWarnings("unchecked")
                Map<String, Object> settings = (Map<String, Object>) map;
                return Optional.of(settings);
            }
        } catch (IOException e) {
            return Optional.empty(); // not JSON: the DSL reader says what is wrong with it
        }
        return Optional.empty();
    }

    private static final java.util.Set<String> APP_SETTINGS = java.util.Set.of("callback_url");

    /** The DSL as imported, as a YAML file the import (here or in Dify) takes back. */
    private void exportDsl(Context ctx) {
        ExportedDsl exported = exportDsl.export(new ExportDslQuery(ctx.pathParam("app_id"),
                Optional.ofNullable(ctx.queryParam("workflow_id"))));
        ctx.header("X-Workflow-Id", exported.workflowId());
        ctx.header("Content-Disposition", "attachment; filename=\"" + exported.appId() + ".yml\"");
        ctx.contentType("application/yaml; charset=utf-8").result(exported.dsl());
    }

    private void issueKey(Context ctx) {
        String key = keys.issue(ctx.pathParam("app_id"));
        json(ctx, 201, new IssuedKey(key));
    }

    /** The app's keys, masked: never a key itself, which was shown once when issued. */
    private void listKeys(Context ctx) {
        json(ctx, 200, Map.of("data", keys.list(ctx.pathParam("app_id")).stream().map(KeyItem::of).toList()));
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record KeyItem(String id, String hint, long createdAt, Long lastUsedAt) {

        static KeyItem of(ManageAppKeysUseCase.KeyInfo key) {
            return new KeyItem(key.id(), key.hint(), key.createdAt(), key.lastUsedAt());
        }
    }

    private void revokeKey(Context ctx) {
        keys.revoke(ctx.pathParam("app_id"), ctx.pathParam("key"));
        json(ctx, 200, new Result("success"));
    }

    /**
     * Site settings as /v1/site shows them, and {@code enable_site} to turn the app's web page on or off; fields
     * left out keep their values. Answers the settings with the page's code and whether it is on.
     */
    private void site(Context ctx) throws IOException {
        App app = describe.app(ctx.pathParam("app_id"));
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
            throw HttpRefusal.invalid("Send the site settings as a JSON object");
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
            throw HttpRefusal.invalid(e.getMessage());
        }
        updateSite.update(app.id(), next);
        if (enabled != app.siteEnabled()) {
            updateSite.enable(app.id(), enabled);
        }
        json(ctx, 200, new Site(SiteBody.of(next), app.siteCode(), enabled));
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

    private static void json(Context ctx, int status, Object body) {
        ctx.status(status).contentType("application/json").result(JsonResponses.json(body));
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Imported(String appId, String workflowId, String apiKey, String siteCode, List<String> warnings) {
    }

    record AppList(List<AppListItem> data) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record AppListItem(String appId, String name, String mode, String workflowId, String version, String siteCode,
            boolean enableSite, long createdAt, List<String> warnings, String callbackUrl) {

        static AppListItem of(AppSummary app, String callbackUrl) {
            return new AppListItem(app.appId(), app.name(), app.mode(), app.workflowId(), app.version(),
                    app.siteCode(), app.siteEnabled(), app.createdAt(), app.warnings(), callbackUrl);
        }
    }

    /** An app's settings as {@code PUT /admin/apps/{id}} sets them. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record AppSettings(String appId, String callbackUrl) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record PublishedVersion(String workflowId, String version, boolean published, List<String> warnings) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record IssuedKey(String apiKey) {
    }

    record Result(String result) {
    }

    /** The page settings as /v1/site shows them, with the page's code and whether it is on. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Site(@JsonUnwrapped SiteBody settings, String siteCode, boolean enableSite) {
    }
}
