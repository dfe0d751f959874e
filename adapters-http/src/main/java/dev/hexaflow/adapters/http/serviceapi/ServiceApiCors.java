package dev.hexaflow.adapters.http.serviceapi;

import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.http.server.UnreadBodies;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Cross-origin access to the Service API, as Dify opens its service API blueprint to browsers: any origin unless
 * the operator names some, the headers {@code Content-Type}, {@code Authorization} and {@code X-App-Code}, and
 * the methods GET, PUT, POST, DELETE, OPTIONS and PATCH. A preflight on any {@code /v1} path is answered here,
 * before any key is asked for, and every {@code /v1} answer (errors and streams included) names the origin it
 * may be read from, so a browser can read a 401 too. The admin API and the apps' pages get none of this: the
 * admin API is for operators' tools, and a page calls its own origin.
 */
public final class ServiceApiCors implements RouteGroup {

    static final String ALLOWED_METHODS = "GET, PUT, POST, DELETE, OPTIONS, PATCH";
    static final String ALLOWED_HEADERS = "Content-Type, Authorization, X-App-Code";
    /** How long a browser may keep a preflight's answer: Chromium keeps it two hours at most. */
    static final int MAX_AGE_SECONDS = 7200;

    private final boolean anyOrigin;
    private final Set<String> origins;

    /** @param origins the origins allowed, as a browser sends them ({@code https://app.example.com}), or "*" */
    public ServiceApiCors(List<String> origins) {
        this.anyOrigin = origins.contains("*");
        this.origins = origins.stream().map(ServiceApiCors::normal).collect(Collectors.toUnmodifiableSet());
    }

    @Override
    public void addTo(RoutesConfig routes) {
        routes.before("/v1/*", this::allowOrigin);
    }

    /**
     * Names the allowed origin on every answer; answers a preflight itself, before any route, so that no path
     * gets an OPTIONS route of its own (a path that does not exist stays a 404 for every other method).
     */
    private void allowOrigin(Context ctx) {
        String origin = ctx.header("Origin");
        if (origin == null) {
            return;
        }
        if (anyOrigin) {
            ctx.header("Access-Control-Allow-Origin", "*");
        } else {
            ctx.header("Vary", "Origin");
            if (origins.contains(normal(origin))) {
                ctx.header("Access-Control-Allow-Origin", origin);
            }
        }
        if (ctx.method() == HandlerType.OPTIONS && ctx.header("Access-Control-Request-Method") != null) {
            preflight(ctx);
            UnreadBodies.answerNow(ctx);
        }
    }

    /** A preflight from an origin not allowed gets no CORS header, and the browser refuses the request itself. */
    private void preflight(Context ctx) {
        if (ctx.res().getHeader("Access-Control-Allow-Origin") != null) {
            ctx.header("Access-Control-Allow-Methods", ALLOWED_METHODS);
            ctx.header("Access-Control-Allow-Headers", ALLOWED_HEADERS);
            ctx.header("Access-Control-Max-Age", Integer.toString(MAX_AGE_SECONDS));
        }
        ctx.status(204);
    }

    private static String normal(String origin) {
        String trimmed = origin.strip().toLowerCase(Locale.ROOT);
        return trimmed.endsWith("/") ? trimmed.substring(0, trimmed.length() - 1) : trimmed;
    }
}
