package dev.hexaflow.adapters.http.server;

import dev.hexaflow.application.common.StorageUnavailableException;
import io.javalin.http.Context;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A request that failed because the database could not be reached: one WARN line for it, naming the request and
 * what the database's driver said (no statement, no argument, no stack: the driver's words say what failed).
 */
public final class UnreachableDatabase {

    private static final Logger LOG = LoggerFactory.getLogger(JavalinHttpServer.class);

    private UnreachableDatabase() {
    }

    /** The store's being out of reach behind a failure, where the failure carries it. */
    public static Optional<StorageUnavailableException> behind(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof StorageUnavailableException storage
                    && storage.kind() == StorageUnavailableException.Kind.UNREACHABLE) {
                return Optional.of(storage);
            }
        }
        return Optional.empty();
    }

    /** Logs the request's 503. */
    public static void log(Context ctx, StorageUnavailableException e) {
        LOG.warn("{} {} answered 503: the database cannot be reached ({})", ctx.method(),
                LoggedPaths.of(ctx.path()), e.detail());
    }
}
