package dev.hexaflow.adapters.http.metrics;

import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.http.support.JsonResponses;
import dev.hexaflow.adapters.http.support.ResponseBodies;
import dev.hexaflow.domain.secret.SecretHash;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * {@code GET /metrics}: the server's metrics in Prometheus' text format, for a scraper. Mounted only when the
 * operator turns metrics on; with a token set, a scrape needs {@code Authorization: Bearer <token>} and anything
 * else gets the admin API's 401.
 */
public final class MetricsRoutes implements RouteGroup {

    private final Supplier<String> scrape;
    private final String contentType;
    private final Optional<SecretHash> token;

    /**
     * @param scrape      every metric now, in the text format
     * @param contentType the text format's media type, with its version
     * @param token       the hash of the token a scrape must bear; empty when scrapes need none
     */
    public MetricsRoutes(Supplier<String> scrape, String contentType, Optional<SecretHash> token) {
        this.scrape = scrape;
        this.contentType = contentType;
        this.token = token;
    }

    @Override
    public void addTo(RoutesConfig routes) {
        routes.get("/metrics", this::serve);
    }

    private void serve(Context ctx) {
        if (token.isPresent() && !bears(ctx, token.get())) {
            ctx.header("WWW-Authenticate", "Bearer realm=\"hexaflow-metrics\"");
            JsonResponses.error(ctx, 401, "unauthorized",
                    "Metrics need the header Authorization: Bearer <metrics token>.");
            return;
        }
        ctx.header("Cache-Control", "no-store");
        ResponseBodies.write(ctx, 200, contentType, scrape.get().getBytes(StandardCharsets.UTF_8));
    }

    private static boolean bears(Context ctx, SecretHash token) {
        String header = ctx.header("Authorization");
        return header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)
                && token.matches(header.substring(7).trim());
    }
}
