package dev.hexaflow.adapters.http.server;

import io.javalin.http.Context;
import io.javalin.router.Endpoint;

/**
 * Hears each answered request by method, route template and status (for metrics). It is given the template
 * Javalin matched, never the raw path, which holds ids, keys and tokens; {@value #UNMATCHED} where no route did.
 */
@FunctionalInterface
public interface RequestObserver {

    RequestObserver NONE = (method, route, status) -> { };

    String UNMATCHED = "unmatched";

    void served(String method, String route, int status);

    /** Tells {@code observer} of the request {@code ctx} answered; an observer's failure is its own. */
    static void report(RequestObserver observer, Context ctx) {
        if (observer == NONE) {
            return;
        }
        try {
            Endpoint matched = ctx.endpoints().matchedHttpEndpoint();
            observer.served(ctx.method().name(), matched == null ? UNMATCHED : matched.path,
                    ctx.statusCode());
        } catch (RuntimeException e) {
            // Metrics never cost a client its answer.
        }
    }
}
