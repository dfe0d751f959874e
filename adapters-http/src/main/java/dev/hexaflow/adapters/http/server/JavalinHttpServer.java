package dev.hexaflow.adapters.http.server;

import dev.hexaflow.adapters.http.support.JsonResponses;
import dev.hexaflow.adapters.http.support.ResponseBodies;
import dev.hexaflow.application.common.StorageUnavailableException;
import dev.hexaflow.application.instances.port.in.CheckStorageUseCase;
import io.javalin.Javalin;
import io.javalin.compression.CompressionStrategy;
import io.javalin.config.JavalinConfig;
import io.javalin.config.RoutesConfig;
import io.javalin.config.SizeUnit;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.VirtualThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The one HTTP server: mounts the route groups, answers /health, and keeps every error in a JSON shape. */
public final class JavalinHttpServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(JavalinHttpServer.class);

    /** Campus data imports can be a few megabytes; nothing else comes near this. */
    static final long MAX_REQUEST_BYTES = 16L * 1024 * 1024;


    private final Javalin javalin;
    private final Traffic traffic;

    private JavalinHttpServer(Javalin javalin, Traffic traffic) {
        this.javalin = javalin;
        this.traffic = traffic;
    }

    /**
     * Whether the server is ready for traffic or draining, and the requests it is serving (counted by the handler
     * in front of every route, until each answer is complete), so that a drain can wait for answers and streams.
     */
    private static final class Traffic {
        final ClientLimitHandler requests;
        volatile boolean ready;
        volatile boolean draining;
        volatile CheckStorageUseCase storage = CheckStorageUseCase.UNWATCHED;
        volatile RequestObserver observer = RequestObserver.NONE;

        Traffic(ClientLimitHandler requests) {
            this.requests = requests;
        }
    }

    /** The two probes: answered while draining, never held. */
    private static boolean isProbe(Context ctx) {
        return ctx.path().equals("/health") || ctx.path().equals("/readyz");
    }

    /**
     * Starts the server on the host and port (0 for any free port) with the given route groups.
     *
     * @throws PortUnavailableException when the address cannot be bound
     */
    public static JavalinHttpServer start(String host, int port, List<RouteGroup> groups) {
        return start(host, port, 100L * 1024 * 1024, groups);
    }

    /** Connections waiting to be accepted (the kernel caps it at net.core.somaxconn). */
    static final int ACCEPT_QUEUE = 4096;

    /** Requests (open streams above all) the server serves at once. */
    static final int MAX_CONCURRENT_REQUESTS = 10_000;

    /** Idle platform threads let go per 100 ms of idleness (see {@link #threadPool}). */
    static final int EVICTED_PER_IDLE_TIMEOUT = 100;

    /**
     * Where requests run. On JDK 21 and later, each on a virtual thread, up to {@link #MAX_CONCURRENT_REQUESTS}
     * at once (Javalin's own pool stops at 250, which a few hundred open streams fill). On JDK 17, a stream holds
     * a platform thread for as long as it is open, so the pool may grow as far. Jetty lets idle threads go a few
     * per idle timeout; at its default of one, a burst of 10 000 took over a quarter of an hour to come back to
     * the minimum, so up to {@link #EVICTED_PER_IDLE_TIMEOUT} go each 100 ms: 10 000 threads are back within
     * ten seconds, and under a load that rises and falls it costs at most that many thread starts.
     */
    private static org.eclipse.jetty.util.thread.ThreadPool threadPool(boolean virtual) {
        if (virtual) {
            VirtualThreadPool pool = new VirtualThreadPool(MAX_CONCURRENT_REQUESTS);
            pool.setName("hexaflow-http");
            pool.setMaxConcurrentTasks(MAX_CONCURRENT_REQUESTS);
            return pool;
        }
        QueuedThreadPool pool = new QueuedThreadPool(MAX_CONCURRENT_REQUESTS, 8, 100);
        pool.setMaxEvictCount(EVICTED_PER_IDLE_TIMEOUT);
        pool.setName("hexaflow-http");
        return pool;
    }

    /**
     * As {@link #start(String, int, List)}, taking multipart uploads of up to {@code maxUploadBytes}; their own
     * limits per kind of file are checked by the upload use case.
     */
    public static JavalinHttpServer start(String host, int port, long maxUploadBytes, List<RouteGroup> groups) {
        return start(host, port, maxUploadBytes, groups, CompletableFuture.completedFuture(null));
    }

    /**
     * Starts serving at once, and holds each request until {@code ready} completes: the caller may still be
     * getting the services behind the routes ready (a database being migrated) while the server starts.
     */
    public static JavalinHttpServer start(String host, int port, long maxUploadBytes, List<RouteGroup> groups,
            CompletionStage<?> ready) {
        return start(host, port, maxUploadBytes, groups, ready, ClientLimits.DEFAULTS);
    }

    /** As {@link #start(String, int, long, List, CompletionStage)}, holding each client to {@code limits}. */
    public static JavalinHttpServer start(String host, int port, long maxUploadBytes, List<RouteGroup> groups,
            CompletionStage<?> ready, ClientLimits limits) {
        CompletableFuture<?> gate = ready.toCompletableFuture();
        ClientLimitHandler clientLimit = new ClientLimitHandler(limits);
        clientLimit.setHandler(new TracingHandler());
        Traffic traffic = new Traffic(clientLimit);
        Javalin javalin = Javalin.create(config -> {
            configureHttp(config, maxUploadBytes);
            configureJetty(config, host, port, limits, groups, clientLimit);
            config.requestLogger.http((ctx, millis) -> RequestObserver.report(traffic.observer, ctx));
            config.routes.before(ctx -> holdOrRefuse(ctx, gate, traffic, groups));
            addProbes(config.routes, traffic);
            for (RouteGroup group : groups) {
                group.addTo(config.routes);
            }
            config.routes.after(UnreadBodies::drain);
            Refusals.mapOnto(config.routes);
            config.routes.exception(HttpResponseException.class, (e, ctx) -> httpError(ctx, e.getStatus(),
                    e.getMessage()));
            config.routes.exception(Exception.class, (e, ctx) -> FailureAnswers.failed(ctx, e, groups, traffic.storage, limits));
        });
        try {
            javalin.start();
        } catch (RuntimeException e) {
            javalin.stop();
            throw new PortUnavailableException(host, port, e);
        }
        return new JavalinHttpServer(javalin, traffic);
    }

    /** What HTTP allows: request and upload sizes, no compression, and the version warnings off. */
    private static void configureHttp(JavalinConfig config, long maxUploadBytes) {
        config.startup.showJavalinBanner = false;
        config.startup.showOldJavalinVersionWarning = false;
        config.http.prefer405over404 = true;
        config.http.maxRequestSize = MAX_REQUEST_BYTES;
        // Server-sent events must reach the client frame by frame; compression would hold them back.
        config.http.compressionStrategy = CompressionStrategy.NONE;
        config.jetty.multipartConfig.maxFileSize(maxUploadBytes + 1024 * 1024, SizeUnit.BYTES);
        config.jetty.multipartConfig.maxTotalRequestSize(maxUploadBytes + 2 * 1024 * 1024, SizeUnit.BYTES);
        config.jetty.multipartConfig.maxInMemoryFileSize(1, SizeUnit.MB);
    }

    /** Jetty: the error pages in JSON, the client limits in front of every request, the threads and the socket. */
    private static void configureJetty(JavalinConfig config, String host, int port, ClientLimits limits,
            List<RouteGroup> groups, ClientLimitHandler clientLimit) {
        config.jetty.modifyServer(server -> {
            server.setErrorHandler(new JsonErrorHandler(groups));
            // Javalin mounts its servlet context inside the innermost wrapper: the limits come first.
            server.setHandler(clientLimit);
        });
        config.concurrency.useVirtualThreads = Runtime.version().feature() >= 21;
        config.jetty.threadPool = threadPool(config.concurrency.useVirtualThreads);
        config.jetty.addConnector((server, http) -> {
            ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http));
            connector.setHost(host);
            connector.setPort(port);
            // The kernel's queue of connections not yet accepted. At Java's default of 50, a burst of a
            // thousand clients connecting at once has SYNs dropped, and those clients retry after 1, 3, 7,
            // 15 s: the queue holds a burst instead.
            connector.setAcceptQueueSize(ACCEPT_QUEUE);
            connector.setIdleTimeout(limits.idleTimeout().toMillis());
            return connector;
        });
    }

    /** Before every route: each request but the readiness probe waits for the start; while draining, 503. */
    private static void holdOrRefuse(Context ctx, CompletableFuture<?> gate, Traffic traffic,
            List<RouteGroup> groups) {
        if (!ctx.path().equals("/readyz")) {
            gate.join();
        }
        if (isProbe(ctx)) {
            return;
        }
        if (traffic.draining) {
            FailureAnswers.unavailable(ctx, groups);
            UnreadBodies.answerNow(ctx);
        }
    }

    private static void addProbes(RoutesConfig routes, Traffic traffic) {
        // Liveness: the process answers. While draining, 503 as well, so that a balancer that knows only this
        // check moves away; an orchestrator restarts nothing that is stopping already.
        // A store that cannot take writes leaves the process alive (reads go on, and a restart frees no disk):
        // 200, degraded, with the reason.
        routes.get("/health", ctx -> {
            Optional<StorageUnavailableException> problem = traffic.storage.problem();
            if (!traffic.draining && problem.isPresent()) {
                probe(ctx, true, "degraded", problem.get().getMessage());
            } else {
                probe(ctx, !traffic.draining, traffic.draining ? "draining" : "ok", null);
            }
        });
        // Readiness: send traffic here. Not before the start has finished, not while draining, not while the
        // store refuses new work (disk_low, writes_failing, with the reason).
        routes.get("/readyz", ctx -> {
            Optional<StorageUnavailableException> problem = traffic.storage.problem();
            if (traffic.ready && !traffic.draining && problem.isPresent()) {
                probe(ctx, false, problem.get().kind().word(), problem.get().getMessage());
            } else {
                probe(ctx, traffic.ready && !traffic.draining,
                        traffic.draining ? "draining" : traffic.ready ? "ready" : "starting", null);
            }
        });
    }

    private static void probe(Context ctx, boolean up, String status, String reason) {
        String body = reason == null ? "{\"status\":\"" + status + "\"}"
                : "{\"status\":\"" + status + "\",\"reason\":" + JsonResponses.json(reason) + "}";
        ResponseBodies.write(ctx, up ? 200 : 503, "application/json",
                body.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /** The probes report the store's problems from now on, and failures it caused are answered as its refusals. */
    public void watchStorage(CheckStorageUseCase health) {
        traffic.storage = health;
    }

    /** Each request is traced by {@code tracing} from now on. */
    public void traceRequests(RequestTracing tracing) {
        ((TracingHandler) traffic.requests.getHandler()).trace(tracing);
    }

    /** Each answered request is told to {@code observer} from now on. */
    public void observeRequests(RequestObserver observer) {
        traffic.observer = observer;
    }

    /** Logs a line for each request answered from now on (method, path without its query, status, time). */
    public void logRequests() {
        javalin.jettyServer().server().setRequestLog(new RequestLines());
    }

    /** The start has finished: the readiness probe answers ready from now on, until a drain. */
    public void markReady() {
        traffic.ready = true;
    }

    /** New requests get 503 from now on, and both probes say draining; requests under way go on. */
    public void drain() {
        traffic.draining = true;
    }

    /** Waits up to {@code timeout} for the requests under way to be answered; answers whether they all were. */
    public boolean awaitRequests(java.time.Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (traffic.requests.underWay() > 0) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    /** Javalin's own refusals (no route, wrong verb, body too large) in the JSON error shape, worded as Dify's. */
    private static void httpError(Context ctx, int status, String javalinMessage) {
        switch (status) {
            case 404 -> JsonResponses.error(ctx, 404, "not_found", "The requested URL was not found on the server.");
            case 405 -> JsonResponses.error(ctx, 405, "method_not_allowed",
                    "The method is not allowed for the requested URL.");
            case 413 -> JsonResponses.error(ctx, 413, "request_entity_too_large",
                    "The request body is larger than " + MAX_REQUEST_BYTES / (1024 * 1024) + " MB.");
            default -> JsonResponses.error(ctx, status, status < 500 ? "bad_request" : "internal_server_error",
                    javalinMessage);
        }
    }

    public int port() {
        return javalin.port();
    }

    /** Each route as {@code "GET /v1/info"}, sorted: what the API document is held to. */
    public List<String> routes() {
        return javalin.unsafe.internalRouter.allHttpHandlers().stream().map(parsed -> parsed.endpoint)
                .filter(e -> e.method.isHttpMethod()).map(e -> e.method.name() + " " + e.path).distinct()
                .sorted().toList();
    }

    /** Connections open to clients now: for operators' checks and for tests that a burst leaves none behind. */
    public int openConnections() {
        int open = 0;
        for (org.eclipse.jetty.server.Connector connector : javalin.jettyServer().server().getConnectors()) {
            open += connector.getConnectedEndPoints().size();
        }
        return open;
    }

    @Override
    public void close() {
        javalin.stop();
    }

    /** The address is taken or not ours to bind. */
    public static final class PortUnavailableException extends RuntimeException {
        public PortUnavailableException(String host, int port, Throwable cause) {
            super("Cannot listen on " + host + ":" + port + " (is another server using the port?)", cause);
        }
    }
}
