package dev.hexaflow.application.runs.service;

import dev.hexaflow.application.apps.port.out.AppRepository;
import dev.hexaflow.application.apps.port.out.EndUserRepository;
import dev.hexaflow.application.apps.port.out.WorkflowVersionRepository;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.common.EndUsers;
import dev.hexaflow.application.common.StorageRefusals;
import dev.hexaflow.application.common.StorageUnavailableException;
import dev.hexaflow.application.common.port.out.StorageHealth;
import dev.hexaflow.application.files.port.out.UploadRepository;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase;
import dev.hexaflow.application.runs.port.out.ActiveRuns.Admission;
import dev.hexaflow.application.runs.port.out.CompletionWebhooks;
import dev.hexaflow.application.runs.port.out.IdempotencyKeyRepository.KeyedRun;
import dev.hexaflow.application.runs.port.out.IdempotencyKeyRepository;
import dev.hexaflow.application.runs.port.out.RunBudgets;
import dev.hexaflow.application.runs.port.out.RunEventFormat;
import dev.hexaflow.application.runs.port.out.RunMonitor;
import dev.hexaflow.application.runs.port.out.RunRepository;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.app.EndUser;
import dev.hexaflow.domain.app.FileCategory;
import dev.hexaflow.domain.app.UploadedFile;
import dev.hexaflow.domain.app.WorkflowVersion;
import dev.hexaflow.domain.trigger.TriggerKind;
import dev.hexaflow.domain.webhook.CallbackUrl;
import dev.hexaflow.domain.webhook.Delivery;
import dev.hexaflow.domain.workflow.AppInfo;
import dev.hexaflow.domain.workflow.FileValue;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.domain.workflow.WorkflowRun;
import dev.hexaflow.workflow.engine.InputFiles;
import dev.hexaflow.workflow.engine.InvalidInputsException;
import dev.hexaflow.workflow.engine.NodeUnavailableException;
import dev.hexaflow.workflow.engine.PreparedWorkflow;
import dev.hexaflow.workflow.engine.RunHandle;
import dev.hexaflow.workflow.engine.RunListener;
import dev.hexaflow.workflow.engine.RunRequest;
import dev.hexaflow.workflow.engine.WorkflowEngine;
import dev.hexaflow.workflow.port.out.WorkflowDslReader;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Checks a run request in Dify's order (user, app mode, published workflow, concurrency, inputs and files, model
 * provider) before anything starts, then starts the run with a recorder in front of the caller's listener (a
 * blocking run that may run inline plays on the caller's own thread: {@link RunThreads}).
 * Published versions are read and checked once and kept prepared. A workflow run's events are kept as its stream
 * shows them and fed live to its followers ({@link RunFeeds}). A request with an idempotency key answers the run
 * the key started within {@link #KEY_WINDOW}, if it did ({@link IdempotentRuns}).
 */
public final class RunWorkflowService implements RunWorkflowUseCase {

    private final AppRepository apps;
    private final WorkflowVersionRepository versions;
    private final EndUserRepository endUsers;
    private final UploadRepository uploads;
    private final RunRepository runs;
    private final WorkflowDslReader reader;
    private final WorkflowEngine engine;
    private final TaskRegistry tasks;
    private final int maxRunsPerApp;
    private final Clock clock;
    private final Supplier<String> ids;
    private final StorageHealth storage;
    private final Executor listeners;
    private final CompletionWebhooks callbacks;
    private final RunEventFormat format;
    private final RunFeeds feeds;
    private final IdempotentRuns idempotentRuns;
    private final HeldRecords holds;
    private final RunMonitor monitor;
    private final PausedFormMails mails;
    private final PausedRunWebhooks pauseWebhooks;
    private final RunBudgets budgets;
    private final RunThreads threads;
    private final UnkeptEnds unkept;
    private final Map<String, PreparedWorkflow> prepared = new ConcurrentHashMap<>();

    /** How long an idempotency key answers the run it started: a day, as Stripe's do. */
    public static final Duration KEY_WINDOW = Duration.ofHours(24);

    /**
     * @param listeners calls each run's listener, off the store's writer thread (see {@link RunRecorder})
     * @param format    a workflow run's events as its stream shows them, to keep
     * @param feeds     the runs going on here, which followers and repeated requests wait on
     * @param keys      the idempotency keys' claims
     * @param callbacks keeps the completion webhook of a run that has one, and a delivery of each of its pauses
     * @param holds     the runs nobody listens to, whose records are held until they end or go on too long
     * @param monitor   watches every run started here (log lines, metrics, traces)
     */
    public RunWorkflowService(AppRepository apps, WorkflowVersionRepository versions, EndUserRepository endUsers,
            UploadRepository uploads, RunRepository runs, WorkflowDslReader reader, WorkflowEngine engine,
            TaskRegistry tasks, int maxRunsPerApp, Clock clock, Supplier<String> ids, StorageHealth storage,
            Executor listeners, RunEventFormat format, RunFeeds feeds, IdempotencyKeyRepository keys,
            CompletionWebhooks callbacks, HeldRecords holds, RunMonitor monitor) {
        this(apps, versions, endUsers, uploads, runs, reader, engine, tasks, maxRunsPerApp, clock, ids, storage,
                listeners, format, feeds, keys, callbacks, holds, monitor, PausedFormMails.NONE);
    }

    /** As above, sending the mails a pause's forms ask for with {@code mails}. */
    public RunWorkflowService(AppRepository apps, WorkflowVersionRepository versions, EndUserRepository endUsers,
            UploadRepository uploads, RunRepository runs, WorkflowDslReader reader, WorkflowEngine engine,
            TaskRegistry tasks, int maxRunsPerApp, Clock clock, Supplier<String> ids, StorageHealth storage,
            Executor listeners, RunEventFormat format, RunFeeds feeds, IdempotencyKeyRepository keys,
            CompletionWebhooks callbacks, HeldRecords holds, RunMonitor monitor, PausedFormMails mails) {
        this(apps, versions, endUsers, uploads, runs, reader, engine, tasks, maxRunsPerApp, clock, ids, storage,
                listeners, format, feeds, keys, callbacks, holds, monitor, mails, RunBudgets.NONE);
    }

    /** As above, refusing and failing runs over their app's budgets with {@code budgets}. */
    public RunWorkflowService(AppRepository apps, WorkflowVersionRepository versions, EndUserRepository endUsers,
            UploadRepository uploads, RunRepository runs, WorkflowDslReader reader, WorkflowEngine engine,
            TaskRegistry tasks, int maxRunsPerApp, Clock clock, Supplier<String> ids, StorageHealth storage,
            Executor listeners, RunEventFormat format, RunFeeds feeds, IdempotencyKeyRepository keys,
            CompletionWebhooks callbacks, HeldRecords holds, RunMonitor monitor, PausedFormMails mails,
            RunBudgets budgets) {
        this(apps, versions, endUsers, uploads, runs, reader, engine, tasks, maxRunsPerApp, clock, ids, storage,
                listeners, format, feeds, keys, callbacks, holds, monitor, mails, budgets, true);
    }

    /** As above; with {@code inline} false, every run plays on the engine's threads ({@link RunThreads}). */
    public RunWorkflowService(AppRepository apps, WorkflowVersionRepository versions, EndUserRepository endUsers,
            UploadRepository uploads, RunRepository runs, WorkflowDslReader reader, WorkflowEngine engine,
            TaskRegistry tasks, int maxRunsPerApp, Clock clock, Supplier<String> ids, StorageHealth storage,
            Executor listeners, RunEventFormat format, RunFeeds feeds, IdempotencyKeyRepository keys,
            CompletionWebhooks callbacks, HeldRecords holds, RunMonitor monitor, PausedFormMails mails,
            RunBudgets budgets, boolean inline) {
        this.threads = new RunThreads(engine, feeds, inline);
        this.unkept = new UnkeptEnds(runs, clock);
        this.budgets = budgets;
        this.apps = apps;
        this.versions = versions;
        this.endUsers = endUsers;
        this.uploads = uploads;
        this.runs = runs;
        this.reader = reader;
        this.engine = engine;
        this.tasks = tasks;
        this.maxRunsPerApp = maxRunsPerApp;
        this.clock = clock;
        this.ids = ids;
        this.storage = storage;
        this.listeners = listeners;
        this.format = format;
        this.feeds = feeds;
        this.idempotentRuns = new IdempotentRuns(keys, runs, feeds, clock, listeners);
        this.callbacks = callbacks;
        this.holds = holds;
        this.monitor = monitor;
        this.mails = mails;
        this.pauseWebhooks = new PausedRunWebhooks(callbacks, format, listeners);
    }

    @Override
    public RunUnderWay start(RunWorkflowCommand command, RunObserver observer) {
        return start(command, observer, false);
    }

    @Override
    public RunUnderWay startBlocking(RunWorkflowCommand command) {
        return start(command, RunObserver.NONE, true);
    }

    private RunUnderWay start(RunWorkflowCommand command, RunObserver observer, boolean waited) {
        String user = EndUsers.requireId(command.user());
        CallbackUrl requested = command.callbackUrl() == null ? null : callbackUrl(command.callbackUrl());
        App app = apps.find(command.appId()).orElseThrow(() -> new ApiException(ApiError.NOT_FOUND,
                "App not found."));
        requireMode(app, command);
        if (command.retry() != null) {
            Optional<RunUnderWay> earlier = idempotentRuns.earlier(app.id(), user, command.retry());
            if (earlier.isPresent()) {
                return earlier.get();
            }
        }
        WorkflowVersion version = version(app.id(), command.workflowId());
        PreparedWorkflow workflow = prepared.computeIfAbsent(version.id(),
                id -> engine.prepare(reader.read(version.dsl().getBytes(StandardCharsets.UTF_8))));
        StorageRefusals.requireRoom(storage);
        RunSpending spending = RunSpending.admit(budgets, app.id(), command.keyId(), user);
        Admission admission = tasks.admitted(app.id(), user, maxRunsPerApp);
        // The slot is given back once: by the request that lost its key's race, or by the failure below.
        boolean holdsSlot = true;
        try {
            EndUser endUser = endUsers.findOrAdd(new EndUser(ids.get(), app.id(), user,
                    clock.instant().getEpochSecond()));
            RunRequest request = request(command, app.id(), user, version, workflow, endUser);
            feeds.open(request.runId(), app.id(), request.taskId());
            if (command.retry() != null) {
                Optional<KeyedRun> winner = idempotentRuns.claim(new KeyedRun(app.id(), user,
                        command.retry().key(), command.retry().fingerprint(), request.runId(), request.taskId(),
                        clock.instant().getEpochSecond()));
                if (winner.isPresent()) {
                    feeds.close(request.runId(), null, new IllegalStateException("never started"));
                    admission.release();
                    tasks.release(app.id());
                    holdsSlot = false;
                    return idempotentRuns.repeat(winner.get(), command.retry());
                }
            }
            AtomicReference<String> traceId = new AtomicReference<>();
            RunListener watcher = monitor.watch(new RunMonitor.WatchedRun(app.id(), app.mode(), request.runId(),
                    request.taskId(), version.id(), user, traceId::set));
            boolean here = threads.playsHere(workflow, observer, waited);
            RunRecorder recorder = recorder(app, request, endUser, version, traceId.get(), observer, command,
                    workflow, here);
            CallbackUrl callback = requested != null ? requested : callbacks.defaultOf(app.id());
            Delivery delivery = callback == null ? null : callbacks.register(app.id(), request.runId(), callback);
            RunListener told = pauseWebhooks.after(mails.after(watched(recorder, watched(watcher, spending)),
                    recorder::settled), recorder::settled, delivery, request.taskId());
            RunHandle handle = spending.started(startDelivering(workflow, request, told, delivery, here));
            return threads.played(handle, here, () -> underWay(request, handle, recorder, delivery, admission));
        } catch (RuntimeException e) {
            if (holdsSlot) {
                admission.release();
                tasks.release(app.id());
            }
            throw refusal(e);
        }
    }

    /**
     * The run's recorder. A run on the engine's threads leaves the wait for its end to be kept to its caller
     * (underWay), not to the node thread that played it. A run played here waits where it ends, as before: that is
     * the caller's own thread already, and the writer's thread, which completes the write, then only wakes it rather
     * than also running what the caller's future does next.
     */
    private RunRecorder recorder(App app, RunRequest request, EndUser endUser, WorkflowVersion version, String traceId,
            RunObserver observer, RunWorkflowCommand command, PreparedWorkflow workflow, boolean here) {
        RunRecorder recorder = new RunRecorder(runs, app.id(), request.taskId(), endUser, version.version(),
                ids.get(), traceId, observer == RunObserver.NONE ? RunListener.NONE : observer::on, listeners,
                command.chat() == null ? format : RunEventFormat.NONE, feeds, holds);
        recorder.triggeredFrom(triggeredFrom(workflow, command));
        if (!here) {
            recorder.leaveEndToCaller();
        }
        return recorder;
    }

    /**
     * A chat turn runs a chatflow, chatbot, agent or text generator (whose message is a turn of its own); without
     * one, only a workflow app runs.
     */
    private static void requireMode(App app, RunWorkflowCommand command) {
        if (command.chat() == null && !app.mode().equals(AppInfo.WORKFLOW_MODE)) {
            throw new ApiException(ApiError.NOT_WORKFLOW_APP,
                    "Please check if your app mode matches the right API route.");
        }
        if (command.chat() != null && !AppInfo.CONVERSATION_MODES.contains(app.mode())
                && !app.mode().equals(AppInfo.COMPLETION_MODE)) {
            throw new ApiException(ApiError.NOT_CHAT_APP,
                    "Please check if your app mode matches the right API route.");
        }
    }

    /** The run the command asks for: its inputs and files resolved, each upload the end user's own. */
    private RunRequest request(RunWorkflowCommand command, String appId, String user, WorkflowVersion version,
            PreparedWorkflow workflow, EndUser endUser) {
        InputFiles.Uploads own = (uploadId, session) -> uploadOf(appId, endUser, uploadId);
        Workflow graph = workflow.workflow();
        Map<String, Object> inputs = InputFiles.resolve(workflow.inputForm(), command.inputs(), user, own);
        List<FileValue> files = InputFiles.resolveAll(command.files(), user, own);
        RunRequest request = new RunRequest(graph, appId, version.id(), user, inputs, files, ids.get(),
                ids.get());
        if (command.chat() != null) {
            request = request.withChat(command.chat());
        }
        return command.triggerNodeId() == null ? request : request.fromTrigger(command.triggerNodeId());
    }

    /** How the run started, as Dify keeps it: by a trigger of the workflow's, or at a caller's request (null). */
    private static String triggeredFrom(PreparedWorkflow workflow, RunWorkflowCommand command) {
        if (command.triggerNodeId() == null) {
            return null;
        }
        return workflow.workflow().graph().node(command.triggerNodeId()).flatMap(node -> TriggerKind.of(node.type()))
                .map(TriggerKind::triggeredFrom).orElse(null);
    }

    /** The recorder, after the monitor's watcher has seen each event (it is quick, and never fails the run). */
    private static RunListener watched(RunListener recorder, RunListener watcher) {
        if (watcher == RunListener.NONE) {
            return recorder;
        }
        return event -> {
            try {
                watcher.on(event);
            } catch (RuntimeException e) {
                // A watcher's failure is its own.
            }
            recorder.on(event);
        };
    }

    /** Starts the run; a run that does not start discards its completion webhook's delivery. */
    private RunHandle startDelivering(PreparedWorkflow workflow, RunRequest request, RunListener recorder,
            Delivery delivery, boolean here) {
        try {
            return threads.begin(workflow, request, recorder, here);
        } catch (RuntimeException e) {
            if (delivery != null) {
                callbacks.discard(delivery);
            }
            throw e;
        }
    }

    /**
     * The run as its caller follows it: tracked until it ends, its feed closed after its last event, its
     * completion webhook's delivery made due once its end is kept.
     */
    private RunUnderWay underWay(RunRequest request, RunHandle handle, RunRecorder recorder, Delivery delivery,
            Admission admission) {
        CompletableFuture<WorkflowRun> done = tasks.track(request.appId(), request.userId(), handle, admission)
                .thenCompose(run -> recorder.settled().thenApply(kept -> run))
                .handle((run, failure) -> unkept.keptOrRefused(request, run, failure)).thenCompose(end -> end);
        // The feed closes after the last event is published, whether the run ended or broke.
        done.whenComplete((run, failure) -> recorder.fed().whenComplete((fed, never) ->
                feeds.close(handle.runId(), run, failure)));
        if (delivery != null) {
            // Only a run whose end is kept is due, and the caller's answer does not wait for it; a delivery
            // not made due here (the store failed, the server stopped) is found by the deliverer's sweep.
            try {
                // A paused run is not over: its delivery waits, and the sweep makes it due once the run ends.
                done.thenAcceptAsync(run -> {
                    if (run.status().isTerminal()) {
                        callbacks.runEnded(delivery);
                    }
                }, listeners);
            } catch (java.util.concurrent.RejectedExecutionException e) {
                // Closing, the run already over: the next start's sweep makes its delivery due.
            }
        }
        return new RunUnderWay(handle.runId(), handle.taskId(), done);
    }

    /** What the caller of a run that could not start hears: the API's refusal where there is one. */
    private static RuntimeException refusal(RuntimeException e) {
        if (e instanceof StorageUnavailableException storage) {
            return StorageRefusals.refused(storage);
        } else if (e instanceof InvalidInputsException) {
            return new ApiException(ApiError.INVALID_PARAM, e.getMessage());
        } else if (e instanceof NodeUnavailableException) {
            return new ApiException(ApiError.PROVIDER_NOT_INITIALIZE, e.getMessage());
        }
        return e;
    }

    private WorkflowVersion version(String appId, String workflowId) {
        if (workflowId == null) {
            return versions.latest(appId).orElseThrow(() -> new ApiException(ApiError.INVALID_PARAM,
                    "Workflow not published"));
        }
        return versions.find(workflowId).filter(v -> v.appId().equals(appId))
                .orElseThrow(() -> new ApiException(ApiError.NOT_FOUND, "Workflow not found."));
    }

    /** An upload this app's end user made, as a file input; anyone else's is no upload at all. */
    private Optional<FileValue> uploadOf(String appId, EndUser endUser, String uploadId) {
        return uploads.find(uploadId)
                .filter(file -> file.appId().equals(appId) && file.endUserId().equals(endUser.id()))
                .map(RunWorkflowService::asInput);
    }

    static FileValue asInput(UploadedFile file) {
        String extension = file.extension().isEmpty() ? "" : "." + file.extension();
        return new FileValue(file.id(), FileCategory.of(file.extension()).wireName(), "local_file", null, file.id(),
                file.name(), extension, file.mimeType(), file.size(), null);
    }

    /** A run's own webhook URL; one that is not an http or https URL is the client's mistake. */
    private static CallbackUrl callbackUrl(String url) {
        try {
            return new CallbackUrl(url);
        } catch (IllegalArgumentException e) {
            throw new ApiException(ApiError.INVALID_PARAM, e.getMessage());
        }
    }
}
