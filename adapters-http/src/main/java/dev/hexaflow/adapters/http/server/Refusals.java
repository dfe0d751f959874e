package dev.hexaflow.adapters.http.server;

import dev.hexaflow.adapters.http.support.DifyErrors;
import dev.hexaflow.adapters.http.support.HttpRefusal;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.knowledge.port.in.KnowledgeException;
import dev.hexaflow.application.tools.port.in.ToolRegistryException;
import io.javalin.config.RoutesConfig;

/**
 * Every refusal a route may throw, mapped once for the whole server to its answer in the JSON error shape that the
 * Service API (/v1) and the admin API (/admin) share: the routes' own {@link HttpRefusal}, and the refusals of the
 * use cases behind them. The campus feed (/v2) answers in its own envelope and throws none of them.
 */
public final class Refusals {

    private Refusals() {
    }

    /** Maps each refusal onto its answer; the server does, for every route group it mounts. */
    public static void mapOnto(RoutesConfig routes) {
        routes.exception(HttpRefusal.class, (e, ctx) -> e.answer(ctx));
        routes.exception(ApiException.class, (e, ctx) -> {
            UnreachableDatabase.behind(e).ifPresent(unreachable -> UnreachableDatabase.log(ctx, unreachable));
            DifyErrors.send(ctx, e.error(), e.getMessage(), e.retryAfterSeconds());
        });
        routes.exception(KnowledgeException.class, (e, ctx) -> of(e).answer(ctx));
        routes.exception(ToolRegistryException.class, (e, ctx) -> of(e).answer(ctx));
    }

    /** A knowledge use case's refusal, for the Knowledge API and the operator's routes alike. */
    static HttpRefusal of(KnowledgeException e) {
        return switch (e.reason()) {
            case NOT_FOUND -> HttpRefusal.notFound(e.getMessage());
            case CONFLICT -> new HttpRefusal(409, "dataset_name_duplicate", e.getMessage());
            case INVALID -> HttpRefusal.invalid(e.getMessage());
            case UNAUTHORIZED -> new HttpRefusal(401, "unauthorized", e.getMessage());
            case INVALID_ACTION -> new HttpRefusal(400, "invalid_action", e.getMessage());
            case ARCHIVED -> new HttpRefusal(403, "archived_document_immutable", e.getMessage());
        };
    }

    /** The tool registry's refusal, for the operator's tool routes. */
    static HttpRefusal of(ToolRegistryException e) {
        return switch (e.reason()) {
            case NOT_FOUND -> HttpRefusal.notFound(e.getMessage());
            case IN_USE -> new HttpRefusal(409, "in_use", e.getMessage());
            case INVALID -> HttpRefusal.invalid(e.getMessage());
        };
    }
}
