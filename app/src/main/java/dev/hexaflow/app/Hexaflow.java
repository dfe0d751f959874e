package dev.hexaflow.app;

import dev.hexaflow.adapters.http.admin.AdminAuthorization;
import dev.hexaflow.adapters.http.server.JavalinHttpServer;
import dev.hexaflow.adapters.http.server.RefusedCredentials;
import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.persistence.StorageWatch;
import dev.hexaflow.adapters.persistence.jdbi.JdbiInstanceLeases;
import dev.hexaflow.app.AdminTokens.AdminToken;
import dev.hexaflow.app.StorePreparation.Prepared;
import dev.hexaflow.app.adapters.SecureRandomSecretGenerator;
import dev.hexaflow.app.cli.CommandLine;
import dev.hexaflow.app.config.Configuration;
import dev.hexaflow.app.config.DatabaseServer;
import dev.hexaflow.app.jobs.LeaseRenewal;
import dev.hexaflow.app.wiring.AppsModule;
import dev.hexaflow.app.wiring.CampusModule;
import dev.hexaflow.app.wiring.ChatModule;
import dev.hexaflow.app.wiring.HttpRoutes;
import dev.hexaflow.app.wiring.Instance;
import dev.hexaflow.app.wiring.InstanceOrigins;
import dev.hexaflow.app.wiring.Observability;
import dev.hexaflow.app.wiring.Storage;
import dev.hexaflow.app.wiring.WorkflowModule;
import dev.hexaflow.application.apps.port.in.ImportAppUseCase.ImportedApp;
import dev.hexaflow.application.common.port.out.SecretGenerator;
import dev.hexaflow.application.instances.port.out.InstanceLeases;
import dev.hexaflow.application.instances.service.CheckStorageService;
import dev.hexaflow.application.instances.service.InstanceLease;
import dev.hexaflow.application.knowledge.port.in.CloseInterruptedIndexingUseCase;
import dev.hexaflow.application.runs.port.in.DrainRunsUseCase;
import dev.hexaflow.application.runs.port.out.RunRepository;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The launcher: a running server over its storage, started and stopped as one. */
public final class Hexaflow implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Hexaflow.class);
    /** How long answers and streams under way get once the runs have ended. */
    private static final Duration REQUESTS_AFTER_RUNS = Duration.ofSeconds(5);

    private final Storage storage;
    private final JavalinHttpServer server;
    private final StartReport report;
    private final Modules modules;
    private final Duration grace;
    /** This instance's lease, where instances share the store; renewed by {@link #renewal}. */
    private final Optional<InstanceLease> lease;
    private final LeaseRenewal renewal;
    private final AtomicBoolean closed = new AtomicBoolean();

    private Hexaflow(Storage storage, JavalinHttpServer server, StartReport report, Modules modules, Duration grace,
            Optional<InstanceLease> lease, LeaseRenewal renewal) {
        this.storage = storage;
        this.server = server;
        this.report = report;
        this.modules = modules;
        this.grace = grace;
        this.lease = lease;
        this.renewal = renewal;
    }

    /** The modules of a running server, and what watches them, closed in one order. */
    private record Modules(CampusModule campus, WorkflowModule workflows, ChatModule chat,
            Observability observability) {

        static Modules open(Storage storage, Configuration config, SecretGenerator secrets, StorageWatch health) {
            Observability observability = Observability.of(config);
            CampusModule campus = new CampusModule(storage.jdbi(), secrets, Clock.systemUTC(), health,
                    storage.instance().signals(), observability.campusFeed());
            WorkflowModule workflows = null;
            try {
                workflows = new WorkflowModule(storage.jdbi(), config.dataDir().resolve("files"), secrets, config,
                        Clock.systemUTC(), health, health, storage.instance(), observability);
                workflows.serveCampusFeed(campus.feed);
                campus.limitKeysWith(workflows.limits.rates);
                return new Modules(campus, workflows,
                        new ChatModule(storage.jdbi(), config.engine(), Clock.systemUTC(), workflows), observability);
            } catch (RuntimeException e) {
                if (workflows != null) {
                    workflows.close();
                }
                campus.close();
                observability.close();
                throw e;
            }
        }

        void close() {
            try {
                campus.close();
                chat.close();
            } finally {
                workflows.close();
                observability.close();
            }
        }
    }

    /**
     * Opens the data directory, loads the bundled data on a first start, and starts serving.
     *
     * @throws StartupException when the data directory or the port is taken
     */
    public static Hexaflow start(Configuration config) {
        SecureRandomSecretGenerator secrets = new SecureRandomSecretGenerator();
        Storage storage = Storage.connect(config);
        CompletableFuture<Void> migrated = StorePreparation.migrateInBackground(storage);
        Modules modules = null;
        LeaseRenewal renewal = null;
        CompletableFuture<Prepared> ready = null;
        boolean firstStartKept = false;
        try {
            Instance instance = storage.instance();
            // Instances that share a store share its admin token: its hash is in the store, read once it is ready.
            CompletableFuture<AdminToken> adminToken = new CompletableFuture<>();
            if (!instance.shared()) {
                adminToken.complete(AdminTokens.ofDirectory(storage, config, secrets));
            }
            StorageWatch health = storage.health(config.service().minFreeDiskMb());
            modules = Modules.open(storage, config, secrets, health);
            closeCutOffWorkOnRecovery(health, modules);
            InstanceLease lease = lease(storage, modules);
            renewal = new LeaseRenewal(lease, modules.workflows().origins, instance.machine());
            ready = prepareInBackground(migrated, storage, config, secrets, modules, lease, renewal, adminToken);
            RefusedCredentials refusals = new RefusedCredentials();
            AdminAuthorization admin = new AdminAuthorization(() -> adminToken.join().hash(), refusals);
            JavalinHttpServer server = startServer(config, HttpRoutes.of(config, admin, refusals, storage,
                    modules.workflows(), modules.campus(), modules.chat(), modules.observability()), ready);
            watched(server, modules, health, config);
            if (config.logs().requests()) {
                server.logRequests();
            }
            Prepared prepared = awaitReady(server, ready);
            String baseUrl = serve(config, server, instance, modules.workflows().origins, lease, renewal);
            modules.workflows().runs.servingAt(baseUrl);
            StartReport report = new StartReport(baseUrl, config.dataDir(), adminToken.join().madeNow(),
                    prepared.newCampusKey(), demo(prepared, modules, AppsModule.DEMO_DSL, baseUrl),
                    demo(prepared, modules, AppsModule.CHAT_DEMO_DSL, baseUrl),
                    config.database().map(DatabaseServer::shownUrl));
            server.watchStorage(new CheckStorageService(health));
            server.markReady();
            if (prepared.firstStart()) {
                markFirstStartDone(storage);
                firstStartKept = true;
            }
            modules.workflows().startJobs();
            LOG.atInfo().addKeyValue("url", baseUrl).addKeyValue("version", CommandLine.VERSION)
                    .log("Hexaflow {} started on {} ({})", CommandLine.VERSION, baseUrl,
                            config.database().map(DatabaseServer::shownUrl).orElse("H2 in the data directory"));
            return new Hexaflow(storage, server, report, modules, config.service().shutdownGrace(),
                    instance.shared() ? Optional.of(lease) : Optional.empty(), renewal);
        } catch (RuntimeException e) {
            abandon(storage, migrated, modules, renewal, firstStartKept ? null : ready);
            throw e;
        }
    }

    /**
     * Runs left running when writes failed could not keep their end: they end failed, with the reason, and their
     * chat messages end in error. Runs still going on here keep their own end (failed by their recorder if one of
     * their writes was refused), so that no caller is told an end the store does not hold. So do documents left
     * indexing, but those still being indexed here.
     */
    private static void closeCutOffWorkOnRecovery(StorageWatch health, Modules modules) {
        WorkflowModule workflows = modules.workflows();
        RunRepository runs = workflows.runRecords;
        health.onRecovered(reason -> {
            runs.failUnfinished(reason, Clock.systemUTC().instant().getEpochSecond(), workflows.runs.drain.inFlight());
            modules.chat().closeInterruptedTurns(runs);
            workflows.knowledge.interrupted.closeInterrupted(CloseInterruptedIndexingUseCase.STORE_FAILED);
        });
    }

    /** This instance's lease among those that share the store; a lease that ran out stops the runs going on here. */
    private static InstanceLease lease(Storage storage, Modules modules) {
        WorkflowModule workflows = modules.workflows();
        RunRepository runs = workflows.runRecords;
        return new InstanceLease(storage.instance().id(), new JdbiInstanceLeases(storage.jdbi()), runs,
                () -> modules.chat().closeInterruptedTurns(runs), () -> {
                    int stopped = workflows.runs.drain.stopInFlight(InstanceLease.REASON);
                    LOG.error("This instance's lease ran out (it did not renew it for {} s): another instance has "
                            + "failed its runs; the {} runs going on here are stopped", InstanceLease.LASTS
                            .toSeconds(), stopped);
                }, workflows.knowledge.interrupted::closeOfLapsedInstances);
    }

    /** The metrics' gauges read the server's parts, and each answered request is counted and traced. */
    private static void watched(JavalinHttpServer server, Modules modules, StorageWatch health, Configuration config) {
        WorkflowModule workflows = modules.workflows();
        modules.observability().watch(workflows.runRecords::writeBacklog, workflows.runs.drain, health,
                config.dataDir());
        server.observeRequests(modules.observability().requests());
        server.traceRequests(modules.observability().traceRequests());
    }

    /**
     * Once migrated, the database is made ready on a thread of its own while the HTTP server starts on this one;
     * the server holds every request until the database is ready.
     */
    private static CompletableFuture<Prepared> prepareInBackground(CompletableFuture<Void> migrated,
            Storage storage, Configuration config, SecretGenerator secrets, Modules modules, InstanceLease lease,
            LeaseRenewal renewal, CompletableFuture<AdminToken> adminToken) {
        return migrated.thenApplyAsync(done -> {
            Prepared prepared = StorePreparation.prepare(storage, modules.campus(), modules.workflows(),
                    modules.chat(), lease, renewal::start);
            if (!adminToken.isDone()) {
                adminToken.complete(AdminTokens.shared(storage, config, secrets));
            }
            return prepared;
        }, task -> new Thread(task, "hexaflow-start").start());
    }

    private static Prepared awaitReady(JavalinHttpServer server, CompletableFuture<Prepared> ready) {
        try {
            return ready.join();
        } catch (CompletionException e) {
            server.close();
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        }
    }

    /** Tells where this instance serves: to its workflows' outbound policy, and to the other instances. */
    private static String serve(Configuration config, JavalinHttpServer server, Instance instance,
            InstanceOrigins origins, InstanceLease lease, LeaseRenewal renewal) {
        String host = clientHost(config.host());
        if (origins.outboundToItself()) {
            origins.allowOwnOrigin(host.replace("[", "").replace("]", ""), server.port());
        }
        lease.serving(new InstanceLeases.Served(instance.machine(), host + ":" + server.port()));
        if (instance.shared()) {
            renewal.renewNow(); // where it serves, told at once
        }
        return "http://" + host + ":" + server.port();
    }

    /** A demo app, imported on the first start only. */
    private static Optional<StartReport.Demo> demo(Prepared prepared, Modules modules, String dsl, String baseUrl) {
        if (!prepared.firstStart()) {
            return Optional.empty();
        }
        ImportedApp app = modules.workflows().apps.importDemo(dsl);
        return Optional.of(new StartReport.Demo(app.apiKey(), baseUrl + "/apps/" + app.siteCode()));
    }

    private static void markFirstStartDone(Storage storage) {
        try {
            storage.markFirstServerStartDone();
        } catch (RuntimeException e) {
            // The server serves; the next start is taken for a first one again (a new campus key, the demos).
            LOG.warn("Could not mark the first start done: {}", e.getMessage());
        }
    }

    /**
     * A start that failed: what was opened closes, and a first start it took ({@code ready}, null once the first
     * start is kept) goes back to the next start.
     */
    private static void abandon(Storage storage, CompletableFuture<Void> migrated, Modules modules,
            LeaseRenewal renewal, CompletableFuture<Prepared> ready) {
        migrated.exceptionally(failure -> null).join(); // the store closes below, never under its migration
        if (renewal != null) {
            renewal.close();
        }
        if (ready != null) {
            Prepared prepared = ready.exceptionally(failure -> null).join();
            if (prepared != null && prepared.firstStart()) {
                StorePreparation.giveUpFirstStart(storage);
            }
        }
        try {
            if (modules != null) {
                modules.close();
            }
        } finally {
            storage.close();
        }
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

    /** Prunes ended runs past the retention now, as the pruner does every ten minutes; answers how many. */
    int pruneRunsNow() {
        return modules.workflows().runs.pruneRuns.prune();
    }

    /** Client connections open now. */
    int openConnections() {
        return server.openConnections();
    }

    /** The routes the server answers, as {@code "METHOD /path/{param}"}: for the API document's tests. */
    List<String> routes() {
        return server.routes();
    }

    public StartReport report() {
        return report;
    }

    /**
     * Stops gracefully: new requests get 503 and both probes say draining; the runs in flight get the grace
     * period to finish and their answers and streams end as usual; what is left is then stopped as a stop does;
     * requests still under way get a few seconds more; everything is committed; one line says what happened.
     * Safe to call more than once: a later call returns at once.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            server.drain();
            DrainRunsUseCase.Drained drained = modules.workflows().runs.drain.drain(grace);
            boolean answered = server.awaitRequests(REQUESTS_AFTER_RUNS);
            LOG.info("Shutting down: {} runs finished during the drain, {} were stopped{}{}", drained.finished(),
                    drained.stopped(), drained.left() > 0 ? ", " + drained.left() + " did not end" : "",
                    answered ? "" : "; some requests were still being answered");
        } finally {
            try {
                server.close();
            } finally {
                try {
                    modules.close();
                    renewal.close();
                    releaseLease();
                } finally {
                    storage.close();
                    LOG.info("Hexaflow stopped");
                }
            }
        }
    }

    /**
     * Its runs have ended and are kept: giving the lease up lets no other instance fail one; a renewal under way
     * ends first (the lease is held by one at a time), and none comes after. A database out of reach now keeps it:
     * it lapses by itself, as a killed instance's does.
     */
    private void releaseLease() {
        lease.ifPresent(held -> {
            try {
                held.release();
            } catch (RuntimeException e) {
                LOG.warn("Could not give the instance's lease up ({}); it lapses by itself", e.getMessage());
            }
        });
    }

    /** Ends the grace period of a shutdown under way: the runs still in flight are stopped at once. */
    public void hurry() {
        modules.workflows().runs.drain.hurry();
    }
}
