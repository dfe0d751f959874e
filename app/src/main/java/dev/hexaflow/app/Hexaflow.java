package dev.hexaflow.app;

import dev.hexaflow.adapters.http.admin.AdminAppRoutes;
import dev.hexaflow.adapters.http.admin.AdminAuthorization;
import dev.hexaflow.adapters.http.admin.AdminBackupRoutes;
import dev.hexaflow.adapters.http.admin.AdminCampusRoutes;
import dev.hexaflow.adapters.http.admin.AdminKnowledgeRoutes;
import dev.hexaflow.adapters.http.admin.AdminToolRoutes;
import dev.hexaflow.adapters.http.admin.AdminWebhookRoutes;
import dev.hexaflow.adapters.http.campus.CampusFeedRoutes;
import dev.hexaflow.adapters.http.server.JavalinHttpServer;
import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.http.serviceapi.ServiceApiAuthentication;
import dev.hexaflow.adapters.http.serviceapi.ServiceApiCors;
import dev.hexaflow.adapters.http.serviceapi.chat.ChatRoutes;
import dev.hexaflow.adapters.http.serviceapi.chat.ConversationRoutes;
import dev.hexaflow.adapters.http.serviceapi.datasets.DatasetKeyAuthentication;
import dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeApiRoutes;
import dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeMetadataRoutes;
import dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeTagRoutes;
import dev.hexaflow.adapters.http.serviceapi.workflow.AppInfoRoutes;
import dev.hexaflow.adapters.http.serviceapi.workflow.FilePreviewRoutes;
import dev.hexaflow.adapters.http.serviceapi.workflow.LogRoutes;
import dev.hexaflow.adapters.http.serviceapi.workflow.RunRoutes;
import dev.hexaflow.adapters.http.serviceapi.workflow.ToolFileRoutes;
import dev.hexaflow.adapters.http.serviceapi.workflow.UploadRoutes;
import dev.hexaflow.adapters.http.webapp.WebAppRoutes;
import dev.hexaflow.adapters.persistence.StorageWatch;
import dev.hexaflow.adapters.persistence.jdbi.JdbiInstanceLeases;
import dev.hexaflow.adapters.persistence.jdbi.JdbiSharedSecrets;
import dev.hexaflow.app.adapters.SecureRandomSecretGenerator;
import dev.hexaflow.app.config.Configuration;
import dev.hexaflow.app.config.DataDirectory;
import dev.hexaflow.app.config.DatabaseServer;
import dev.hexaflow.app.wiring.BackupModule;
import dev.hexaflow.app.wiring.CampusModule;
import dev.hexaflow.app.wiring.ChatModule;
import dev.hexaflow.app.wiring.Instance;
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
import dev.hexaflow.domain.secret.SecretHash;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The composition root and launcher: a running server over its storage, started and stopped as one. */
public final class Hexaflow implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Hexaflow.class);
    /** How long answers and streams under way get once the runs have ended. */
    private static final Duration REQUESTS_AFTER_RUNS = Duration.ofSeconds(5);

    private final Storage storage;
    private final JavalinHttpServer server;
    private final StartReport report;
    private final WorkflowModule workflows;
    private final CampusModule campus;
    private final ChatModule chat;
    private final Duration grace;
    /** This instance's lease, where instances share the store; renewed on {@link #leases}. */
    private final Optional<InstanceLease> lease;
    private final ScheduledExecutorService leases;
    private final AtomicBoolean closed = new AtomicBoolean();

    private Hexaflow(Storage storage, JavalinHttpServer server, StartReport report, WorkflowModule workflows,
            CampusModule campus, ChatModule chat, Duration grace, Optional<InstanceLease> lease,
            ScheduledExecutorService leases) {
        this.storage = storage;
        this.server = server;
        this.report = report;
        this.workflows = workflows;
        this.campus = campus;
        this.chat = chat;
        this.grace = grace;
        this.lease = lease;
        this.leases = leases;
    }

    /** The thread that renews the lease of an instance that shares its store. */
    private static ScheduledExecutorService leaseThread() {
        return Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "hexaflow-lease");
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * Where instances share the store, one renewal: renews this instance's lease (with where it serves, once it
     * serves), fails the runs of instances whose leases ran out, and lets workflows call the instances that live.
     * It is made every {@link InstanceLease#RENEW_EVERY} from the start's first renewal on, so that a long first
     * start keeps the lease too, and once more as the instance starts serving.
     */
    private static Runnable renewal(InstanceLease kept, WorkflowModule workflows, Storage storage) {
        return () -> {
            try {
                int failed = kept.renewAndSweep();
                if (failed > 0) {
                    LOG.warn("{} runs of an instance that stopped answering are now failed", failed);
                }
                // The other instances serve the same API: where workflows may call this one
                // (HEXAFLOW_OUTBOUND_ALLOW_SELF), they may call those too.
                if (workflows.outboundToItself()) {
                    workflows.allowInstanceOrigins(kept.liveInstances(), storage.instance().machine());
                }
            } catch (Throwable e) {
                // Caught whole: a task that throws is never run again by its executor.
                LOG.warn("Renewing this instance's lease failed; the next try is in {} s: {}",
                        InstanceLease.RENEW_EVERY.toSeconds(), e.toString());
            }
        };
    }

    /**
     * Opens the data directory, loads the bundled data on a first start, and starts serving.
     *
     * @throws StartupException when the data directory or the port is taken
     */
    public static Hexaflow start(Configuration config) {
        SecureRandomSecretGenerator secrets = new SecureRandomSecretGenerator();
        Storage storage = Storage.connect(config);
        WorkflowModule workflows = null;
        CampusModule campus = null;
        ChatModule chat = null;
        CompletableFuture<Prepared> ready = null;
        boolean firstStartKept = false;
        ScheduledExecutorService leases = leaseThread();
        try {
            Instance instance = storage.instance();
            // Instances that share a store share its admin token: its hash is in the store, read once it is ready.
            CompletableFuture<AdminToken> adminToken = new CompletableFuture<>();
            if (!instance.shared()) {
                DataDirectory.AdminToken kept = config.adminToken()
                        .map(token -> new DataDirectory.AdminToken(token, false))
                        .orElseGet(() -> storage.directory().adminToken(secrets));
                adminToken.complete(new AdminToken(SecretHash.of(kept.value()),
                        kept.madeNow() ? Optional.of(kept.value()) : Optional.empty()));
            }
            StorageWatch health = storage.health(config.service().minFreeDiskMb());
            campus = new CampusModule(storage.jdbi(), secrets, Clock.systemUTC(), health, instance.signals());
            CampusModule campusModule = campus;
            workflows = new WorkflowModule(storage.jdbi(), config.dataDir().resolve("files"), secrets, config,
                    Clock.systemUTC(), health, health, instance);
            workflows.serveCampusFeed(campus.feed);
            chat = new ChatModule(storage.jdbi(), config.engine(), Clock.systemUTC(), workflows);
            RunRepository runs = workflows.runs;
            ChatModule chatModule = chat;
            WorkflowModule module = workflows;
            // Runs left running when writes failed could not keep their end: they end failed, with the reason, and
            // their chat messages end in error. Runs still going on here keep their own end (failed by their
            // recorder if one of their writes was refused), so that no caller is told an end the store does not
            // hold.
            // So do documents left indexing, but those still being indexed here.
            health.onRecovered(reason -> {
                runs.failUnfinished(reason, Clock.systemUTC().instant().getEpochSecond(), module.drain.inFlight());
                chatModule.closeInterruptedTurns(runs);
                module.knowledge.interrupted.closeInterrupted(CloseInterruptedIndexingUseCase.STORE_FAILED);
            });
            InstanceLease lease = new InstanceLease(instance.id(), new JdbiInstanceLeases(storage.jdbi()), runs,
                    () -> chatModule.closeInterruptedTurns(runs), () -> {
                        int stopped = module.drain.stopInFlight(InstanceLease.REASON);
                        LOG.error("This instance's lease ran out (it did not renew it for {} s): another instance "
                                + "has failed its runs; the {} runs going on here are stopped", InstanceLease.LASTS
                                .toSeconds(), stopped);
                    }, module.knowledge.interrupted::closeOfLapsedInstances);
            // The database is migrated and made ready on a thread of its own while the HTTP server starts on this
            // one; the server holds every request until the database is ready.
            ready = CompletableFuture.supplyAsync(() -> {
                Prepared prepared = prepare(storage, campusModule, module, chatModule, lease,
                        () -> leases.scheduleWithFixedDelay(renewal(lease, module, storage),
                                InstanceLease.RENEW_EVERY.toMillis(), InstanceLease.RENEW_EVERY.toMillis(),
                                TimeUnit.MILLISECONDS));
                if (!adminToken.isDone()) {
                    adminToken.complete(sharedAdminToken(storage, config, secrets));
                }
                return prepared;
            }, task -> new Thread(task, "hexaflow-start").start());
            AdminAuthorization admin = new AdminAuthorization(() -> adminToken.join().hash());
            ServiceApiAuthentication serviceApi = new ServiceApiAuthentication(workflows.authenticate);
            List<RouteGroup> routes = List.of(
                    admin,
                    new CampusFeedRoutes(campus.feed),
                    new AdminCampusRoutes(admin, campus.issueKey, campus.banKey, campus.importData),
                    new ServiceApiCors(config.service().corsOrigins()),
                    serviceApi,
                    new RunRoutes(workflows.run, workflows.getRun, workflows.stop, workflows.nodeExecutions,
                            workflows.followRun, serviceApi, config.service().pingInterval(),
                            config.service().requests()),
                    new ChatRoutes(chat.send, chat.stop, chat.speak, chat.listen, config.service().pingInterval(),
                            config.service().requests()),
                    new ConversationRoutes(chat.listMessages, chat.giveFeedback, chat.listAppFeedbacks,
                            chat.suggestQuestions, chat.listConversations, chat.deleteConversation,
                            chat.renameConversation, chat.listVariables, chat.updateVariable,
                            config.service().requests()),
                    new UploadRoutes(workflows.upload),
                    new ToolFileRoutes(workflows.toolFiles),
                    new FilePreviewRoutes(workflows.previewUpload),
                    new LogRoutes(workflows.logs),
                    new AppInfoRoutes(workflows.describe),
                    new AdminAppRoutes(admin, workflows.importApp, workflows.listApps, workflows.publish,
                            workflows.exportDsl, workflows.keys, workflows.describe, workflows.updateSite,
                            workflows.webhooks),
                    new AdminWebhookRoutes(admin, workflows.webhooks, workflows.deliveries),
                    new AdminToolRoutes(admin, workflows.listTools, workflows.mcpServers, workflows.toolBindings),
                    new AdminKnowledgeRoutes(admin, workflows.knowledge.bases, workflows.knowledge.addDocument,
                            workflows.knowledge.retrieve, workflows.knowledge.keys),
                    new DatasetKeyAuthentication(workflows.knowledge.keys),
                    new KnowledgeTagRoutes(workflows.knowledge.tags),
                    new KnowledgeMetadataRoutes(workflows.knowledge.metadata),
                    new KnowledgeApiRoutes(workflows.knowledge.bases, workflows.knowledge.addDocument,
                            workflows.knowledge.documents, workflows.knowledge.retrieve, workflows.knowledge.tags,
                            workflows.knowledge.metadata),
                    new AdminBackupRoutes(admin, BackupModule.backups(storage, config.dataDir(), Clock.systemUTC(),
                            campus::keepUsesNow),
                            Clock.systemUTC()),
                    new WebAppRoutes(workflows.webApp));
            JavalinHttpServer server = startServer(config, routes, ready);
            Prepared prepared;
            try {
                prepared = ready.join();
            } catch (CompletionException e) {
                server.close();
                throw e.getCause() instanceof RuntimeException cause ? cause : e;
            }
            String baseUrl = "http://" + clientHost(config.host()) + ":" + server.port();
            if (workflows.outboundToItself()) {
                workflows.allowOwnOrigin(clientHost(config.host()).replace("[", "").replace("]", ""), server.port());
            }
            lease.serving(new InstanceLeases.Served(instance.machine(), clientHost(config.host()) + ":"
                    + server.port()));
            if (instance.shared()) {
                leases.execute(renewal(lease, workflows, storage)); // where it serves, told at once
            }
            Optional<StartReport.Demo> demo = Optional.empty();
            Optional<StartReport.Demo> chatDemo = Optional.empty();
            if (prepared.firstStart()) {
                demo = Optional.of(demoOf(workflows.importDemo(WorkflowModule.DEMO_DSL), baseUrl));
                chatDemo = Optional.of(demoOf(workflows.importDemo(WorkflowModule.CHAT_DEMO_DSL), baseUrl));
            }
            StartReport report = new StartReport(baseUrl, config.dataDir(), adminToken.join().madeNow(),
                    prepared.newCampusKey(),
                    demo, chatDemo, config.database().map(DatabaseServer::shownUrl));
            server.watchStorage(new CheckStorageService(health));
            server.markReady();
            if (prepared.firstStart()) {
                try {
                    storage.markFirstServerStartDone();
                } catch (RuntimeException e) {
                    // The server serves; the next start is taken for a first one again (a new campus key, the demos).
                    LOG.warn("Could not mark the first start done: {}", e.getMessage());
                }
                firstStartKept = true;
            }
            workflows.startDelivering();
            workflows.startPruning();
            return new Hexaflow(storage, server, report, workflows, campus, chat, config.service().shutdownGrace(),
                    instance.shared() ? Optional.of(lease) : Optional.empty(), leases);
        } catch (RuntimeException e) {
            leases.shutdownNow();
            if (ready != null) {
                Prepared prepared = ready.exceptionally(failure -> null).join();
                if (prepared != null && prepared.firstStart() && !firstStartKept) {
                    giveUpFirstStart(storage);
                }
            }
            if (chat != null) {
                chat.close();
            }
            if (workflows != null) {
                workflows.close();
            }
            if (campus != null) {
                campus.close();
            }
            storage.close();
            throw e;
        }
    }

    /** Gives the first start back for the next start to make, as this one failed. */
    private static void giveUpFirstStart(Storage storage) {
        try {
            storage.giveUpFirstServerStart();
        } catch (RuntimeException e) {
            LOG.warn("Could not give the failed first start back; the demo apps and a campus key are to be made by "
                    + "hand: {}", e.getMessage());
        }
    }

    private static final String SHARED_ADMIN_TOKEN = "admin_token";

    /**
     * The admin token of instances that share the store, kept there as its hash. A token set for this instance
     * (HEXAFLOW_ADMIN_TOKEN) is its own, and the shared one if there was none yet; otherwise the shared one, which
     * the first instance takes from a token kept in the data directory (by a version that kept it there) or makes
     * and shows.
     */
    private static AdminToken sharedAdminToken(Storage storage, Configuration config, SecretGenerator secrets) {
        JdbiSharedSecrets shared = new JdbiSharedSecrets(storage.jdbi());
        if (config.adminToken().isPresent()) {
            SecretHash configured = SecretHash.of(config.adminToken().get());
            shared.secretOrAdd(SHARED_ADMIN_TOKEN, configured::hex);
            return new AdminToken(configured, Optional.empty());
        }
        Optional<String> kept = storage.directory().keptAdminToken();
        String candidate = kept.orElseGet(() -> DataDirectory.newAdminToken(secrets));
        String hash = shared.secretOrAdd(SHARED_ADMIN_TOKEN, () -> SecretHash.of(candidate).hex());
        boolean madeNow = kept.isEmpty() && hash.equals(SecretHash.of(candidate).hex());
        return new AdminToken(new SecretHash(hash), madeNow ? Optional.of(candidate) : Optional.empty());
    }

    /** The admin token as this start knows it: its hash, and the token itself where this start made it. */
    private record AdminToken(SecretHash hash, Optional<String> madeNow) {
    }

    /** What preparing the database found: whether this is the server's first start, and the campus key it issued. */
    private record Prepared(boolean firstStart, Optional<String> newCampusKey) {
    }

    /**
     * Migrates the database; fails the runs (and their chat messages) a previous process left running; until a
     * server's first start on it has completed (even where a command made the database before) loads the bundled
     * campus data and issues a campus key (answered); deletes the half-written uploads a previous process left.
     */
    private static Prepared prepare(Storage storage, CampusModule campus, WorkflowModule workflows,
            ChatModule chat, InstanceLease lease, Runnable keepLease) {
        storage.migrate();
        // Alone on its store, a start fails every run left running; sharing it, only those of no live instance,
        // once it holds a lease of its own, kept from then on (so that no other start takes its first start over).
        boolean shared = storage.instance().shared();
        int interrupted = shared ? lease.renewAndSweep() : workflows.closeInterruptedRuns(Clock.systemUTC());
        if (shared) {
            keepLease.run();
        }
        Optional<String> newCampusKey = Optional.empty();
        boolean firstStart = storage.takeFirstServerStart(shared ? lease.liveSince() : 0);
        if (firstStart) {
            try {
                campus.loadBundledData();
                newCampusKey = Optional.of(campus.issueKey.issue());
            } catch (RuntimeException e) {
                giveUpFirstStart(storage);
                throw e;
            }
        }
        if (interrupted > 0) {
            LOG.warn("{} runs were left running when the server last stopped; they are now failed", interrupted);
        }
        // Sharing the store, the lease's sweep above ended the documents instances that died left indexing.
        if (!shared) {
            workflows.knowledge.interrupted.closeInterrupted(CloseInterruptedIndexingUseCase.STOPPED);
        }
        int cutOff = chat.closeInterruptedTurns(workflows.runs);
        if (cutOff > 0) {
            LOG.warn("{} chat messages were left without their answer; they now end in error", cutOff);
        }
        if (workflows.knowledge.rebuild.rebuildIfStale()) {
            LOG.info("The knowledge index was missing or out of step with the database; it is rebuilt");
        }
        int orphans = workflows.deleteOrphanBlobs();
        if (orphans > 0) {
            LOG.warn("{} uploads were cut off when the server last stopped; their partial files are deleted",
                    orphans);
        }
        return new Prepared(firstStart, newCampusKey);
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
    private static StartReport.Demo demoOf(ImportedApp app, String baseUrl) {
        return new StartReport.Demo(app.apiKey(), baseUrl + "/apps/" + app.siteCode());
    }

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
        return workflows.pruneRuns.prune();
    }

    /** Client connections open now. */
    int openConnections() {
        return server.openConnections();
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
            DrainRunsUseCase.Drained drained = workflows.drain.drain(grace);
            boolean answered = server.awaitRequests(REQUESTS_AFTER_RUNS);
            LOG.info("Shutting down: {} runs finished during the drain, {} were stopped{}{}", drained.finished(),
                    drained.stopped(), drained.left() > 0 ? ", " + drained.left() + " did not end" : "",
                    answered ? "" : "; some requests were still being answered");
        } finally {
            try {
                server.close();
            } finally {
                try {
                    campus.close();
                    chat.close();
                    workflows.close();
                    leases.shutdownNow();
                    // Its runs have ended and are kept: giving the lease up lets no other instance fail one; a
                    // renewal under way ends first (the lease is held by one at a time), and none comes after.
                    // A database out of reach now keeps it: it lapses by itself, as a killed instance's does.
                    lease.ifPresent(held -> {
                        try {
                            held.release();
                        } catch (RuntimeException e) {
                            LOG.warn("Could not give the instance's lease up ({}); it lapses by itself",
                                    e.getMessage());
                        }
                    });
                } finally {
                    storage.close();
                }
            }
        }
    }

    /** Ends the grace period of a shutdown under way: the runs still in flight are stopped at once. */
    public void hurry() {
        workflows.drain.hurry();
    }
}
