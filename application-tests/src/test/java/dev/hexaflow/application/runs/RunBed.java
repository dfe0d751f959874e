package dev.hexaflow.application.runs;

import dev.hexaflow.adapters.persistence.memory.InMemoryAppRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryEndUserRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryIdempotencyKeyRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryRunRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryUploadRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryWorkflowVersionRepository;
import dev.hexaflow.application.EchoWorkflow;
import dev.hexaflow.application.MovableClock;
import dev.hexaflow.application.NoWebhooks;
import dev.hexaflow.application.common.port.out.StorageHealth;
import dev.hexaflow.application.runs.port.out.CompletionWebhooks;
import dev.hexaflow.application.runs.port.out.ResumedTurns;
import dev.hexaflow.application.runs.port.out.RunEventFormat;
import dev.hexaflow.application.runs.port.out.RunMonitor;
import dev.hexaflow.application.runs.port.out.RunRepository.StartedRun;
import dev.hexaflow.application.runs.service.HeldRecords;
import dev.hexaflow.application.runs.service.PausedFormMails;
import dev.hexaflow.application.runs.service.RunFeeds;
import dev.hexaflow.application.runs.service.ResumeRuns;
import dev.hexaflow.application.runs.service.RunWorkflowService;
import dev.hexaflow.application.runs.service.TaskRegistry;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.app.EndUser;
import dev.hexaflow.domain.app.SiteSettings;
import dev.hexaflow.domain.app.WorkflowVersion;
import dev.hexaflow.domain.secret.SecretHash;
import dev.hexaflow.domain.workflow.AppInfo;
import dev.hexaflow.domain.workflow.Edge;
import dev.hexaflow.domain.workflow.Graph;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.domain.workflow.WorkflowRun;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.engine.WorkflowEngine;
import dev.hexaflow.workflow.nodes.StandardNodes;
import dev.hexaflow.workflow.port.out.CodeRunner;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The runs context in memory: a workflow app {@link #APP} whose published workflow is the echo workflow, a
 * chatflow app, and a run service on the real engine. Version {@code ver-gated} of the app holds a code node that
 * waits for {@link #gate} (or for its run's stop), so that a test keeps runs in flight as long as it needs; version
 * {@code ver-failing} holds one that reads the query and fails. App {@link #FORM_APP} asks for one input of each
 * kind a start form has ({@link RunForms#form()}).
 */
final class RunBed implements AutoCloseable {

    static final String APP = "app-flow";
    static final String CHAT_APP = "app-chat";
    static final String GATED = "ver-gated";
    static final String FAILING = "ver-failing";
    /** A version of the app that loops until its run stops or reaches its step limit, on nodes that may run inline. */
    static final String ENDLESS = "ver-endless";
    static final String FORM_APP = "app-form";
    /** An app whose runs wait for a person ({@link RunForms#review()}). */
    static final String REVIEW_APP = "app-review";
    /** A version of the review app whose runs pause twice ({@link RunForms#twoReviews()}). */
    static final String TWO_REVIEWS = "ver-two-reviews";
    /** What the failing code node's runner says as it fails. */
    static final String FAILURE = "the printer is on fire";

    final InMemoryAppRepository apps = new InMemoryAppRepository();
    final InMemoryWorkflowVersionRepository versions = new InMemoryWorkflowVersionRepository();
    final InMemoryEndUserRepository endUsers = new InMemoryEndUserRepository();
    final InMemoryRunRepository runs = new InMemoryRunRepository();
    final MovableClock clock = new MovableClock(Instant.parse("2026-03-01T10:00:00Z"));
    final TaskRegistry tasks = new TaskRegistry();
    final RunFeeds feeds = new RunFeeds();
    final HeldRecords holds = new HeldRecords();
    final CountDownLatch gate = new CountDownLatch(1);
    /** How many gated code nodes have begun to wait. */
    final AtomicInteger waiting = new AtomicInteger();
    private final AtomicInteger ids = new AtomicInteger();
    private final ExecutorService listeners = Executors.newCachedThreadPool();
    private final WorkflowEngine engine = new WorkflowEngine(StandardNodes.catalogue(StandardNodes.Services.none()
            .withCodeRunners(List.of(new GatedRunner()))));
    private final WorkflowEngine clockedEngine = new WorkflowEngine(StandardNodes.catalogue(
            StandardNodes.Services.none()), dev.hexaflow.workflow.engine.EngineSettings.DEFAULTS, clock,
            () -> java.util.UUID.randomUUID().toString());

    RunBed() {
        apps.add(app(APP, AppInfo.WORKFLOW_MODE));
        apps.add(app(CHAT_APP, AppInfo.ADVANCED_CHAT_MODE));
        apps.add(app(FORM_APP, AppInfo.WORKFLOW_MODE));
        apps.add(app(REVIEW_APP, AppInfo.WORKFLOW_MODE));
        // Not the app's newest: a run asks for it by its id.
        versions.add(new WorkflowVersion(TWO_REVIEWS, REVIEW_APP, "v0", "two-reviews", SecretHash.of("two"), 0));
        versions.add(new WorkflowVersion("ver-review", REVIEW_APP, "v1", "review", SecretHash.of("review"), 1));
        // ver-1, added last, is the app's newest.
        versions.add(new WorkflowVersion(GATED, APP, "v0", "gated", SecretHash.of("gated"), 0));
        versions.add(new WorkflowVersion(FAILING, APP, "v0", "failing", SecretHash.of("failing"), 0));
        versions.add(new WorkflowVersion(ENDLESS, APP, "v0", "endless", SecretHash.of("endless"), 0));
        versions.add(new WorkflowVersion("ver-form", FORM_APP, "v1", "form", SecretHash.of("form"), 1));
        versions.add(new WorkflowVersion("ver-1", APP, "v1", "echo", SecretHash.of("echo"), 1));
        versions.add(new WorkflowVersion("ver-chat", CHAT_APP, "v1", "echo", SecretHash.of("echo"), 1));
    }

    /** The run service, with at most {@code maxRunsPerApp} runs of an app in flight (0 for no bound). */
    RunWorkflowService service(int maxRunsPerApp) {
        return service(maxRunsPerApp, RunMonitor.NONE);
    }

    /** The run service, every run of which {@code monitor} watches. */
    RunWorkflowService service(int maxRunsPerApp, RunMonitor monitor) {
        return service(maxRunsPerApp, monitor, engine);
    }

    /**
     * The run service on an engine that tells time by the bed's clock, as the server's engine and services share
     * one: a form's expiry is the engine's time, and its check the service's.
     */
    RunWorkflowService clockedService() {
        return service(0, RunMonitor.NONE, clockedEngine);
    }

    /** The clocked run service, its runs' webhooks kept by {@code webhooks}, their events written by {@code format}. */
    RunWorkflowService clockedService(CompletionWebhooks webhooks, RunEventFormat format) {
        return service(0, RunMonitor.NONE, clockedEngine, webhooks, format);
    }

    private RunWorkflowService service(int maxRunsPerApp, RunMonitor monitor, WorkflowEngine engine) {
        return service(maxRunsPerApp, monitor, engine, new NoWebhooks(),
                (event, runId, taskId) -> event.getClass().getSimpleName());
    }

    private RunWorkflowService service(int maxRunsPerApp, RunMonitor monitor, WorkflowEngine engine,
            CompletionWebhooks webhooks, RunEventFormat format) {
        return new RunWorkflowService(apps, versions, endUsers, new InMemoryUploadRepository(), runs,
                dsl -> switch (new String(dsl)) {
                    case "gated" -> gated();
                    case "failing" -> RunForms.failing();
                    case "endless" -> endless();
                    case "form" -> RunForms.form();
                    case "review" -> RunForms.review();
                    case "two-reviews" -> RunForms.twoReviews();
                    default -> EchoWorkflow.named("Echo");
                }, engine, tasks,
                maxRunsPerApp, clock, () -> "id-" + ids.incrementAndGet(), StorageHealth.UNWATCHED, listeners,
                format, feeds, new InMemoryIdempotencyKeyRepository(), webhooks, holds, monitor);
    }

    /** Lets paused runs of this bed's apps go on, on its engine and stores. */
    ResumeRuns resumptions() {
        return resumptions(new NoWebhooks(), (event, runId, taskId) -> event.getClass().getSimpleName());
    }

    /** As {@link #resumptions()}, telling {@code webhooks} of each next pause and end, in {@code format}. */
    ResumeRuns resumptions(CompletionWebhooks webhooks, RunEventFormat format) {
        return new ResumeRuns(runs, versions, dsl -> new String(dsl).equals("two-reviews") ? RunForms.twoReviews()
                : RunForms.review(), clockedEngine, listeners, format, feeds,
                RunMonitor.NONE, tasks, clock, PausedFormMails.NONE, ResumedTurns.NONE, webhooks);
    }

    /** Waits until {@code count} gated nodes wait, so that their runs are surely in flight. */
    void awaitWaiting(int count) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (waiting.get() < count && System.nanoTime() < until) {
            Thread.sleep(5);
        }
    }

    /** Keeps an ended run of the app directly in the store, created at {@code createdAt} (Unix seconds). */
    WorkflowRun keep(String appId, String runId, String session, RunStatus status, Map<String, Object> inputs,
            long createdAt) {
        EndUser user = endUsers.findOrAdd(new EndUser("eu-" + appId + "-" + session, appId, session, createdAt));
        WorkflowRun started = WorkflowRun.started(runId, "ver-1", inputs, createdAt);
        runs.started(new StartedRun(started, appId, "task-" + runId, user, "v1", "log-" + runId)).join();
        if (status == RunStatus.RUNNING) {
            return started;
        }
        WorkflowRun ended = started.finish(status, Map.of("answer", inputs.getOrDefault("query", "")),
                status == RunStatus.FAILED ? "boom" : null, 1.5, 0, 2, 0, createdAt + 2);
        runs.finished(ended).join();
        return ended;
    }

    @Override
    public void close() {
        gate.countDown();
        listeners.shutdownNow();
    }

    private static Workflow gated() {
        Node start = Node.of("start", NodeType.START, Map.of("type", "start", "title", "Start", "variables",
                List.of()));
        Node code = Node.of("code", NodeType.CODE, Map.of("type", "code", "title", "Wait", "code_language",
                "python3", "code", "wait()", "variables", List.of(), "outputs",
                Map.of("result", Map.of("type", "string"))));
        Node end = Node.of("end", NodeType.END, Map.of("type", "end", "title", "End", "outputs",
                List.of(Map.of("variable", "answer", "value_selector", List.of("code", "result")))));
        return new Workflow(new AppInfo("Gated", AppInfo.WORKFLOW_MODE, "🤖", "emoji", "#FFF", "", false), "0.3.0",
                new Graph(List.of(start, code, end), List.of(new Edge("e1", "start", "code", Edge.DEFAULT_HANDLE),
                        new Edge("e2", "code", "end", Edge.DEFAULT_HANDLE))), null, List.of());
    }

    /** start, a loop of a billion rounds adding one to its n each round, end. */
    private static Workflow endless() {
        Node start = Node.of("start", NodeType.START, Map.of("type", "start", "title", "Start", "variables",
                List.of()));
        Node loop = Node.of("loop", NodeType.LOOP, Map.of("type", "loop", "title", "Loop", "loop_count",
                1_000_000_000, "start_node_id", "loopstart", "loop_variables", List.of(Map.of("label", "n",
                        "var_type", "number", "value_type", "constant", "value", "0"))));
        Node loopStart = new Node("loopstart", NodeType.LOOP_START, java.util.Optional.of("loop"),
                dev.hexaflow.domain.workflow.DataTree.of(Map.of("type", "loop-start", "title", "Loop start")), null);
        Node add = new Node("add", NodeType.ASSIGNER, java.util.Optional.of("loop"),
                dev.hexaflow.domain.workflow.DataTree.of(Map.of("type", "assigner", "title", "Add", "version", "2",
                        "items", List.of(Map.of("variable_selector", List.of("loop", "n"), "input_type", "constant",
                                "operation", "+=", "value", 1)))), null);
        Node end = Node.of("end", NodeType.END, Map.of("type", "end", "title", "End", "outputs", List.of()));
        return new Workflow(new AppInfo("Endless", AppInfo.WORKFLOW_MODE, "🤖", "emoji", "#FFF", "", false),
                "0.3.0", new Graph(List.of(start, loop, loopStart, add, end), List.of(
                        new Edge("e1", "start", "loop", Edge.DEFAULT_HANDLE),
                        new Edge("e2", "loopstart", "add", Edge.DEFAULT_HANDLE),
                        new Edge("e3", "loop", "end", Edge.DEFAULT_HANDLE))), null, List.of());
    }

    private static App app(String id, String mode) {
        return new App(id, "App " + id, "", mode, "emoji", "🤖", "#FFF", List.of(), new SiteSettings("Title",
                "emoji", "🤖", "#FFF", null, "", "", "", "", "en-US", true, false), "code" + id.replace("-", ""), true, 1);
    }

    /**
     * Waits for the gate or for its run's stop, then answers {@code result: done}; code {@code fail()} fails at
     * once with {@link #FAILURE}.
     */
    private final class GatedRunner implements CodeRunner {
        @Override
        public String language() {
            return "python3";
        }

        @Override
        public Map<String, Object> run(String code, Map<String, Object> inputs, StopSignal stop) {
            if (code.equals("fail()")) {
                throw new CodeException(FAILURE);
            }
            waiting.incrementAndGet();
            try {
                while (!stop.isStopped() && !gate.await(10, TimeUnit.MILLISECONDS)) {
                    // waits on
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return Map.of("result", "done");
        }
    }

}
