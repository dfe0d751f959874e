package dev.hexaflow.adapters.http.server;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntConsumer;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Begins each request's trace around everything behind it (the servlet context with every route), and ends it
 * once the answer is complete; a Jetty handler rather than a before-route, so that its scope is left on the same
 * thread whatever a route throws.
 */
final class TracingHandler extends Handler.Wrapper {

    private volatile RequestTracing tracing = RequestTracing.NONE;

    void trace(RequestTracing tracing) {
        this.tracing = tracing;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        RequestTracing now = tracing;
        Handler next = getHandler();
        if (now == RequestTracing.NONE || next == null) {
            return next != null && next.handle(request, response, callback);
        }
        RequestTracing.Traced traced = now.begin(request.getMethod(), name -> request.getHeaders().get(name));
        AtomicBoolean ended = new AtomicBoolean();
        IntConsumer end = status -> {
            if (ended.compareAndSet(false, true)) {
                traced.end(status);
            }
        };
        Callback ending = new Callback.Nested(callback) {
            @Override
            public void succeeded() {
                end.accept(response.getStatus());
                super.succeeded();
            }

            @Override
            public void failed(Throwable failure) {
                end.accept(500);
                super.failed(failure);
            }
        };
        try {
            boolean handled = next.handle(request, response, ending);
            if (!handled) {
                end.accept(404);
            }
            return handled;
        } catch (Exception | Error e) {
            end.accept(500);
            throw e;
        } finally {
            traced.leave();
        }
    }
}
