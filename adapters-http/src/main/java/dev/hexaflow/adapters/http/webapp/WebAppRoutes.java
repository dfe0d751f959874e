package dev.hexaflow.adapters.http.webapp;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.http.support.JsonResponses;
import dev.hexaflow.adapters.http.support.ResponseBodies;
import dev.hexaflow.application.apps.port.in.WebAppUseCase.WebToken;
import dev.hexaflow.application.apps.port.in.WebAppUseCase;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.workflow.AppInfo;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;

/**
 * Each app's web page: {@code GET /apps/{site_code}} serves the page (a chat for a chatflow, chatbot or agent, a
 * form for a workflow, a form and its streamed answer for a text generator), {@code POST /apps/{site_code}/token} hands it a short-lived token for the app's {@code /v1} API, that
 * acts for the browser's own web user only, and {@code /web/...} its scripts and style. The page itself is a shell; it reads the app's site, form, runs and
 * conversations through {@code /v1} as any client does. {@code GET /} is the server's own page: what it serves
 * and where to read more, under the same headers.
 */
public final class WebAppRoutes implements RouteGroup {

    /** One mapper for every request: a mapper made per request finds its deserializers anew each time. */
    private static final ObjectMapper JSON = ResponseBodies.jsonMapper();

    /**
     * The page runs only its own script and style, talks only to this server, and shows images from here, from
     * data URLs or from https (an app's icon may be an image elsewhere); nothing in an output can run.
     */
    static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; "
            + "img-src 'self' data: https:; connect-src 'self'; form-action 'none'; base-uri 'none'; "
            + "frame-ancestors 'self'";

    private final WebAppUseCase webApp;
    private final WebAssets assets = WebAssets.load();

    public WebAppRoutes(WebAppUseCase webApp) {
        this.webApp = webApp;
    }

    @Override
    public void addTo(RoutesConfig routes) {
        routes.get("/apps/{site_code}", this::page);
        routes.post("/apps/{site_code}/token", this::token);
        routes.get("/web/{file}", this::asset);
        routes.get("/", this::landing);
    }

    private void landing(Context ctx) {
        secure(ctx);
        ctx.header("Cache-Control", "no-cache");
        ResponseBodies.write(ctx, 200, "text/html; charset=utf-8", assets.landingPage());
    }

    private void page(Context ctx) {
        secure(ctx);
        ctx.header("Cache-Control", "no-store");
        App app;
        try {
            app = webApp.open(ctx.pathParam("site_code"));
        } catch (ApiException e) {
            ResponseBodies.write(ctx, 404, "text/html; charset=utf-8", assets.notFoundPage(e.getMessage()));
            return;
        }
        String title = app.site().title() == null || app.site().title().isBlank() ? app.name() : app.site().title();
        WebAssets.Page kind = AppInfo.CONVERSATION_MODES.contains(app.mode()) ? WebAssets.Page.CHAT
                : AppInfo.COMPLETION_MODE.equals(app.mode()) ? WebAssets.Page.COMPLETION : WebAssets.Page.WORKFLOW;
        ResponseBodies.write(ctx, 200, "text/html; charset=utf-8", assets.page(kind, app.siteCode(), title,
                app.site().defaultLanguage()));
    }

    private void token(Context ctx) {
        ctx.header("Cache-Control", "no-store");
        WebToken token = webApp.issueToken(ctx.pathParam("site_code"), requestedUser(ctx));
        ResponseBodies.write(ctx, 201, "application/json", JsonResponses.json(new TokenBody(token.token(),
                "Bearer", token.expiresAt(), token.user())).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The web user the page keeps, from the optional JSON body {@code {"user": ...}}; a body that is absent or
     * unreadable names none, and the page gets a new user, as a first visit does.
     */
    private static String requestedUser(Context ctx) {
        try {
            byte[] bytes = ctx.bodyAsBytes();
            if (bytes.length == 0) {
                return null;
            }
            return JSON.readValue(bytes, Object.class) instanceof Map<?, ?> body
                    && body.get("user") instanceof String user ? user : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The token's answer: the page keeps {@code user} and names it in every request. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record TokenBody(String accessToken, String tokenType, long expiresAt, String user) {
    }

    private void asset(Context ctx) {
        Optional<WebAssets.Asset> asset = assets.find(ctx.pathParam("file"));
        if (asset.isEmpty()) {
            JsonResponses.error(ctx, 404, "not_found", "The requested URL was not found on the server.");
            return;
        }
        secure(ctx);
        // The page names each file with its digest, so a name read once stays right; a change gets a new name.
        // Asked for under another digest (a page from before an upgrade), the file is today's and kept no longer.
        boolean current = asset.get().digest().equals(ctx.queryParam("v"));
        ctx.header("Cache-Control", current ? "public, max-age=31536000, immutable" : "no-cache");
        ResponseBodies.write(ctx, 200, asset.get().contentType(), asset.get().bytes());
    }

    /** The headers every page and file of ours carries: its CSP, no sniffing, no referrer. */
    static void secure(Context ctx) {
        ctx.header("Content-Security-Policy", CONTENT_SECURITY_POLICY);
        ctx.header("X-Content-Type-Options", "nosniff");
        // The page's address holds its code: links out (the privacy policy, links in outputs) do not carry it.
        ctx.header("Referrer-Policy", "no-referrer");
    }

    static byte[] resource(String name) {
        try (InputStream in = WebAppRoutes.class.getResourceAsStream("/web/" + name)) {
            if (in == null) {
                throw new IllegalStateException("the jar has no web/" + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
