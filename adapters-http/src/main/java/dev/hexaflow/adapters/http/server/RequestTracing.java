package dev.hexaflow.adapters.http.server;

import java.util.function.Function;

/**
 * Begins a trace's scope for each request, on the thread that handles it, before any route (so a run started by
 * the request is a child of it): tracing continues the trace context the request's headers carry.
 */
@FunctionalInterface
public interface RequestTracing {

    RequestTracing NONE = (method, header) -> Traced.NOTHING;

    /** {@code header} answers a request header by name, null when absent. */
    Traced begin(String method, Function<String, String> header);

    /** A request being traced. */
    interface Traced {

        Traced NOTHING = new Traced() {
            @Override
            public void leave() {
            }

            @Override
            public void end(int status) {
            }
        };

        /** The thread that began the request is done with it; called on that thread. */
        void leave();

        /** The answer is complete, with {@code status}; on any thread. */
        void end(int status);
    }
}
