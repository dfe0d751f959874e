package dev.hexaflow.app.wiring;

import dev.hexaflow.adapters.clients.net.JdkHttpCallbackSender;
import dev.hexaflow.adapters.clients.tool.openapi.JacksonOpenApiToolRunner;
import dev.hexaflow.adapters.dsl.YamlWorkflowDslReader;
import dev.hexaflow.adapters.http.wire.JacksonRunDetailRenderer;
import dev.hexaflow.adapters.http.wire.JacksonRunEventFormat;
import dev.hexaflow.adapters.nodes.net.OutboundExchange;
import dev.hexaflow.adapters.persistence.FileSystemBlobStore;
import dev.hexaflow.adapters.persistence.jdbi.JdbiAppKeyRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiAppRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiDeliveryRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiEndUserRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiIdempotencyKeyRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiRunRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiToolFileRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiToolRegistryRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiUploadRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiWebhookSettingsRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiWorkflowVersionRepository;
import dev.hexaflow.adapters.persistence.jdbi.WriteGate;
import dev.hexaflow.app.adapters.HmacSigner;
import dev.hexaflow.app.adapters.HmacWebhookSigner;
import dev.hexaflow.app.config.Configuration;
import dev.hexaflow.application.apps.port.in.AuthenticateUseCase;
import dev.hexaflow.application.apps.port.in.DescribeAppUseCase;
import dev.hexaflow.application.apps.port.in.ExportDslUseCase;
import dev.hexaflow.application.apps.port.in.ImportAppUseCase;
import dev.hexaflow.application.apps.port.in.ListAppsUseCase;
import dev.hexaflow.application.apps.port.in.ManageAppKeysUseCase;
import dev.hexaflow.application.apps.port.in.PublishWorkflowUseCase;
import dev.hexaflow.application.apps.port.in.UpdateSiteUseCase;
import dev.hexaflow.application.apps.port.in.WebAppUseCase;
import dev.hexaflow.application.apps.service.AuthenticateService;
import dev.hexaflow.application.apps.service.DescribeAppService;
import dev.hexaflow.application.apps.service.ExportDslService;
import dev.hexaflow.application.apps.service.ImportAppService;
import dev.hexaflow.application.apps.service.ListAppsService;
import dev.hexaflow.application.apps.service.ManageAppKeysService;
import dev.hexaflow.application.apps.service.Publications;
import dev.hexaflow.application.apps.service.PublishWorkflowService;
import dev.hexaflow.application.apps.service.UpdateSiteService;
import dev.hexaflow.application.apps.service.WebAppService;
import dev.hexaflow.application.apps.service.WebTokens;
import dev.hexaflow.application.campus.port.in.ServeCampusFeedUseCase;
import dev.hexaflow.application.common.FileSignatures;
import dev.hexaflow.application.common.port.out.SecretGenerator;
import dev.hexaflow.application.common.port.out.StorageHealth;
import dev.hexaflow.application.files.port.in.PreviewUploadUseCase;
import dev.hexaflow.application.files.port.in.UploadFileUseCase;
import dev.hexaflow.application.files.service.PreviewUploadService;
import dev.hexaflow.application.files.service.UploadFileService;
import dev.hexaflow.application.files.service.UploadedFileContents;
import dev.hexaflow.application.instances.port.out.InstanceLeases;
import dev.hexaflow.application.knowledge.service.KnowledgeBasesRetriever;
import dev.hexaflow.application.runs.port.in.DrainRunsUseCase;
import dev.hexaflow.application.runs.port.in.FollowRunUseCase;
import dev.hexaflow.application.runs.port.in.GetRunUseCase;
import dev.hexaflow.application.runs.port.in.ListNodeExecutionsUseCase;
import dev.hexaflow.application.runs.port.in.ListRunLogsUseCase;
import dev.hexaflow.application.runs.port.in.PruneRunsUseCase;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase;
import dev.hexaflow.application.runs.port.in.StopTaskUseCase;
import dev.hexaflow.application.runs.port.out.IdempotencyKeyRepository;
import dev.hexaflow.application.runs.port.out.RunRepository;
import dev.hexaflow.application.runs.service.DrainRunsService;
import dev.hexaflow.application.runs.service.FollowRunService;
import dev.hexaflow.application.runs.service.GetRunService;
import dev.hexaflow.application.runs.service.HeldRecords;
import dev.hexaflow.application.runs.service.ListNodeExecutionsService;
import dev.hexaflow.application.runs.service.ListRunLogsService;
import dev.hexaflow.application.runs.service.PruneRunsService;
import dev.hexaflow.application.runs.service.RunFeeds;
import dev.hexaflow.application.runs.service.RunWorkflowService;
import dev.hexaflow.application.runs.service.StopTaskService;
import dev.hexaflow.application.runs.service.TaskRegistry;
import dev.hexaflow.application.tools.port.in.ListToolsUseCase;
import dev.hexaflow.application.tools.port.in.ManageMcpServersUseCase;
import dev.hexaflow.application.tools.port.in.ManageToolBindingsUseCase;
import dev.hexaflow.application.tools.service.BoundToolRunners;
import dev.hexaflow.application.tools.service.BoundTools;
import dev.hexaflow.application.tools.service.CampusFeedToolRunner;
import dev.hexaflow.application.tools.service.ListToolsService;
import dev.hexaflow.application.tools.service.ManageMcpServersService;
import dev.hexaflow.application.tools.service.ManageToolBindingsService;
import dev.hexaflow.application.tools.service.McpToolAddresses;
import dev.hexaflow.application.tools.service.ToolFileService;
import dev.hexaflow.application.tools.service.ToolFilesKept;
import dev.hexaflow.application.tools.service.WorkflowAppToolRunner;
import dev.hexaflow.application.webhooks.port.in.DeliverCallbacksUseCase;
import dev.hexaflow.application.webhooks.port.in.ListDeliveriesUseCase;
import dev.hexaflow.application.webhooks.port.in.ManageWebhooksUseCase;
import dev.hexaflow.application.webhooks.service.DeliverCallbacksService;
import dev.hexaflow.application.webhooks.service.ListDeliveriesService;
import dev.hexaflow.application.webhooks.service.ManageWebhooksService;
import dev.hexaflow.application.webhooks.service.RunCallbacks;
import dev.hexaflow.application.webhooks.service.RunCompletionWebhooks;
import dev.hexaflow.domain.app.RunRetention;
import dev.hexaflow.domain.app.UploadLimits;
import dev.hexaflow.domain.id.TimeOrderedIds;
import dev.hexaflow.domain.net.IpAddress;
import dev.hexaflow.domain.net.OutboundPolicy;
import dev.hexaflow.domain.tool.ToolBinding;
import dev.hexaflow.engine.Engines;
import dev.hexaflow.workflow.engine.WorkflowEngine;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The workflow service's use cases on the Jdbi repositories, the blob store and the standard engine. Closing it
 * commits the writes its repositories have queued.
 */
