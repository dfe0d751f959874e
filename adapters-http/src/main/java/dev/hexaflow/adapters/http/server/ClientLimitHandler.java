package dev.hexaflow.adapters.http.server;

import dev.hexaflow.adapters.http.support.JsonResponses;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.NanoTime;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * Keeps slow and greedy clients from taking the request threads: answers 429 at once, before any thread reads
 * a body, to a request over its address's share, and fails the read of a body that arrives slower than the
 * least rate. It wraps the servlet context, so the limits hold before authentication and before any route.
 *
 * <p>Jetty's own {@code MinimumDataRateHandler} measures the bytes of all requests together, so one fast upload
 * covers a thousand trickles; and {@code HttpConfiguration.minRequestDataRate} is not enforced by HTTP/1.1 in
 * Jetty 12. The rate here is a request's own, and a timer ends a read that waits past it, so a client that
 * sends nothing at all is cut too, not only one that sends too little.
 */
final class ClientLimitHandler extends Handler.Wrapper {

    private final ClientLimits limits;
    private final Map<String, Integer> inProgress = new ConcurrentHashMap<>();
    /** Every request under way, from the moment it is handed over to the moment its answer is complete. */
    private final java.util.concurrent.atomic.AtomicInteger underWay = new java.util.concurrent.atomic.AtomicInteger();

    ClientLimitHandler(ClientLimits limits) {
        this.limits = limits;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        Handler next = getHandler();
        if (next == null) {
            return false;
        }
        Request guarded = limits.minBodyBytesPerSecond() > 0 ? new RatedRequest(request) : request;
        String address = limits.requestsPerAddress() > 0 ? address(request) : null;
        if (address != null && !acquire(address)) {
            refuse(response, callback);
            return true;
        }
        underWay.incrementAndGet();
        var releasing = new Callback.Nested(callback) {
            private final AtomicBoolean released = new AtomicBoolean();

            @Override
            public void succeeded() {
                release();
                super.succeeded();
            }

            @Override
            public void failed(Throwable failure) {
                release();
                super.failed(failure);
            }

            void release() {
                if (released.compareAndSet(false, true)) {
                    ClientLimitHandler.this.release(address);
                }
            }
        };
        boolean handled;
        try {
            handled = next.handle(guarded, response, releasing);
        } catch (Throwable e) {
            releasing.failed(e);
            throw e;
        }
        if (!handled) {
            releasing.release();
        }
        return handled;
    }

    /** Requests handed to the server and not yet answered in full, an open stream included. */
    int underWay() {
        return underWay.get();
    }

    /** Requests in progress from any address now: for tests that an attack leaves nothing behind. */
    int inProgress() {
        return inProgress.values().stream().mapToInt(Integer::intValue).sum();
    }

    private boolean acquire(String address) {
        boolean[] admitted = {false};
        inProgress.compute(address, (key, count) -> {
            int now = count == null ? 0 : count;
            if (now >= limits.requestsPerAddress()) {
                return count;
            }
            admitted[0] = true;
            return now + 1;
        });
        return admitted[0];
    }

    private void release(String address) {
        underWay.decrementAndGet();
        if (address == null) {
            return;
        }
        // An address with nothing in progress leaves the map, so many addresses seen once do not pile up.
        inProgress.computeIfPresent(address, (key, count) -> count <= 1 ? null : count - 1);
    }

    private static String address(Request request) {
        SocketAddress remote = request.getConnectionMetaData().getRemoteSocketAddress();
        if (remote instanceof InetSocketAddress inet && inet.getAddress() != null) {
            return inet.getAddress().getHostAddress();
        }
        return null;
    }

    private void refuse(Response response, Callback callback) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("code", "too_many_requests");
        body.put("message", "Too many requests in progress from this address (at most "
                + limits.requestsPerAddress() + " at once). Try again when one has ended.");
        body.put("status", 429);
        response.setStatus(429);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        response.getHeaders().put(HttpHeader.RETRY_AFTER, "1");
        // The body of this request is not read: the connection goes with the answer.
        response.getHeaders().put(HttpHeader.CONNECTION, "close");
        response.write(true, ByteBuffer.wrap(JsonResponses.json(body).getBytes(StandardCharsets.UTF_8)), callback);
    }

    /**
     * Counts the bytes of this request's body as they are read; each wait for more gets a deadline, the moment
     * at which the bytes read so far fall under the rate (after the grace), and fails the read when it passes.
     */
    private final class RatedRequest extends Request.Wrapper {

        private long firstWait;
        private long bytes;
        private volatile Content.Chunk failure;

        RatedRequest(Request request) {
            super(request);
        }

        @Override
        public Content.Chunk read() {
            Content.Chunk failed = failure;
            if (failed != null) {
                return failed;
            }
            Content.Chunk chunk = super.read();
            if (chunk != null) {
                bytes += chunk.remaining();
            }
            return chunk;
        }

        @Override
        public void demand(Runnable ready) {
            if (failure != null) {
                ready.run();
                return;
            }
            long now = NanoTime.now();
            if (firstWait == 0) {
                firstWait = now == 0 ? 1 : now;
            }
            long deadline = firstWait + limits.bodyGrace().toNanos()
                    + bytes * 1_000_000_000L / limits.minBodyBytesPerSecond();
            long left = deadline - now;
            if (left <= 0) {
                fail();
                ready.run();
                return;
            }
            AtomicBoolean once = new AtomicBoolean();
            Scheduler.Task timer = getComponents().getScheduler().schedule(() -> {
                if (once.compareAndSet(false, true)) {
                    fail();
                    ready.run();
                }
            }, left, TimeUnit.NANOSECONDS);
            super.demand(() -> {
                if (once.compareAndSet(false, true)) {
                    timer.cancel();
                    ready.run();
                }
            });
        }

        private void fail() {
            failure = Content.Chunk.from(new SlowBodyException("The request body arrived slower than "
                    + limits.minBodyBytesPerSecond() + " bytes a second."));
        }
    }
}
