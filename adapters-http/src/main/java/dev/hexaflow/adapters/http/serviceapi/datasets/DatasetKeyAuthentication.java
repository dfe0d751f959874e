package dev.hexaflow.adapters.http.serviceapi.datasets;

import dev.hexaflow.adapters.http.server.RefusedCredentials;
import dev.hexaflow.adapters.http.server.RefusedCredentials.Credential;
import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.http.server.UnreadBodies;
import dev.hexaflow.adapters.http.support.JsonResponses;
import dev.hexaflow.application.knowledge.port.in.KnowledgeException;
import dev.hexaflow.application.knowledge.port.in.ManageDatasetKeysUseCase;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.security.RouteRole;

/**
 * Dify's bearer check for the Knowledge API's routes, before the route runs: only a dataset key opens them (an app
 * key is refused as any unknown token is), in the same words as the app routes' check.
 */
public final class DatasetKeyAuthentication implements RouteGroup {

    /** The role of a Knowledge API route: it takes a dataset key. */
    enum DatasetAccess implements RouteRole {
        DATASETS
    }

    private final ManageDatasetKeysUseCase keys;
    private final RefusedCredentials refusals;

    public DatasetKeyAuthentication(ManageDatasetKeysUseCase keys) {
        this(keys, new RefusedCredentials());
    }

    /** @param refusals where each refused key is logged, shared with the server's other checks */
    public DatasetKeyAuthentication(ManageDatasetKeysUseCase keys, RefusedCredentials refusals) {
        this.keys = keys;
        this.refusals = refusals;
    }

    @Override
    public void addTo(RoutesConfig routes) {
        routes.beforeMatched("/v1/*", this::authenticate);
    }

    private void authenticate(Context ctx) {
        if (!ctx.routeRoles().contains(DatasetAccess.DATASETS)) {
            return;
        }
        String header = ctx.header("Authorization");
        if (header == null || header.isBlank() || !header.strip().contains(" ")) {
            refuse(ctx, "Authorization header must be provided and start with 'Bearer'");
            return;
        }
        String[] parts = header.strip().split("\\s+", 2);
        if (!parts[0].equalsIgnoreCase("bearer")) {
            refuse(ctx, "Authorization scheme must be 'Bearer'");
            return;
        }
        try {
            keys.check(parts[1].strip());
        } catch (KnowledgeException e) {
            refuse(ctx, e.getMessage());
        }
    }

    private void refuse(Context ctx, String message) {
        refusals.refused(ctx, Credential.DATASET_KEY, message);
        ctx.header("WWW-Authenticate", "Bearer realm=\"api\"");
        JsonResponses.error(ctx, 401, "unauthorized", message);
        // A stranger's body is read up to 1 MiB (past that the connection is closed), lest Jetty drop the
        // connection under the client's next request.
        UnreadBodies.answerNow(ctx, 1024 * 1024);
    }
}
