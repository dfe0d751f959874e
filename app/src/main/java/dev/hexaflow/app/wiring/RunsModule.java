package dev.hexaflow.app.wiring;

import dev.hexaflow.adapters.clients.mail.SmtpFormMailer;
import dev.hexaflow.adapters.dsl.YamlWorkflowDslReader;
import dev.hexaflow.adapters.http.wire.JacksonRunEventFormat;
import dev.hexaflow.adapters.persistence.jdbi.JdbiIdempotencyKeyRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiRunRepository;
import dev.hexaflow.app.StartupException;
import dev.hexaflow.app.config.Configuration;
import dev.hexaflow.app.jobs.DaemonThreads;
import dev.hexaflow.app.jobs.HeldRunTimer;
import dev.hexaflow.application.apps.port.out.AppRepository;
import dev.hexaflow.application.apps.port.out.EndUserRepository;
import dev.hexaflow.application.apps.port.out.WorkflowVersionRepository;
import dev.hexaflow.application.common.port.out.StorageHealth;
import dev.hexaflow.application.files.port.out.UploadRepository;
import dev.hexaflow.application.runs.port.in.AnswerFormUseCase;
import dev.hexaflow.application.runs.port.in.ControlRunUseCase;
import dev.hexaflow.application.runs.port.in.DrainRunsUseCase;
import dev.hexaflow.application.runs.port.in.FollowRunUseCase;
import dev.hexaflow.application.runs.port.in.GetRunUseCase;
import dev.hexaflow.application.runs.port.in.InspectRunsUseCase;
import dev.hexaflow.application.runs.port.in.ListNodeExecutionsUseCase;
import dev.hexaflow.application.runs.port.in.ListRunLogsUseCase;
import dev.hexaflow.application.runs.port.in.PruneRunsUseCase;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase;
import dev.hexaflow.application.runs.port.in.StopTaskUseCase;
import dev.hexaflow.application.runs.port.out.ActiveRuns;
import dev.hexaflow.application.runs.port.out.CompletionWebhooks;
import dev.hexaflow.application.runs.port.out.FormMailer;
import dev.hexaflow.application.runs.port.out.IdempotencyKeyRepository;
import dev.hexaflow.application.runs.port.out.ResumedTurns;
import dev.hexaflow.application.runs.port.out.RunBudgets;
import dev.hexaflow.application.runs.port.out.RunMonitor;
import dev.hexaflow.application.runs.service.AnswerFormService;
import dev.hexaflow.application.runs.service.ControlRunService;
import dev.hexaflow.application.runs.service.DrainRunsService;
import dev.hexaflow.application.runs.service.FollowRunService;
import dev.hexaflow.application.runs.service.GetRunService;
import dev.hexaflow.application.runs.service.HeldRecords;
import dev.hexaflow.application.runs.service.InspectRunsService;
import dev.hexaflow.application.runs.service.ListNodeExecutionsService;
import dev.hexaflow.application.runs.service.ListRunLogsService;
import dev.hexaflow.application.runs.service.PausedFormMails;
import dev.hexaflow.application.runs.service.PruneRunsService;
import dev.hexaflow.application.runs.service.ResumeRuns;
import dev.hexaflow.application.runs.service.RunFeeds;
import dev.hexaflow.application.runs.service.RunWorkflowService;
import dev.hexaflow.application.runs.service.StopTaskService;
import dev.hexaflow.application.runs.service.TaskRegistry;
import dev.hexaflow.domain.id.TimeOrderedIds;
import dev.hexaflow.workflow.engine.WorkflowEngine;
import java.time.Clock;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.jdbi.v3.core.Jdbi;

/**
 * The runs context: starting, stopping, following and reading workflow runs, with the recorder's held records and
 * the threads that tell a run's listeners.
 */
public final class RunsModule implements AutoCloseable {