public final class WorkflowModule implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(WorkflowModule.class);

    public static final String DEMO_DSL = "/demo/holiday-counter.yml";
    public static final String CHAT_DEMO_DSL = "/demo/holiday-chat.yml";

    public final ImportAppUseCase importApp;
    public final PublishWorkflowUseCase publish;
    public final ListAppsUseCase listApps;
    public final ManageAppKeysUseCase keys;
    public final UpdateSiteUseCase updateSite;
    public final AuthenticateUseCase authenticate;
    public final WebAppUseCase webApp;
    public final RunWorkflowUseCase run;
    public final StopTaskUseCase stop;
    public final GetRunUseCase getRun;
    public final ListRunLogsUseCase logs;
    public final ListNodeExecutionsUseCase nodeExecutions;
    public final FollowRunUseCase followRun;
    public final PruneRunsUseCase pruneRuns;
    /** Which run each idempotency key started; a claim past its day is pruned every {@link #PRUNE_EVERY}. */
    private final IdempotencyKeyRepository idempotencyKeys;
    private final RunRetention retention;
    private final Clock clock;
    /** Prunes runs as the retention says, every {@link #PRUNE_EVERY}; none when runs are kept for good. */
    private final java.util.concurrent.ScheduledExecutorService pruner = java.util.concurrent.Executors
            .newSingleThreadScheduledExecutor(task -> {
                Thread thread = new Thread(task, "hexaflow-prune");
                thread.setDaemon(true);
                return thread;
            });
    static final java.time.Duration PRUNE_EVERY = java.time.Duration.ofMinutes(10);
    /** How often held runs are looked at: one is kept at most this long after its hold is over. */
    static final java.time.Duration HOLD_CHECK = java.time.Duration.ofMillis(50);
    /** The blocking runs whose records are held until they end; those held past the hold are kept by a timer. */
    private final HeldRecords heldRuns = new HeldRecords();
    private final java.util.concurrent.ScheduledExecutorService holdTimer = java.util.concurrent.Executors
            .newSingleThreadScheduledExecutor(task -> {
                Thread thread = new Thread(task, "hexaflow-hold");
                thread.setDaemon(true);
                return thread;
            });
    /**
     * Calls the runs' listeners (a stream's client, a chat turn's keeper), each run's one event at a time, so that
     * the store's single writer thread never waits on them. A run holds at most one thread at a time, and runs
     * are bounded per app; an idle thread ends after a second, so a burst of streams leaves no threads behind.
     */
    private final java.util.concurrent.ExecutorService runListeners = new java.util.concurrent.ThreadPoolExecutor(
            0, Integer.MAX_VALUE, 1, java.util.concurrent.TimeUnit.SECONDS,
            new java.util.concurrent.SynchronousQueue<>(), task -> {
                Thread thread = new Thread(task, "hexaflow-run-listener");
                thread.setDaemon(true);
                return thread;
            });
    public final ManageWebhooksUseCase webhooks;
    public final ListDeliveriesUseCase deliveries;
    final DeliverCallbacksUseCase deliverCallbacks;
    /**
     * Looks for due webhook deliveries every {@link #DELIVERY_POLL} (and at once when a run with one ends), and
     * for deliveries whose run ended unheard every {@link #DELIVERY_SWEEP}; the posts themselves run on
     * {@link #callbackSends}, so that a slow receiver holds up only its own delivery.
     */
    private final java.util.concurrent.ScheduledExecutorService deliverer = java.util.concurrent.Executors
            .newSingleThreadScheduledExecutor(task -> {
                Thread thread = new Thread(task, "hexaflow-webhooks");
                thread.setDaemon(true);
                return thread;
            });
    /**
     * How many webhook posts run at once; an app has at most half of them, a receiver an eighth. Posts wait on the
     * network, not the processor: sixteen threads cost little, and eight receivers that never answer are needed
     * to hold every one.
     */
    static final int CALLBACK_SENDERS = 16;
    /**
     * The deliverer claims no more deliveries than it has free senders, so the queue only bridges the moment
     * between a send's end being counted and its thread taking the next.
     */
    private final java.util.concurrent.ExecutorService callbackSends = new java.util.concurrent.ThreadPoolExecutor(
            CALLBACK_SENDERS, CALLBACK_SENDERS, 0, java.util.concurrent.TimeUnit.MILLISECONDS,
            new java.util.concurrent.ArrayBlockingQueue<>(CALLBACK_SENDERS), task -> {
                Thread thread = new Thread(task, "hexaflow-webhook-send");
                thread.setDaemon(true);
                return thread;
            });
    /** How long closing waits for the posts under way to end and keep their outcome before the storage closes. */
    static final java.time.Duration CALLBACK_SENDS_GRACE = java.time.Duration.ofSeconds(2);
    static final java.time.Duration DELIVERY_SWEEP = java.time.Duration.ofSeconds(30);
    private final java.time.Duration deliveryPoll;
    public final UploadFileUseCase upload;
    public final DescribeAppUseCase describe;
    public final DrainRunsUseCase drain;
    public final ExportDslUseCase exportDsl;
    public final RunRepository runs;
    public final ListToolsUseCase listTools;
    public final ManageMcpServersUseCase mcpServers;
    public final ManageToolBindingsUseCase toolBindings;
    public final ToolFileService toolFiles;
    public final KnowledgeModule knowledge;
    /** Signs the URLs of tool files and of uploads; the chat module signs its messages' files with it. */
    final FileSignatures fileSignatures;
    public final PreviewUploadUseCase previewUpload;
    /** The apps and their published versions; the chat module shares them (one cache each). */
    final JdbiAppRepository apps;
    final JdbiWorkflowVersionRepository versions;
    /** The end users of runs and uploads; the chat module shares them. */
    final JdbiEndUserRepository endUsers;
    final WorkflowEngine engine;
    private final JdbiUploadRepository uploads;
    private final FileSystemBlobStore blobStore;
    private final JdbiToolFileRepository toolFileRecords;
    private final AtomicReference<OutboundPolicy> outbound;
    /** The outbound policy as configured, before the origins of this instance and its siblings are allowed. */
    private final OutboundPolicy configuredOutbound;
    /** The campus feed of this server, for the built-in campus tool; none until the server sets it. */
    private final AtomicReference<ServeCampusFeedUseCase> campusFeed = new AtomicReference<>();
    private final boolean outboundToItself;
    private final java.util.Set<Origin> ownOrigins =
            java.util.concurrent.ConcurrentHashMap.newKeySet();
    private volatile java.util.List<Origin> instanceOrigins =
            java.util.List.of();
    /** The live instances whose origins {@link #instanceOrigins} holds. */
    private volatile java.util.List<InstanceLeases.Served> instancesServed = java.util.List.of();
    private final Instance instance;
    /** How old a blob without a record must be before a start deletes it, where instances share the files. */
    static final java.time.Duration SHARED_BLOB_GRACE = java.time.Duration.ofHours(1);
    /** The code runners' worker processes, ended with the module. */
    private final java.util.List<AutoCloseable> codeRunners = new java.util.ArrayList<>();

    public WorkflowModule(Jdbi jdbi, Path blobs, SecretGenerator secrets, Configuration config, Clock clock,
            Instance instance) {
        this(jdbi, blobs, secrets, config, clock, WriteGate.OPEN, StorageHealth.UNWATCHED, instance);
    }

    /**
     * @param gate refuses the writers' changes at once while the store cannot keep them
     * @param storage refuses new runs, uploads and knowledge writes while the store cannot keep them
     * @param instance this process among those that serve the store: its runs name it, its stops and caches hear
     *                 the others
     */
    public WorkflowModule(Jdbi jdbi, Path blobs, SecretGenerator secrets, Configuration config, Clock clock, WriteGate gate,
            StorageHealth storage, Instance instance) {
        this.outboundToItself = config.service().outboundToItself();
        JdbiUploadRepository uploads = new JdbiUploadRepository(jdbi);
        FileSystemBlobStore blobStore = new FileSystemBlobStore(blobs);
        this.uploads = uploads;
        this.blobStore = blobStore;
        this.runs = new JdbiRunRepository(jdbi, gate, instance.id());
        this.instance = instance;
        this.endUsers = new JdbiEndUserRepository(jdbi, gate);
        this.configuredOutbound = config.engine().outbound();
        this.outbound = new AtomicReference<>(configuredOutbound);
        JdbiToolRegistryRepository tools = new JdbiToolRegistryRepository(jdbi);
        JdbiAppRepository apps = new JdbiAppRepository(jdbi);
        this.apps = apps;
        BoundTools bound = new BoundTools(tools);
        JacksonOpenApiToolRunner openApi = new JacksonOpenApiToolRunner(
                ref -> bound.target(ref, ToolBinding.OpenApiOperation.class),
                new OutboundExchange(outbound::get), config.engine().toolTimeout());
        // The app tools drive the run use case, which needs the engine: they reach it once it is made, below.
        AtomicReference<RunWorkflowUseCase> runner = new AtomicReference<>();
        AtomicReference<StopTaskUseCase> stopper = new AtomicReference<>();
        WorkflowAppToolRunner appTools = new WorkflowAppToolRunner(ref -> bound.target(ref, ToolBinding.App.class),
                runner::get, stopper::get);
        CampusFeedToolRunner campusTools = new CampusFeedToolRunner(campusFeed::get);
        this.toolFileRecords = new JdbiToolFileRepository(jdbi);
        this.fileSignatures = new FileSignatures(HmacSigner.of("file_urls", instance, jdbi), secrets, clock);
        ToolFileService toolFiles = new ToolFileService(blobStore, toolFileRecords, fileSignatures, clock,
                () -> java.util.UUID.randomUUID().toString());
        this.toolFiles = toolFiles;
        this.knowledge = new KnowledgeModule(jdbi, config.dataDir().resolve("knowledge"), config.engine(), clock,
                instance, storage, config.service().maxChunksPerDocument());
        codeRunners.add(knowledge);
        this.engine = Engines.standard(config.engine(), remote -> new UploadedFileContents(uploads, blobStore,
                remote), outbound::get, new McpToolAddresses(tools)::find, codeRunners::add,
                services -> ToolFilesKept.around(BoundToolRunners.first(services, openApi, appTools, campusTools),
                        toolFiles).withKnowledge(new KnowledgeBasesRetriever(knowledge.retrieve)));
        java.util.List<String> builtins = new java.util.ArrayList<>(dev.hexaflow.engine.Engines.builtinTools());
        builtins.addAll(CampusFeedToolRunner.labels());
        this.listTools = new ListToolsService(tools, java.util.List.copyOf(builtins));
        this.mcpServers = new ManageMcpServersService(tools);
        this.toolBindings = new ManageToolBindingsService(tools, apps, openApi);
        JdbiWorkflowVersionRepository versions = new JdbiWorkflowVersionRepository(jdbi);
        this.versions = versions;
        JdbiAppKeyRepository keys = new JdbiAppKeyRepository(jdbi);
        YamlWorkflowDslReader reader = new YamlWorkflowDslReader();
        TimeOrderedIds ids = new TimeOrderedIds();
        Publications publications = new Publications(reader, engine, keys, secrets, clock, ids);
        TaskRegistry tasks = new TaskRegistry();
        WebTokens webTokens = new WebTokens(HmacSigner.of("web_tokens", instance, jdbi), clock);
        UploadLimits limits = config.service().uploads();
        this.importApp = new ImportAppService(publications, apps, versions);
        this.publish = new PublishWorkflowService(publications, apps, versions);
        this.listApps = new ListAppsService(apps, versions, publications);
        this.keys = new ManageAppKeysService(publications, apps, keys);
        this.updateSite = new UpdateSiteService(apps);
        this.authenticate = new AuthenticateService(keys, apps, webTokens);
        this.webApp = new WebAppService(apps, webTokens);
        JdbiWebhookSettingsRepository webhookSettings = new JdbiWebhookSettingsRepository(jdbi);
        JdbiDeliveryRepository deliveryRecords = new JdbiDeliveryRepository(jdbi);
        dev.hexaflow.domain.webhook.RetrySchedule retries = config.service().webhooks();
        // Polled at least as often as the shortest retry wait, and every second at most.
        this.deliveryPoll = java.util.Collections.min(java.util.List.of(java.time.Duration.ofSeconds(1),
                java.util.Collections.min(retries.delays())));
        this.webhooks = new ManageWebhooksService(apps, webhookSettings, secrets);
        this.deliveries = new ListDeliveriesService(apps, deliveryRecords);
        this.deliverCallbacks = new DeliverCallbacksService(deliveryRecords, webhookSettings, runs,
                new JacksonRunDetailRenderer(), new JdkHttpCallbackSender(new OutboundExchange(outbound::get)),
                secrets, new HmacWebhookSigner(), retries, clock, callbackSends, CALLBACK_SENDERS);
        RunCallbacks callbacks = new RunCallbacks(webhookSettings, deliveryRecords, clock, ids,
                this::deliverSoon);
        this.idempotencyKeys = new JdbiIdempotencyKeyRepository(jdbi);
        RunFeeds feeds = new RunFeeds();
        JacksonRunEventFormat frames = new JacksonRunEventFormat();
        this.run = new RunWorkflowService(apps, versions, endUsers, uploads, runs, reader, engine, tasks,
                config.service().maxRunsPerApp(), clock, ids, storage, runListeners, frames, feeds,
                idempotencyKeys, new RunCompletionWebhooks(callbacks), heldRuns);
        holdTimer.scheduleWithFixedDelay(() -> {
            try {
                heldRuns.keepOverdue();
            } catch (Throwable e) {
                // Caught whole: a task that throws is never run again by its executor.
                LOG.warn("Keeping the records of long blocking runs failed: {}", e.toString());
            }
        }, HOLD_CHECK.toMillis(), HOLD_CHECK.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        this.followRun = new FollowRunService(runs, feeds, frames);
        this.retention = config.service().retention();
        this.clock = clock;
        this.stop = new StopTaskService(tasks, instance.signals());
        runner.set(run);
        stopper.set(stop);
        this.drain = new DrainRunsService(tasks);
        this.getRun = new GetRunService(runs);
        this.logs = new ListRunLogsService(runs);
        this.nodeExecutions = new ListNodeExecutionsService(runs);
        this.pruneRuns = new PruneRunsService(runs, config.service().retention(), clock);
        this.previewUpload = new PreviewUploadService(uploads, blobStore, fileSignatures);
        this.upload = new UploadFileService(uploads, endUsers, blobStore, limits, config.service().pageUploads(), clock,
                ids, storage);
        this.exportDsl = new ExportDslService(apps, versions);
        this.describe = new DescribeAppService(apps, versions, reader, limits);
    }

    /**
     * Prunes now and then every {@link #PRUNE_EVERY}, on a thread of its own: the idempotency keys past their day
     * always, the runs if the retention lets them go.
     */
    public void startPruning() {
        pruner.scheduleWithFixedDelay(() -> {
            try {
                idempotencyKeys.prune(clock.instant().minus(RunWorkflowService.KEY_WINDOW).getEpochSecond());
                deliverCallbacks.prune();
            } catch (RuntimeException e) {
                LOG.warn("Pruning idempotency keys and ended webhook deliveries failed; the next try is in {} "
                        + "minutes: {}", PRUNE_EVERY.toMinutes(), e.toString());
            }
        }, 0, PRUNE_EVERY.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
        if (!retention.prunes()) {
            return;
        }
        pruner.scheduleWithFixedDelay(() -> {
            try {
                int pruned = pruneRuns.prune();
                if (pruned > 0) {
                    LOG.info("Pruned {} ended runs past their retention", pruned);
                }
            } catch (RuntimeException e) {
                LOG.warn("Pruning runs failed; the next try is in {} minutes: {}", PRUNE_EVERY.toMinutes(),
                        e.toString());
            }
        }, 0, PRUNE_EVERY.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
    }

    /**
     * Starts sending webhook deliveries: first the sweep (deliveries whose run a restart ended), then whatever is
     * due, pending ones a previous process left included.
     */
    public void startDelivering() {
        deliverer.scheduleWithFixedDelay(() -> guarded("Sweeping webhook deliveries", deliverCallbacks::sweep), 0,
                DELIVERY_SWEEP.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        deliverer.scheduleWithFixedDelay(() -> guarded("Delivering webhooks", deliverCallbacks::deliverDue),
                0, deliveryPoll.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    /** A run with a callback has ended: look for due deliveries now rather than at the next poll. */
    private void deliverSoon() {
        try {
            deliverer.execute(() -> guarded("Delivering webhooks", deliverCallbacks::deliverDue));
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // Closing: the delivery is kept, and the next start sends it.
        }
    }

    private static void guarded(String what, java.util.function.IntSupplier task) {
        try {
            task.getAsInt();
        } catch (RuntimeException e) {
            LOG.warn("{} failed; the next try is at the next poll: {}", what, e.toString());
        }
    }

    /**
     * Stops claiming deliveries and gives the posts under way {@link #CALLBACK_SENDS_GRACE} to end and keep their
     * outcome; one still waiting then is interrupted, and its claim runs out for the next start to send it again.
     */
    private void stopDelivering() {
        long deadline = System.nanoTime() + CALLBACK_SENDS_GRACE.toNanos();
        deliverer.shutdown();
        try {
            // The deliverer first, so that a poll under way has handed its claims to the senders before they stop.
            deliverer.awaitTermination(CALLBACK_SENDS_GRACE.toNanos(), java.util.concurrent.TimeUnit.NANOSECONDS);
            callbackSends.shutdown();
            callbackSends.awaitTermination(Math.max(0, deadline - System.nanoTime()),
                    java.util.concurrent.TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            deliverer.shutdownNow();
            callbackSends.shutdownNow();
        }
    }

    @Override
    public void close() {
        pruner.shutdownNow();
        holdTimer.shutdownNow();
        heldRuns.keepAll();
        stopDelivering();
        runListeners.shutdown();
        try {
            runs.close();
        } finally {
            endUsers.close();
            for (AutoCloseable runner : codeRunners) {
                try {
                    runner.close();
                } catch (Exception e) {
                    LOG.warn("A code runner or tool runner did not close: {}", e.toString());
                }
            }
        }
    }

    /**
     * Whether workflows may call this server itself (HEXAFLOW_OUTBOUND_ALLOW_SELF; not by default): its loopback
     * address is refused like any other's unless the operator opens it.
     */
    public boolean outboundToItself() {
        return outboundToItself;
    }

    /**
     * Lets workflows call this server itself on the port it answers on, where the operator allows it
     * ({@link #outboundToItself()}); its API is what every client of the server reaches anyway.
     */
    public void allowOwnOrigin(String host, int port) {
        ownOrigins.addAll(resolved(host, port));
        publishOrigins();
    }

    /**
     * Lets workflows call the other instances of the store as this one: they serve the same API. A loopback or
     * wildcard origin is allowed only from an instance on this machine ({@code machine}): on another machine it
     * names that machine's own, and here it would be some other service of this one. Replaces the instances allowed
     * before, so that one gone is no longer allowed.
     */
    public void allowInstanceOrigins(java.util.Collection<InstanceLeases.Served> instances, String machine) {
        java.util.List<InstanceLeases.Served> live = java.util.List.copyOf(instances);
        if (live.equals(instancesServed)) {
            return; // asked every lease renewal: the same instances are resolved and allowed once
        }
        instancesServed = live;
        java.util.List<Origin> allowed = new java.util.ArrayList<>();
        for (InstanceLeases.Served served : instances) {
            String origin = served.origin();
            int colon = origin.lastIndexOf(':');
            try {
                int port = Integer.parseInt(origin.substring(colon + 1));
                for (Origin resolved : resolved(origin.substring(0, colon).replace("[", "").replace("]", ""),
                        port)) {
                    if (machine.equals(served.machine()) || !namesItsOwnMachine(resolved.address())) {
                        allowed.add(resolved);
                    }
                }
            } catch (RuntimeException e) {
                LOG.warn("An instance's origin '{}' is not host:port; it is not allowed", origin);
            }
        }
        instanceOrigins = java.util.List.copyOf(allowed);
        publishOrigins();
    }

    /** Whether an address means the machine it is used on: loopback, or unspecified. */
    private static boolean namesItsOwnMachine(IpAddress address) {
        return dev.hexaflow.domain.net.ReservedRange.of(address).filter(range -> range
                == dev.hexaflow.domain.net.ReservedRange.LOOPBACK
                || range == dev.hexaflow.domain.net.ReservedRange.UNSPECIFIED).isPresent();
    }

    /** An address and port workflows may call as this server. */
    private record Origin(IpAddress address, int port) {
    }

    /** The configured policy with this instance's and its siblings' origins, made and set under one lock. */
    private synchronized void publishOrigins() {
        OutboundPolicy policy = configuredOutbound;
        for (var origin : ownOrigins) {
            policy = policy.allowingOwnOrigin(origin.address(), origin.port());
        }
        for (var origin : instanceOrigins) {
            policy = policy.allowingOwnOrigin(origin.address(), origin.port());
        }
        outbound.set(policy);
    }

    private static java.util.List<Origin> resolved(String host, int port) {
        java.util.List<Origin> origins = new java.util.ArrayList<>();
        try {
            for (InetAddress address : InetAddress.getAllByName(host)) {
                origins.add(new Origin(IpAddress.of(address.getAddress()),
                        port));
            }
        } catch (UnknownHostException e) {
            LOG.warn("The host {} does not resolve; workflows cannot call the server there", host);
        }
        return origins;
    }

    /** Ends the runs a previous process left running: they cannot go on, and must not stay running for ever. */
    public int closeInterruptedRuns(Clock clock) {
        return runs.failUnfinished("The server stopped during the run.", clock.instant().getEpochSecond());
    }

    /**
     * Deletes blobs no upload or tool file names: one cut off between its blob and its record (a crash) leaves
     * only a blob, which no one can reach. Answers how many it deleted.
     */
    public int deleteOrphanBlobs() {
        int deleted = 0;
        // Where instances share the files, a newer blob may be another instance's upload whose record is on its way.
        java.time.Instant before = instance.shared() ? clock.instant().minus(SHARED_BLOB_GRACE) : java.time.Instant.MAX;
        java.util.List<String> blobs = blobStore.keys(before);
        Set<String> named = new java.util.HashSet<>(uploads.blobKeys());
        named.addAll(toolFileRecords.blobKeys());
        for (String key : blobs) {
            if (!named.contains(key)) {
                blobStore.delete(key);
                deleted++;
            }
        }
        return deleted;
    }

    /** Imports a demo app of the jar ({@link #DEMO_DSL}, {@link #CHAT_DEMO_DSL}), which reads this server's feed. */
    public ImportAppUseCase.ImportedApp importDemo(String resource) {
        try (InputStream in = WorkflowModule.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the jar lacks " + resource);
            }
            return importApp.importApp(in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The campus feed the built-in tool {@code hexaflow/campus_holidays} reads, once the server has made it. */
    public void serveCampusFeed(ServeCampusFeedUseCase feed) {
        campusFeed.set(feed);
    }
}
