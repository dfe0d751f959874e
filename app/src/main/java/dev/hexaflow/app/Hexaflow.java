package dev.hexaflow.app;

import dev.hexaflow.adapters.http.JavalinHttpServer;
import dev.hexaflow.adapters.http.RouteGroup;
import dev.hexaflow.adapters.http.admin.AdminAppRoutes;
import dev.hexaflow.adapters.http.admin.AdminAuthorization;
import dev.hexaflow.adapters.http.admin.AdminCampusRoutes;
import dev.hexaflow.adapters.http.campus.CampusFeedRoutes;
import dev.hexaflow.adapters.http.webapp.WebAppRoutes;
import dev.hexaflow.adapters.http.workflow.WorkflowApiRoutes;
import dev.hexaflow.application.app.port.in.ImportAppUseCase.ImportedApp;
import dev.hexaflow.domain.secret.SecretHash;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The composition root and launcher: a running server over its storage, started and stopped as one. */
public final class Hexaflow implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Hexaflow.class);

    private final Storage storage;
    private final JavalinHttpServer server;
    private final StartReport report;
    private final WorkflowModule workflows;

    private Hexaflow(Storage storage, JavalinHttpServer server, StartReport report, WorkflowModule workflows) {
        this.storage = storage;
        this.server = server;
        this.report = report;
        this.workflows = workflows;
    }

    /**
     * Opens the data directory, loads the bundled data on a first start, and starts serving.
     *
     * @throws StartupException when the data directory or the port is taken
     */
    public static Hexaflow start(Configuration config) {
        SecureRandomSecretGenerator secrets = new SecureRandomSecretGenerator();
        Storage storage = Storage.connect(config.dataDir());
        WorkflowModule workflows = null;
        CompletableFuture<Optional<String>> ready = null;
        try {
            DataDirectory.AdminToken adminToken = config.adminToken()
                    .map(token -> new DataDirectory.AdminToken(token, false))
                    .orElseGet(() -> storage.directory().adminToken(secrets));
            CampusModule campus = new CampusModule(storage.jdbi(), secrets, Clock.systemUTC());
            workflows = new WorkflowModule(storage.jdbi(), config.dataDir().resolve("files"), secrets, config,
                    Clock.systemUTC());
            // The database is migrated and made ready on a thread of its own while the HTTP server starts on this
            // one; the server holds every request until the database is ready.
            WorkflowModule module = workflows;
            ready = CompletableFuture.supplyAsync(() -> prepare(storage, campus, module),
                    task -> new Thread(task, "hexaflow-start").start());
            AdminAuthorization admin = new AdminAuthorization(SecretHash.of(adminToken.value()));
            List<RouteGroup> routes = List.of(
                    admin,
                    new CampusFeedRoutes(campus.feed),
                    new AdminCampusRoutes(admin, campus.issueKey, campus.banKey, campus.importData),
                    new WorkflowApiRoutes(workflows.services, config.service().pingInterval()),
                    new AdminAppRoutes(admin, workflows.services),
                    new WebAppRoutes(workflows.services.webApp));
            JavalinHttpServer server = startServer(config, routes, ready);
            Optional<String> newCampusKey;
            try {
                newCampusKey = ready.join();
            } catch (CompletionException e) {
                server.close();
                throw e.getCause() instanceof RuntimeException cause ? cause : e;
            }
            String baseUrl = "http://" + clientHost(config.host()) + ":" + server.port();
            Optional<ImportedApp> demo = storage.fresh() ? Optional.of(workflows.importDemo(baseUrl))
                    : Optional.empty();
            StartReport report = new StartReport(baseUrl, config.dataDir(),
                    adminToken.madeNow() ? Optional.of(adminToken.value()) : Optional.empty(), newCampusKey,
                    demo.map(ImportedApp::apiKey), demo.map(app -> baseUrl + "/apps/" + app.siteCode()));
            return new Hexaflow(storage, server, report, workflows);
        } catch (RuntimeException e) {
            if (ready != null) {
                ready.exceptionally(failure -> Optional.empty()).join();
            }
            if (workflows != null) {
                workflows.close();
            }
            storage.close();
            throw e;
        }
    }

    /**
     * Migrates the database; on a first start loads the bundled campus data and issues a campus key (answered);
     * fails the runs and deletes the half-written uploads a previous process left.
     */
    private static Optional<String> prepare(Storage storage, CampusModule campus, WorkflowModule workflows) {
        storage.migrate();
        Optional<String> newCampusKey = Optional.empty();
        if (storage.fresh()) {
            campus.loadBundledData();
            newCampusKey = Optional.of(campus.issueKey.issue());
        }
        int interrupted = workflows.closeInterruptedRuns(Clock.systemUTC());
        if (interrupted > 0) {
            LOG.warn("{} runs were left running when the server last stopped; they are now failed", interrupted);
        }
        int orphans = workflows.deleteOrphanBlobs();
        if (orphans > 0) {
            LOG.warn("{} uploads were cut off when the server last stopped; their partial files are deleted",
                    orphans);
        }
        return newCampusKey;
    }

    private static JavalinHttpServer startServer(Configuration config, List<RouteGroup> routes,
            CompletionStage<?> ready) {
        try {
            return JavalinHttpServer.start(config.host(), config.port(),
                    config.service().uploads().largestBytes(), routes, ready, config.service().clients());
        } catch (JavalinHttpServer.PortUnavailableException e) {
            throw new StartupException(e.getMessage() + ". Choose another with --port.", e);
        }
    }

    /** The host a client on this machine should call: a wildcard address is reached on loopback. */
    private static String clientHost(String host) {
        if (host.equals("0.0.0.0") || host.equals("::") || host.equals("[::]")) {
            return "127.0.0.1";
        }
        return host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
    }

    public int port() {
        return server.port();
    }

    public String baseUrl() {
        return report.baseUrl();
    }

    /** Client connections open now. */
    int openConnections() {
        return server.openConnections();
    }

    StartReport report() {
        return report;
    }

    /** The workflow service's use cases, for tests and tools in the same process. */
    dev.hexaflow.application.app.service.AppServices workflowServices() {
        return workflows.services;
    }

    @Override
    public void close() {
        try {
            server.close();
        } finally {
            try {
                workflows.close();
            } finally {
                storage.close();
            }
        }
    }
}