    public final RunWorkflowUseCase run;
    public final StopTaskUseCase stop;
    public final GetRunUseCase getRun;
    public final ListRunLogsUseCase logs;
    public final ListNodeExecutionsUseCase nodeExecutions;
    public final FollowRunUseCase followRun;
    public final PruneRunsUseCase pruneRuns;
    public final DrainRunsUseCase drain;
    /** The operator's view of every app's runs, and what the operator does to one. */
    public final InspectRunsUseCase inspect;
    public final ControlRunUseCase control;
    /** The forms of paused runs: opened and answered by token, expired when their time runs out. */
    public final AnswerFormUseCase forms;
    /** Which run each idempotency key started; a claim past its day is pruned. */
    final IdempotencyKeyRepository idempotencyKeys;
    /** The blocking runs whose records are held until they end; those held past the hold are kept by a timer. */
    final HeldRunTimer heldRuns;
    /**
     * Calls the runs' listeners (a stream's client, a chat turn's keeper), each run's one event at a time, so that
     * the store's single writer thread never waits on them. A run holds at most one thread at a time, and runs
     * are bounded per app; an idle thread ends after a second, so a burst of streams leaves no threads behind.
     */
    /** The server's own address, known once it serves. */
    private volatile String ownUrl = "";
    private final ExecutorService listeners = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 1, TimeUnit.SECONDS,
            new SynchronousQueue<>(), DaemonThreads.named("hexaflow-run-listener"));

    /**
     * The chat turns of paused chatflow runs, completed when a run goes on: the chat context's, plugged in once it
     * is made (it is made after the runs, whose use case it starts its turns with); none until then.
     */
    private final AtomicReference<ResumedTurns> chatTurns = new AtomicReference<>(ResumedTurns.NONE);

    /** The records a run's store keeps; shared with the webhooks context, which reads a finished run. */
    record Stores(AppRepository apps, WorkflowVersionRepository versions, EndUserRepository endUsers,
            UploadRepository uploads, JdbiRunRepository runs) {
    }

    RunsModule(Jdbi jdbi, Configuration config, Stores stores, WorkflowEngine engine, Clock clock,
            StorageHealth storage, Instance instance, CompletionWebhooks webhooks, RunMonitor monitor,
            RunBudgets budgets, ActiveRuns active) {
        HeldRecords held = new HeldRecords();
        this.heldRuns = new HeldRunTimer(held);
        heldRuns.start();
        this.idempotencyKeys = new JdbiIdempotencyKeyRepository(jdbi);
        TaskRegistry tasks = new TaskRegistry(active);
        RunFeeds feeds = new RunFeeds();
        JacksonRunEventFormat frames = new JacksonRunEventFormat();
        PausedFormMails mails = new PausedFormMails(config.mail().smtp().<FormMailer>map(SmtpFormMailer::new)
                .orElse(FormMailer.NONE), () -> config.mail().publicUrl().orElse(ownUrl), listeners);
        this.run = new RunWorkflowService(stores.apps(), stores.versions(), stores.endUsers(), stores.uploads(),
                stores.runs(), new YamlWorkflowDslReader(), engine, tasks, config.service().maxRunsPerApp(), clock,
                new TimeOrderedIds(), storage, listeners, frames, feeds, idempotencyKeys, webhooks, held, monitor,
                mails, budgets, inlineRuns());
        this.followRun = new FollowRunService(stores.runs(), feeds, frames);
        this.stop = new StopTaskService(tasks, instance.signals());
        this.drain = new DrainRunsService(tasks);
        this.getRun = new GetRunService(stores.runs());
        this.logs = new ListRunLogsService(stores.runs());
        this.nodeExecutions = new ListNodeExecutionsService(stores.runs());
        this.inspect = new InspectRunsService(stores.apps(), stores.runs(), frames);
        this.control = new ControlRunService(stores.runs(), stores.apps(), stop, run);
        this.pruneRuns = new PruneRunsService(stores.runs(), config.service().retention(), clock);
        ResumeRuns resumptions = new ResumeRuns(stores.runs(), stores.versions(), new YamlWorkflowDslReader(),
                engine, listeners, frames, feeds, monitor, tasks, clock, mails,
                (appId, paused) -> chatTurns.get().resuming(appId, paused), webhooks);
        this.forms = new AnswerFormService(stores.runs().pauses(), stores.uploads(), resumptions, clock);
    }

    /**
     * Where this server is reached, once it serves: the base of the links in form mails when HEXAFLOW_PUBLIC_URL
     * does not name one.
     */
    public void servingAt(String baseUrl) {
        this.ownUrl = baseUrl;
    }

    /**
     * Whether a blocking run of a workflow that may run inline plays on its request's thread (true, the default),
     * or on the engine's as every other run does ({@code HEXAFLOW_INLINE_RUNS=false}, to compare).
     */
    private static boolean inlineRuns() {
        String text = System.getenv().getOrDefault("HEXAFLOW_INLINE_RUNS", "true").strip();
        if (!text.equalsIgnoreCase("true") && !text.equalsIgnoreCase("false")) {
            throw new StartupException("HEXAFLOW_INLINE_RUNS takes true or false, was '" + text + "'");
        }
        return Boolean.parseBoolean(text);
    }

    /** The chat context's keeper of the turns whose chatflow runs paused. */
    void resumeChatTurnsWith(ResumedTurns turns) {
        chatTurns.set(turns);
    }

    /** Stops the listeners' threads once idle; the held records are kept by closing {@link #heldRuns} first. */
    @Override
    public void close() {
        listeners.shutdown();
    }
}
