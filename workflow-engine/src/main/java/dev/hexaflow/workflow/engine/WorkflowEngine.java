package dev.hexaflow.workflow.engine;

import dev.hexaflow.workflow.port.out.SpeechSynthesizer;
import dev.hexaflow.domain.workflow.ConversationVariable;
import dev.hexaflow.domain.workflow.EnvironmentVariable;
import dev.hexaflow.domain.workflow.FormAnswer;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.PausedRun;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.Values;
import dev.hexaflow.domain.workflow.VariablePool;
import dev.hexaflow.domain.workflow.VariableSelector;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Runs Dify workflows inside the JVM: checks a workflow once ({@link #prepare}), then runs it as often as asked,
 * emitting Dify's events to a listener. Needs no HTTP and no database; the node catalogue brings whatever the
 * nodes need.
 */
public final class WorkflowEngine {

    private final NodeCatalogue catalogue;
    private final EngineSettings settings;
    private final Clock clock;
    private final Supplier<String> ids;
    private final ExecutorService executor;
    private final ScheduledExecutorService timers;
    private final SpeechSynthesizer speech;
    private volatile NodeScope nodeScope = NodeScope.NONE;

    public WorkflowEngine(NodeCatalogue catalogue, EngineSettings settings, Clock clock, Supplier<String> ids) {
        this(catalogue, settings, clock, ids, null);
    }

    /** @param speech speaks the runs of apps whose text_to_speech feature is on; null for none */
    public WorkflowEngine(NodeCatalogue catalogue, EngineSettings settings, Clock clock, Supplier<String> ids,
            SpeechSynthesizer speech) {
        this.speech = speech;
        this.catalogue = catalogue;
        this.settings = settings;
        this.clock = clock;
        this.ids = ids;
        this.executor = EngineThreads.newExecutor();
        this.timers = Executors.newSingleThreadScheduledExecutor(EngineThreads.daemon("hexaflow-run-timer"));
    }

    public WorkflowEngine(NodeCatalogue catalogue) {
        this(catalogue, EngineSettings.DEFAULTS, Clock.systemUTC(), () -> UUID.randomUUID().toString());
    }

    /**
     * Tells {@code scope} of each node attempt of the runs started from now on, on the thread that does it (a
     * tracer makes the node's span current there).
     */
    public void scopeNodesWith(NodeScope scope) {
        this.nodeScope = java.util.Objects.requireNonNull(scope);
    }

    /** Checks the workflow whole: graph, node data, node types, references. */
    public PreparedWorkflow prepare(Workflow workflow) {
        Map<String, RunnableNode> nodes = new WorkflowValidator(catalogue).prepare(workflow);
        Set<String> warnings = new LinkedHashSet<>();
        for (Node node : workflow.graph().nodes()) {
            catalogue.executor(node.type()).ifPresent(executor -> warnings.addAll(executor.warnings(node)));
        }
        return new PreparedWorkflow(workflow, nodes, List.copyOf(warnings), InlineRuns.mayRunInline(workflow));
    }

    /** Runs to the end and answers the finished run. */
    public WorkflowRun run(PreparedWorkflow workflow, RunRequest request, RunListener listener) {
        return start(workflow, request, listener).await();
    }

    /**
     * Checks the inputs against the start form, then starts the run and answers at once; the run goes on whether
     * or not anyone waits for it.
     *
     * @throws InvalidInputsException before anything starts when an input does not fit the form
     * @throws NodeUnavailableException before anything starts when a node cannot run on this server
     */
    public RunHandle start(PreparedWorkflow prepared, RunRequest request, RunListener listener) {
        RunHandle handle = ready(prepared, request, listener);
        executor.execute(handle::playHere);
        return handle;
    }

    /**
     * As {@link #start}, but the run waits to be played on its caller's thread ({@link RunHandle#playHere}): its
     * inputs are checked and its ids are known (so that it can be tracked and stopped), and nothing of it runs
     * until then. Its deadline, stop, node limits, events and end are as a started run's. Meant for a workflow
     * that {@linkplain PreparedWorkflow#mayRunInline may run inline}; a handle from here must be played, once.
     */
    public RunHandle ready(PreparedWorkflow prepared, RunRequest request, RunListener listener) {
        Workflow workflow = prepared.workflow();
        for (Node node : workflow.graph().nodes()) {
            catalogue.executor(node.type()).ifPresent(executor -> executor.checkReady(node));
        }
        Node start = root(workflow, request);
        Map<String, Object> inputs = start.type().isTrigger() ? request.inputs()
                : InputForm.check(prepared.inputForm(), request.inputs());
        String runId = request.runId() != null ? request.runId() : ids.get();
        String taskId = request.taskId() != null ? request.taskId() : ids.get();
        SpeechTail tail = SpeechTail.forApp(workflow.features(), speech);
        ChatTurn chat = workflow.isChat() ? request.chatTurn() : null;
        RunState state = new RunState(runId, ids, clock, settings, executor,
                tail == null ? listener : tail.listening(listener), chat, nodeScope);
        Map<String, Object> system = systemVariables(request, runId, chat);
        VariablePool pool = pool(workflow, system, chat);
        pool.setAll(start.id(), inputs);
        if (!start.type().isTrigger()) {
            // Older DSLs read sys.X under the start node's id, where Dify's start node outputs it (a trigger does so
            // itself).
            system.forEach((name, value) -> pool.set(start.id(), VariableSelector.SYSTEM + "." + name, value));
        }
        Map<String, Object> shownInputs = new LinkedHashMap<>(inputs);
        system.forEach((name, value) -> shownInputs.put("sys." + name, Values.normalize(value)));
        WorkflowRun started = WorkflowRun.started(runId, request.workflowId(), shownInputs, clock.instant()
                .getEpochSecond());
        return handle(new Leg(prepared, state, started, pool, new RunEvent.WorkflowStarted(started),
                graph -> graph.runTopLevel(start, pool), taskId, tail, 0));
    }

    /**
     * The node the run starts from: the trigger the request names, or the start node a caller's request fills.
     *
     * @throws InvalidInputsException for a workflow that only its triggers start, or a trigger it does not have
     */
    private static Node root(Workflow workflow, RunRequest request) {
        if (request.rootNodeId() != null) {
            return workflow.graph().node(request.rootNodeId()).filter(node -> node.type().isTrigger()
                    && node.parentId().isEmpty()).orElseThrow(() -> new InvalidInputsException("the workflow has "
                    + "no trigger " + request.rootNodeId()));
        }
        return workflow.graph().start().orElseThrow(() -> new InvalidInputsException("This workflow starts from "
                + "its triggers (schedule, webhook or plugin), not from a request; call its webhook URL instead."));
    }

    /**
     * Goes on with a paused run where it stopped, with the answers of some of its forms (or their expiry): each
     * answered node runs again and takes its answer's branch; the other waiting nodes keep waiting. The run ends, or
     * pauses again, as any run does; its events go to {@code listener}, starting with
     * {@link RunEvent.WorkflowResumed}.
     *
     * @throws IllegalArgumentException when an answer is for a node the run does not wait at
     */
    public RunHandle resume(PreparedWorkflow prepared, PausedRun paused, List<FormAnswer> answers,
            RunListener listener) {
        if (answers.isEmpty()) {
            throw new IllegalArgumentException("a run goes on with one answer or more");
        }
        Workflow workflow = prepared.workflow();
        ChatTurn chat = workflow.isChat() ? chatTurn(paused.chat()) : null;
        WorkflowRun run = paused.run();
        RunState state = new RunState(run.id(), ids, clock, settings, executor, listener, chat, nodeScope);
        state.steps.set(run.totalSteps());
        state.tokens.set(run.totalTokens());
        state.exceptions.set(run.exceptionsCount());
        state.nodeIndex.set(paused.nodeIndex());
        if (run.outputs() != null) {
            state.mergeOutputs(run.outputs());
        }
        state.waiting.putAll(paused.waiting());
        List<Node> answered = new java.util.ArrayList<>();
        for (FormAnswer answer : answers) {
            PausedRun.WaitingNode waiting = state.waiting.remove(answer.nodeId());
            if (waiting == null) {
                throw new IllegalArgumentException("run " + run.id() + " does not wait at " + answer.nodeId());
            }
            state.resumed.put(answer.nodeId(), waiting);
            state.answers.put(answer.nodeId(), answer);
            answered.add(workflow.graph().node(answer.nodeId()).orElseThrow());
        }
        VariablePool pool = VariablePool.restore(paused.variables());
        WorkflowRun resumed = run.resume();
        RunHandle handle = handle(new Leg(prepared, state, resumed, pool, new RunEvent.WorkflowResumed(resumed),
                graph -> graph.resumeTopLevel(answered, pool, paused.edges()), paused.taskId(), null,
                run.elapsedTime()));
        executor.execute(handle::playHere);
        return handle;
    }

    /** One stretch of a run, from its start or a resumption to its end or next pause. */
    private record Leg(PreparedWorkflow prepared, RunState state, WorkflowRun run, VariablePool pool,
            RunEvent opening, java.util.function.Function<GraphRunner, Map<String, String>> walk, String taskId,
            SpeechTail tail, double elapsedBefore) {
    }

    /** The leg's handle, which plays it once, on whichever thread asks. */
    private RunHandle handle(Leg leg) {
        CompletableFuture<WorkflowRun> finished = new CompletableFuture<>();
        return new RunHandle(leg.run().id(), leg.taskId(), leg.state(), finished, () -> play(leg, finished));
    }

    private void play(Leg leg, CompletableFuture<WorkflowRun> finished) {
        RunState state = leg.state();
        Workflow workflow = leg.prepared().workflow();
        ScheduledFuture<?> deadline = deadline(state);
        long began = System.nanoTime() - (long) (leg.elapsedBefore() * 1e9);
        WorkflowRun ended;
        Map<String, String> edges = Map.of();
        try {
            state.emit(leg.opening());
            edges = leg.walk().apply(new GraphRunner(state, workflow.graph(), leg.prepared().nodes()));
            ended = finish(leg.run(), state, began);
        } catch (RuntimeException | Error e) {
            state.stop(RunState.StopKind.FAILURE, "Internal error: " + e);
            ended = finish(leg.run(), state, began);
        } finally {
            deadline.cancel(false);
        }
        if (ended.status() == RunStatus.PAUSED) {
            pause(leg, ended, edges, finished);
            return;
        }
        end(leg, ended, finished);
    }

    /** Tells the pause, with all the run needs to go on, and answers the paused run to whoever waits. */
    private static void pause(Leg leg, WorkflowRun paused, Map<String, String> edges,
            CompletableFuture<WorkflowRun> finished) {
        RunState state = leg.state();
        Map<String, Object> chat = new LinkedHashMap<>();
        if (state.chat != null) {
            chat.put("query", state.chat.query());
            chat.put("conversation_id", state.chat.conversationId());
            chat.put("dialogue_count", state.chat.dialogueCount());
            if (state.chat.messageId() != null) {
                chat.put("message_id", state.chat.messageId());
            }
        }
        PausedRun snapshot = new PausedRun(paused, leg.taskId(), leg.pool().export(), edges,
                new LinkedHashMap<>(state.waiting), state.nodeIndex.get(), chat);
        try {
            state.emit(new RunEvent.WorkflowPaused(paused, snapshot, List.copyOf(state.sentForms)));
        } catch (RuntimeException | Error e) {
            finished.completeExceptionally(e);
            return;
        }
        finished.complete(paused);
    }

    /** Tells the end (a chatflow's conversation variables first), then speaks it where the app speaks. */
    private void end(Leg leg, WorkflowRun ended, CompletableFuture<WorkflowRun> finished) {
        RunState state = leg.state();
        try {
            if (state.chat != null) {
                state.emit(new RunEvent.ConversationVariables(finalConversation(leg.prepared().workflow(),
                        leg.pool())));
            }
            state.emit(new RunEvent.WorkflowFinished(ended));
        } catch (RuntimeException | Error e) {
            // The end could not be kept (the store refused it): whoever waits for the run hears that, not an
            // end that a restart would not find.
            finished.completeExceptionally(e);
            return;
        }
        try {
            if (leg.tail() != null) {
                leg.tail().speak(state, leg.taskId());
            }
        } finally {
            finished.complete(ended);
        }
    }

    /**
     * The chat turn a paused chatflow run kept: its query, conversation, count and message; its history is not
     * needed again.
     */
    private static ChatTurn chatTurn(Map<String, Object> kept) {
        Object count = kept.get("dialogue_count");
        return new ChatTurn((String) kept.get("query"), (String) kept.get("conversation_id"),
                count instanceof Number number ? number.intValue() : 1, Map.of(), List.of(),
                (String) kept.get("message_id"));
    }

    /** Dify's {@code sys} variables of the run: who runs what, when, and in a chatflow the turn's query. */
    private Map<String, Object> systemVariables(RunRequest request, String runId, ChatTurn chat) {
        Map<String, Object> system = new LinkedHashMap<>();
        system.put("files", request.files());
        system.put("user_id", request.userId());
        system.put("app_id", request.appId());
        system.put("workflow_id", request.workflowId());
        system.put("workflow_run_id", runId);
        system.put("timestamp", clock.instant().getEpochSecond());
        if (chat != null) {
            system.put("query", chat.query());
            system.put("conversation_id", chat.conversationId());
            system.put("dialogue_count", (long) chat.dialogueCount());
        }
        return system;
    }

    /** The run's variables before its first node: system, environment and, in a chatflow, conversation. */
    private static VariablePool pool(Workflow workflow, Map<String, Object> system, ChatTurn chat) {
        VariablePool pool = VariablePool.of(system, environment(workflow));
        if (chat != null) {
            conversation(workflow, chat).forEach((name, value) ->
                    pool.set(VariableSelector.CONVERSATION, name, value));
        }
        return pool;
    }

    /** Fails the run when it reaches the most time a run may take. */
    private ScheduledFuture<?> deadline(RunState state) {
        return timers.schedule(() -> state.stop(RunState.StopKind.FAILURE,
                        "Max execution time " + settings.maxTime().toSeconds() + "s reached."),
                settings.maxTime().toMillis(), TimeUnit.MILLISECONDS);
    }

    private WorkflowRun finish(WorkflowRun started, RunState state, long began) {
        RunState.Stop stop = state.stop();
        RunStatus status;
        String error = null;
        if (stop == null && !state.waiting.isEmpty()) {
            return started.pause(state.outputs(), (System.nanoTime() - began) / 1e9, state.tokens.get(),
                    state.steps.get(), state.exceptions.get());
        }
        if (stop == null) {
            status = state.exceptions.get() > 0 ? RunStatus.PARTIAL_SUCCEEDED : RunStatus.SUCCEEDED;
        } else if (stop.kind() == RunState.StopKind.USER) {
            status = RunStatus.STOPPED;
            error = stop.message();
        } else {
            status = RunStatus.FAILED;
            error = stop.message();
        }
        return started.finish(status, state.outputs(), error, (System.nanoTime() - began) / 1e9, state.tokens.get(),
                state.steps.get(), state.exceptions.get(), clock.instant().getEpochSecond());
    }

    /** Each conversation variable as the conversation holds it, else the DSL's default typed by value_type. */
    private static Map<String, Object> conversation(Workflow workflow, ChatTurn chat) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (ConversationVariable variable : workflow.conversationVariables()) {
            values.put(variable.name(), chat.conversationVariables().containsKey(variable.name())
                    ? chat.conversationVariables().get(variable.name())
                    : typed(variable.valueType(), variable.value()));
        }
        return values;
    }

    private static Map<String, Object> finalConversation(Workflow workflow, VariablePool pool) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (ConversationVariable variable : workflow.conversationVariables()) {
            values.put(variable.name(), pool.get(VariableSelector.of(VariableSelector.CONVERSATION,
                    variable.name())).orElse(null));
        }
        return values;
    }

    private static Map<String, Object> environment(Workflow workflow) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (EnvironmentVariable variable : workflow.environmentVariables()) {
            values.put(variable.name(), typed(variable.valueType(), variable.value()));
        }
        return values;
    }

    /** A number variable whose DSL value is text holds the number; any other value is kept as the file says. */
    private static Object typed(String valueType, Object value) {
        if ("number".equals(valueType) && value instanceof String text && !text.isBlank()) {
            try {
                return text.contains(".") ? (Object) Double.parseDouble(text) : (Object) Long.parseLong(text);
            } catch (NumberFormatException e) {
                // A number variable that holds text stays text, as Dify keeps what the file says.
            }
        }
        return value;
    }
}
