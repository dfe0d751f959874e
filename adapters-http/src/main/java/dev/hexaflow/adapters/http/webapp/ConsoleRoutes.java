package dev.hexaflow.adapters.http.webapp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.adapters.http.admin.ConsoleSessions;
import dev.hexaflow.adapters.http.admin.ConsoleSessions.Session;
import dev.hexaflow.adapters.http.server.RefusedCredentials;
import dev.hexaflow.adapters.http.server.RefusedCredentials.Credential;
import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.http.support.JsonResponses;
import dev.hexaflow.adapters.http.support.ResponseBodies;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;

/**
 * The operator's console: {@code GET /console} serves its page (its scripts and style come from {@code /web/...});
 * {@code POST /console/session} signs in with the admin token, given as a form field or JSON {@code token}, and
 * sets the session cookie; {@code DELETE /console/session} signs out. The page reads and acts through the admin API,
 * which takes the cookie ({@link dev.hexaflow.adapters.http.admin.AdminAuthorization}).
 */
public final class ConsoleRoutes implements RouteGroup {

    /** One mapper for every request: a mapper made per request finds its deserializers anew each time. */
    private static final ObjectMapper JSON = ResponseBodies.jsonMapper();

    private final ConsoleSessions sessions;
    private final RefusedCredentials refusals;
    private final WebAssets assets = WebAssets.load();

    public ConsoleRoutes(ConsoleSessions sessions, RefusedCredentials refusals) {
        this.sessions = sessions;
        this.refusals = refusals;
    }

    @Override
    public void addTo(RoutesConfig routes) {
        routes.get("/console", this::page);
        routes.post("/console/session", this::signIn);
        routes.delete("/console/session", this::signOut);
    }

    private void page(Context ctx) {
        WebAppRoutes.secure(ctx);
        ctx.header("Cache-Control", "no-cache");
        ResponseBodies.write(ctx, 200, "text/html; charset=utf-8", assets.consolePage());
    }

    private void signIn(Context ctx) {
        WebAppRoutes.secure(ctx);
        ctx.header("Cache-Control", "no-store");
        boolean form = ctx.contentType() != null && ctx.contentType().startsWith("application/x-www-form-urlencoded");
        Optional<Session> session = sessions.open(form ? ctx.formParam("token") : jsonToken(ctx));
        if (session.isEmpty()) {
            refusals.refused(ctx, Credential.ADMIN_TOKEN, "the console sign-in's token is not the admin token");
            JsonResponses.error(ctx, 401, "unauthorized", "That is not the admin token.");
            return;
        }
        ctx.header("Set-Cookie", cookie(ctx, session.get().value(), ConsoleSessions.LASTS.toSeconds()));
        if (form) {
            ctx.status(303).header("Location", "/console");
            return;
        }
        ctx.status(200).contentType("application/json").result(JsonResponses.json(Map.of("result", "success",
                "expires_at", session.get().endsAt())));
    }

    private void signOut(Context ctx) {
        WebAppRoutes.secure(ctx);
        ctx.header("Cache-Control", "no-store");
        sessions.end(ctx.cookie(ConsoleSessions.COOKIE));
        ctx.header("Set-Cookie", cookie(ctx, "", 0));
        ctx.status(200).contentType("application/json").result(JsonResponses.json(Map.of("result", "success")));
    }

    /**
     * The session cookie: never read by scripts, never sent with a request another site starts, only over HTTPS
     * when the console was reached over HTTPS (directly or through a proxy that says so), for every path, since
     * the console's page and the admin API both need it.
     */
    private static String cookie(Context ctx, String value, long maxAgeSeconds) {
        boolean https = "https".equalsIgnoreCase(ctx.scheme())
                || "https".equalsIgnoreCase(ctx.header("X-Forwarded-Proto"));
        return ConsoleSessions.COOKIE + "=" + value + "; Path=/; Max-Age=" + maxAgeSeconds
                + "; HttpOnly; SameSite=Strict" + (https ? "; Secure" : "");
    }

    private static String jsonToken(Context ctx) {
        try {
            JsonNode body = JSON.readTree(ctx.bodyAsBytes());
            return body != null && body.path("token").isTextual() ? body.get("token").asText() : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
