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
import io.javalin.http.HandlerType;
import java.time.Clock;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Lets a request through to an admin handler only with {@code Authorization: Bearer <admin token>}, or from the
 * console with its session cookie ({@link ConsoleSessions}). Mounted as a route group, it refuses every request under
 * /admin without either before any route is looked for: HEAD and OPTIONS, methods a route does not take and paths no
 * route has get the same 401, never a 200, 404 or 405 that tells what is there.
 *
 * <p>A cookie is sent by the browser whoever made the request, so a console request that changes something must
 * also carry {@code X-Hexaflow-Console: 1}, a header a form of another site cannot send and its scripts cannot
 * send here without a CORS answer /admin never gives; and a browser that says the request came from another site
 * ({@code Sec-Fetch-Site}) is refused whatever it carries. Without them: 403. A request with an Authorization header
 * is judged by it alone, as before the console.
 */
public final class AdminAuthorization implements RouteGroup {

    /** How much of a refused request's body is read and dropped before its connection is closed instead. */
    static final long REFUSED_BODY_BYTES = 1024 * 1024;

    /** The header a console request that changes something carries: the console's defence against CSRF. */
    public static final String CONSOLE_HEADER = "X-Hexaflow-Console";

    private static final Set<HandlerType> SAFE = Set.of(HandlerType.GET, HandlerType.HEAD, HandlerType.OPTIONS);

    /** Who a request is, as far as the gate is concerned. */
    private enum Caller {
        ADMIN, CONSOLE, CONSOLE_NOT_FROM_ITS_PAGE, STRANGER
    }

    private final Supplier<SecretHash> adminToken;
    private final RefusedCredentials refusals;
    private final ConsoleSessions console;

    public AdminAuthorization(SecretHash adminToken) {
        this(() -> adminToken, new RefusedCredentials());
    }

    /**
     * @param adminToken the admin token's hash, asked for at each request: where instances share it through their
     *                   store, it is known once the store is ready, which every request waits for
     * @param refusals   where each refused token is logged, shared with the server's other checks
     */
    public AdminAuthorization(Supplier<SecretHash> adminToken, RefusedCredentials refusals) {
        this(adminToken, refusals, new ConsoleSessions(adminToken, Clock.systemUTC()));
    }

    /** @param console the console's sessions, whose cookie also opens /admin */
    public AdminAuthorization(Supplier<SecretHash> adminToken, RefusedCredentials refusals, ConsoleSessions console) {
        this.adminToken = adminToken;
        this.refusals = refusals;
        this.console = console;
    }

    /** The console's sessions, for its sign-in and sign-out. */
    public ConsoleSessions consoleSessions() {
        return console;
    }

    @Override
    public void addTo(RoutesConfig routes) {
        Handler gate = ctx -> {
            if (!letThrough(ctx)) {
                ctx.skipRemainingHandlers();
            }
        };
        routes.before("/admin", gate);
        routes.before("/admin/*", gate);
    }

    public Handler require(Handler handler) {
        return ctx -> {
            if (letThrough(ctx)) {
                handler.handle(ctx);
            }
        };
    }

    /** Whether the request may go on; if not, it has been answered. */
    private boolean letThrough(Context ctx) {
        switch (callerOf(ctx)) {
            case ADMIN, CONSOLE -> {
                return true;
            }
            case CONSOLE_NOT_FROM_ITS_PAGE -> {
                UnreadBodies.drain(ctx, REFUSED_BODY_BYTES);
                JsonResponses.error(ctx, 403, "forbidden", "A console request that changes something must come "
                        + "from the console's own page, with the header " + CONSOLE_HEADER + ": 1.");
                return false;
            }
            default -> {
                refuse(ctx);
                return false;
            }
        }
    }

    private Caller callerOf(Context ctx) {
        String header = ctx.header("Authorization");
        if (header != null) {
            return header.regionMatches(true, 0, "Bearer ", 0, 7)
                    && adminToken.get().matches(header.substring(7).trim()) ? Caller.ADMIN : Caller.STRANGER;
        }
        if (!console.isOpen(ctx.cookie(ConsoleSessions.COOKIE))) {
            return Caller.STRANGER;
        }
        boolean fromElsewhere = "cross-site".equals(ctx.header("Sec-Fetch-Site"))
                || "same-site".equals(ctx.header("Sec-Fetch-Site"));
        if (fromElsewhere || !SAFE.contains(ctx.method()) && !"1".equals(ctx.header(CONSOLE_HEADER))) {
            return Caller.CONSOLE_NOT_FROM_ITS_PAGE;
        }
        return Caller.CONSOLE;
    }

    private void refuse(Context ctx) {
        String header = ctx.header("Authorization");
        refusals.refused(ctx, Credential.ADMIN_TOKEN, header == null || header.isBlank()
                ? ctx.cookie(ConsoleSessions.COOKIE) == null ? "no Authorization header"
                : "the console session has ended or is not one this server made"
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
}
