package dev.hexaflow.adapters.http.server;

import dev.hexaflow.adapters.http.support.JsonResponses;
import dev.hexaflow.adapters.http.support.ResponseBodies;
import dev.hexaflow.application.common.StorageUnavailableException;
import dev.hexaflow.application.instances.port.in.CheckStorageUseCase;
import io.javalin.http.Context;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the server answers what no route answered itself: a body too slow, the store out of reach or refusing
 * writes, a drain, or a failure nobody foresaw; each in the error shape of the API the request was for.
 */
final class FailureAnswers {

    private static final Logger LOG = LoggerFactory.getLogger(JavalinHttpServer.class);

    private static final String UNAVAILABLE_MESSAGE =
            "The server is shutting down and takes no new requests. Please try again shortly.";

    private FailureAnswers() {
    }

    /**
     * A failure no mapping answered: a body that came too slowly, the store out of reach or refusing writes (in
     * the error shape of the API the request was for), or else a 500, logged.
     */
    static void failed(Context ctx, Exception e, List<RouteGroup> groups, CheckStorageUseCase health,
            ClientLimits limits) {
        if (SlowBodyException.isCauseOf(e)) {
            ctx.header("Connection", "close");
            JsonResponses.error(ctx, 408, "request_timeout", "The request body arrived slower than "
                    + limits.minBodyBytesPerSecond() + " bytes a second.");
            return;
        }
        Optional<StorageUnavailableException> storage = storageCause(e, health);
        if (storage.isPresent() && storage.get().kind() == StorageUnavailableException.Kind.UNREACHABLE) {
            // No state of the store to log a change of: each request it failed is one line.
            UnreachableDatabase.log(ctx, storage.get());
            unreachable(ctx, groups, storage.get());
            return;
        }
        if (storage.isPresent()) {
            // The store logs each change of its state once; a request it failed is no news.
            storageError(ctx, groups, storage.get());
            return;
        }
        LOG.error("Unexpected failure on {} {}", ctx.method(), LoggedPaths.of(ctx.path()), e);
        JsonResponses.error(ctx, 500, "internal_server_error",
                "The server encountered an internal error and was unable to complete your request.");
    }

    /**
     * The store's refusal behind a failure: one the failure carries, the store's being out of reach (a database
     * server that refused or ended the connection, as the store tells it), or, while writes are failing, the
     * store's own (a write refused by a database that closed itself says only that it is closed).
     */
    private static Optional<StorageUnavailableException> storageCause(Throwable e, CheckStorageUseCase health) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof StorageUnavailableException storage) {
                return Optional.of(storage);
            }
        }
        Optional<StorageUnavailableException> unreachable = health.unavailableBehind(e);
        if (unreachable.isPresent()) {
            return unreachable;
        }
        return health.problem().filter(problem -> problem.kind() == StorageUnavailableException.Kind.WRITES_FAILING);
    }

    /**
     * A request that failed because the database could not be reached: 503 with Retry-After, in the error shape of
     * the API it was for. The next request tries the database again.
     */
    private static void unreachable(Context ctx, List<RouteGroup> groups, StorageUnavailableException e) {
        ctx.header("Retry-After", "5");
        if (answeredByGroup(ctx, groups)) {
            return;
        }
        JsonResponses.error(ctx, 503, "service_unavailable", e.getMessage());
    }

    /** 507 with the store's reason, in the error shape of the API the request was for (503 where it has no 507). */
    private static void storageError(Context ctx, List<RouteGroup> groups, StorageUnavailableException e) {
        ctx.header("Retry-After", "5");
        if (answeredByGroup(ctx, groups)) {
            return;
        }
        JsonResponses.error(ctx, 507, "insufficient_storage", e.getMessage());
    }

    /** A request that came while draining: 503, in the error shape of the API it was for. */
    static void unavailable(Context ctx, List<RouteGroup> groups) {
        ctx.header("Connection", "close");
        ctx.header("Retry-After", "5");
        if (answeredByGroup(ctx, groups)) {
            return;
        }
        JsonResponses.error(ctx, 503, "service_unavailable", UNAVAILABLE_MESSAGE);
    }

    /** Answers 503 in the error shape of the API the request was for, where its group has a shape of its own. */
    private static boolean answeredByGroup(Context ctx, List<RouteGroup> groups) {
        for (RouteGroup group : groups) {
            Optional<RouteGroup.RefusedAnswer> answer = group.refused(ctx.path(), 503);
            if (answer.isPresent()) {
                ResponseBodies.write(ctx, answer.get().status(), answer.get().contentType(), answer.get().body());
                return true;
            }
        }
        return false;
    }
}
