package dev.hexaflow.app.wiring;

import dev.hexaflow.adapters.persistence.jdbi.JdbiAppRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiEndUserRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiRunRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiWorkflowVersionRepository;
import dev.hexaflow.adapters.persistence.jdbi.WriteGate;
import dev.hexaflow.app.config.Configuration;
import dev.hexaflow.app.jobs.FormExpiry;
import dev.hexaflow.app.jobs.Pruning;
import dev.hexaflow.application.campus.port.in.ServeCampusFeedUseCase;
import dev.hexaflow.application.common.port.out.SecretGenerator;
import dev.hexaflow.application.common.port.out.StorageHealth;
import dev.hexaflow.application.knowledge.service.KnowledgeBasesRetriever;
import dev.hexaflow.application.runs.port.out.ResumedTurns;
import dev.hexaflow.engine.Engines;
import dev.hexaflow.workflow.engine.WorkflowEngine;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The workflow service: the contexts that serve Dify apps (apps, runs, files, tools, webhooks, knowledge) wired
 * on the Jdbi repositories, the blob store and the standard engine, in the order their needs allow. Closing it
 * stops their background jobs and commits the writes their repositories have queued.
 */
public final class WorkflowModule implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(WorkflowModule.class);

    public final AppsModule apps;
    public final RunsModule runs;
    public final FilesModule files;
    public final ToolsModule tools;
    public final WebhooksModule webhooks;
    public final KnowledgeModule knowledge;
    public final TriggersModule triggers;
    public final LimitsModule limits;
    /** The outbound policy every outbound call goes through, with the origins workflows may call this server on. */
    public final InstanceOrigins origins;
    public final WorkflowEngine engine;
    /** The records several contexts share (the chat module too): one cache each. */
    public final JdbiAppRepository appRecords;
    public final JdbiWorkflowVersionRepository versionRecords;
    public final JdbiEndUserRepository endUserRecords;
    public final JdbiRunRepository runRecords;
    private final Pruning pruning;
    private final FormExpiry formExpiry;
    private final Clock clock;
    /** The code runners' worker processes, ended with the module. */
    private final List<AutoCloseable> codeRunners = new ArrayList<>();

    public WorkflowModule(Jdbi jdbi, Path blobs, SecretGenerator secrets, Configuration config, Clock clock,
            Instance instance) {
        this(jdbi, blobs, secrets, config, clock, WriteGate.OPEN, StorageHealth.UNWATCHED, instance,
                Observability.none());
    }

    /**
     * @param gate refuses the writers' changes at once while the store cannot keep them
     * @param storage refuses new runs, uploads and knowledge writes while the store cannot keep them
     * @param instance this process among those that serve the store: its runs name it, its stops and caches hear
     *                 the others
     * @param observability watches every run and webhook delivery (log lines, metrics, traces)
     */
    public WorkflowModule(Jdbi jdbi, Path blobs, SecretGenerator secrets, Configuration config, Clock clock,
            WriteGate gate, StorageHealth storage, Instance instance, Observability observability) {
        this.clock = clock;
        this.appRecords = new JdbiAppRepository(jdbi);
        this.versionRecords = new JdbiWorkflowVersionRepository(jdbi);
        this.endUserRecords = new JdbiEndUserRepository(jdbi, gate);
        this.runRecords = new JdbiRunRepository(jdbi, gate, instance.id());
        this.limits = new LimitsModule(jdbi, appRecords, config.limits().defaults(), config.limits().sync(),
                config.limits().price(), instance.id(), config.campus().rate(), instance.shared(), clock);
        this.origins = new InstanceOrigins(config.engine().outbound(), config.service().outboundToItself());
        this.files = new FilesModule(jdbi, blobs, secrets, config, clock, instance, storage, endUserRecords);
        this.knowledge = new KnowledgeModule(jdbi, config.dataDir().resolve("knowledge"), config.engine(), clock,
                instance, storage, config.service().maxChunksPerDocument());
        codeRunners.add(knowledge);
        this.tools = new ToolsModule(jdbi, config, origins, appRecords);
        KnowledgeBasesRetriever retriever = new KnowledgeBasesRetriever(knowledge.retrieve);
        this.engine = Engines.standard(config.engine(), files::contents, origins, tools.mcpAddresses::find,
                codeRunners::add, services -> tools.plugInto(services, files.toolFiles, retriever));
        engine.scopeNodesWith(observability.nodes());
        this.triggers = new TriggersModule(jdbi, config.triggers(), appRecords, versionRecords, secrets, clock);
        this.apps = new AppsModule(jdbi, appRecords, versionRecords, engine, secrets, clock, instance,
                config.service().uploads(), triggers.sync, endUserRecords);
        this.webhooks = new WebhooksModule(jdbi, config, appRecords, runRecords, secrets, origins, clock,
                observability.deliveries());
        this.runs = new RunsModule(jdbi, config, new RunsModule.Stores(appRecords, versionRecords, endUserRecords,
                files.uploads, runRecords), engine, clock, storage, instance, webhooks.completion,
                observability.runs(), limits.budgets, limits.active);
        tools.runAppsWith(runs.run, runs.stop, runs.getRun, runs.forms);
        triggers.runWith(runs.run);
        this.pruning = new Pruning(runs.idempotencyKeys, webhooks.deliverCallbacks, runs.pruneRuns,
                config.service().retention(), clock);
        this.formExpiry = new FormExpiry(runs.forms);
    }

    /**
     * Starts the background jobs of a serving instance: pruning, sending webhook deliveries, ending the forms whose
     * time ran out, and firing the schedules that are due.
     */
    public void startJobs() {
        webhooks.delivery.start();
        pruning.start();
        formExpiry.start();
        triggers.start();
    }

    /** The campus feed the built-in tool {@code hexaflow/campus_holidays} reads, once the server has made it. */
    public void serveCampusFeed(ServeCampusFeedUseCase feed) {
        tools.serveCampusFeed(feed);
    }

    /** The chat context's keeper of the turns whose chatflow runs paused, told when such a run goes on. */
    public void resumeChatTurnsWith(ResumedTurns turns) {
        runs.resumeChatTurnsWith(turns);
    }

    /** Ends the runs a previous process left running: they cannot go on, and must not stay running for ever. */
    public int closeInterruptedRuns() {
        return runRecords.failUnfinished("The server stopped during the run.", clock.instant().getEpochSecond());
    }

    @Override
    public void close() {
        triggers.close();
        pruning.close();
        formExpiry.close();
        runs.heldRuns.close();
        webhooks.close();
        runs.close();
        limits.close(); // after the runs, so that what they spent is kept
        try {
            runRecords.close();
        } finally {
            endUserRecords.close();
            for (AutoCloseable runner : codeRunners) {
                try {
                    runner.close();
                } catch (Exception e) {
                    LOG.warn("A code runner or tool runner did not close: {}", e.toString());
                }
            }
        }
    }
}
