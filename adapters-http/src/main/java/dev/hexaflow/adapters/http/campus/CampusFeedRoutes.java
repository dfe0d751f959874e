package dev.hexaflow.adapters.http.campus;

import dev.hexaflow.adapters.http.server.RefusedCredentials;
import dev.hexaflow.adapters.http.server.RefusedCredentials.Credential;
import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.http.support.ResponseBodies;
import dev.hexaflow.application.campus.port.in.CampusFeedAnswer;
import dev.hexaflow.application.campus.port.in.CampusFeedQuery;
import dev.hexaflow.application.campus.port.in.ServeCampusFeedUseCase;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import java.util.Optional;

/**
 * The campus feed under {@code /v2}: every path there is answered with the feed's envelope, an unknown one with
 * 501 Invalid method, so a client never sees an error in another shape.
 */
public final class CampusFeedRoutes implements RouteGroup {

    private final ServeCampusFeedUseCase feed;
    private final RefusedCredentials refusals;

    public CampusFeedRoutes(ServeCampusFeedUseCase feed) {
        this(feed, new RefusedCredentials());
    }

    /** @param refusals where each refused campus key is logged, shared with the server's other checks */
    public CampusFeedRoutes(ServeCampusFeedUseCase feed, RefusedCredentials refusals) {
        this.feed = feed;
        this.refusals = refusals;
    }

    @Override
    public void addTo(RoutesConfig routes) {
        routes.get("/v2/{service}/{file}", this::serve);
        for (HandlerType verb : new HandlerType[] {HandlerType.GET, HandlerType.POST, HandlerType.PUT,
                HandlerType.PATCH, HandlerType.DELETE, HandlerType.OPTIONS}) {
            // Every feed method is a GET: any other verb, or any other path shape, names no method.
            routes.addHttpHandler(verb, "/v2", this::unknownMethod);
            routes.addHttpHandler(verb, "/v2/<rest>", this::unknownMethod);
        }
    }

    private void serve(Context ctx) {
        String file = ctx.pathParam("file");
        int dot = file.lastIndexOf('.');
        String resource = dot < 0 ? file : file.substring(0, dot);
        String extension = dot < 0 ? "" : file.substring(dot + 1);
        String key = ctx.queryParam("key");
        CampusFeedAnswer answer = feed.serve(new CampusFeedQuery(ctx.pathParam("service"), resource, extension,
                key, ctx.queryParam("callback")));
        // 401 an unknown key, 403 a banned one; a missing key (511) was never a credential.
        if (key != null && (answer.httpStatus() == 401 || answer.httpStatus() == 403)) {
            refusals.refused(ctx, Credential.CAMPUS_KEY, answer.httpStatus() == 401 ? "the key is unknown"
                    : "the key is banned");
        }
        send(ctx, answer);
    }

    private void unknownMethod(Context ctx) {
        String path = ctx.path();
        int dot = path.lastIndexOf('.');
        String extension = dot < 0 || path.indexOf('/', dot) >= 0 ? "" : path.substring(dot + 1);
        send(ctx, feed.serve(new CampusFeedQuery("", "", extension, null, ctx.queryParam("callback"))));
    }

    /** A /v2 path that HTTP could not decode names no method: the envelope's 501, as for any other. */
    @Override
    public Optional<RefusedAnswer> refused(String rawPath, int status) {
        if (!rawPath.equals("/v2") && !rawPath.startsWith("/v2/")) {
            return Optional.empty();
        }
        CampusFeedAnswer answer = status == 503 ? feed.unavailable()
                : feed.serve(new CampusFeedQuery("", "", "", null, null));
        return Optional.of(new RefusedAnswer(answer.httpStatus(), answer.contentType(),
                answer.body()));
    }

    private static void send(Context ctx, CampusFeedAnswer answer) {
        ctx.header("Access-Control-Allow-Origin", "*").header("Cache-Control", "no-cache");
        if (answer.retryAfterSeconds() > 0) {
            ctx.header("Retry-After", String.valueOf(answer.retryAfterSeconds()));
        }
        ResponseBodies.write(ctx, answer.httpStatus(), answer.contentType(), answer.body());
    }
}
