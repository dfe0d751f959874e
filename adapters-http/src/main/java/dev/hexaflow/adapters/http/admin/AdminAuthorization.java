package dev.hexaflow.adapters.http.admin;

import dev.hexaflow.adapters.http.server.RefusedCredentials;
import dev.hexaflow.adapters.http.server.RefusedCredentials.Credential;
import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.http.server.UnreadBodies;
import dev.hexaflow.adapters.http.support.JsonResponses;
import dev.hexaflow.domain.secret.SecretHash;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import java.util.function.Supplier;

/**
 * Lets a request through to an admin handler only with {@code Authorization: Bearer <admin token>}. Mounted as a
 * route group, it refuses every request under /admin without the token before any route is looked for: HEAD and
 * OPTIONS, methods a route does not take and paths no route has get the same 401, never a 200, 404 or 405 that
 * tells what is there.
 */
public final class AdminAuthorization implements RouteGroup {

    /** How much of a refused request's body is read and dropped before its connection is closed instead. */
    static final long REFUSED_BODY_BYTES = 1024 * 1024;

    private final Supplier<SecretHash> adminToken;
    private final RefusedCredentials refusals;

    public AdminAuthorization(SecretHash adminToken) {
        this(() -> adminToken, new RefusedCredentials());
    }

    /**
     * @param adminToken the admin token's hash, asked for at each request: where instances share it through their
     *                   store, it is known once the store is ready, which every request waits for
     * @param refusals   where each refused token is logged, shared with the server's other checks
     */
    public AdminAuthorization(Supplier<SecretHash> adminToken, RefusedCredentials refusals) {
        this.adminToken = adminToken;
        this.refusals = refusals;
    }

    @Override
    public void addTo(RoutesConfig routes) {
        Handler gate = ctx -> {
            if (!isAdmin(ctx)) {
                refuse(ctx);
                ctx.skipRemainingHandlers();
            }
        };
        routes.before("/admin", gate);
        routes.before("/admin/*", gate);
    }

    public Handler require(Handler handler) {
        return ctx -> {
            if (isAdmin(ctx)) {
                handler.handle(ctx);
            } else {
                refuse(ctx);
            }
        };
    }

    private void refuse(Context ctx) {
        String header = ctx.header("Authorization");
        refusals.refused(ctx, Credential.ADMIN_TOKEN, header == null || header.isBlank() ? "no Authorization header"
                : header.regionMatches(true, 0, "Bearer ", 0, 7) ? "the token is not the admin token"
                : "the Authorization header is not a bearer token");
        // The gate skips every later handler, the one that drops an unread body too: drop it here, or a body
        // still arriving when the answer is done gets the connection reset under the 401. A stranger's body is
        // read up to 1 MiB; past that the connection is closed instead.
        UnreadBodies.drain(ctx, REFUSED_BODY_BYTES);
        ctx.header("WWW-Authenticate", "Bearer realm=\"hexaflow-admin\"");
        JsonResponses.error(ctx, 401, "unauthorized",
                "Admin operations need the header Authorization: Bearer <admin token>.");
    }

    private boolean isAdmin(Context ctx) {
        String header = ctx.header("Authorization");
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return false;
        }
        return adminToken.get().matches(header.substring(7).trim());
    }
}
