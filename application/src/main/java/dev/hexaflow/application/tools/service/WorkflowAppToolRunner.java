package dev.hexaflow.application.tools.service;

import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.runs.port.in.AnswerFormUseCase;
import dev.hexaflow.application.runs.port.in.GetRunUseCase;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase;
import dev.hexaflow.application.runs.port.in.StopTaskUseCase;
import dev.hexaflow.domain.tool.ToolBinding;
import dev.hexaflow.domain.tool.ToolDescription;
import dev.hexaflow.domain.tool.ToolMessage;
import dev.hexaflow.domain.tool.ToolRef;
import dev.hexaflow.domain.workflow.FileValue;
import dev.hexaflow.domain.workflow.FormStatus;
import dev.hexaflow.domain.workflow.HumanInputForm;
import dev.hexaflow.domain.workflow.KeptForm;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.Values;
import dev.hexaflow.domain.workflow.VariableSelector;
import dev.hexaflow.domain.workflow.WorkflowRun;
import dev.hexaflow.workflow.engine.FormTokens;
import dev.hexaflow.workflow.engine.NodeContext;
import dev.hexaflow.workflow.engine.PauseRequested;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.ToolRunner;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Dify's workflow tools: a tool bound to another app of this server runs that app's published workflow as a run of
 * its own (kept and listed in the app's logs like any run), for the calling run's user, with the tool's arguments
 * as its inputs; the tool answers the run's files, then its outputs as text ({@code json.dumps}) and as a JSON
 * message, as Dify's {@code WorkflowTool} does. A failed run fails the tool with the run's error.
 *
 * <p>A run that pauses for a person pauses its caller's tool node too, with a form of the caller's own that forwards
 * to the called run's form (same content, inputs and actions): answering either lets the called run go on, and when
 * it ends (or pauses again) the caller's node runs again and reads it here, answering its outputs (or pausing with
 * its next form).
 *
 * <p>It lives in the composition root because it drives an inbound use case, which no adapter may reach. An app
 * that calls itself (or a cycle of apps) is bounded as Dify bounds it: a run started by a workflow tool at depth
 * {@link #MAX_DEPTH} cannot start another.
 */
public final class WorkflowAppToolRunner implements ToolRunner {

    /** Dify's WORKFLOW_CALL_MAX_DEPTH. */
    public static final int MAX_DEPTH = 5;
    /**
     * Runs one top-level run may start through workflow tools, at every depth together: the depth alone lets a
     * self-calling app in an iteration of k items start k^5 runs.
     */
    public static final int MAX_RUNS_PER_ROOT = 100;
    /** The user of a run that does not say whose it is (a run of the command line). */
    private static final String NO_USER = "hexaflow-workflow-tool";

    private final Function<ToolRef, Optional<ToolBinding.App>> bindings;
    private final Supplier<RunWorkflowUseCase> runs;
    private final Supplier<StopTaskUseCase> stops;
    private final Supplier<GetRunUseCase> getRuns;
    private final Supplier<AnswerFormUseCase> forms;
    /** The depth of each run this runner started and that has not ended: 1 for a run a top-level run started. */
    private final Map<String, Integer> depths = new ConcurrentHashMap<>();
    /**
     * Held while a child run starts and its depth is noted, and while a call reads its caller's depth: a child
     * that reaches a workflow tool at once must not read its depth before it is noted, or a cycle would run on.
     */
    private final ReentrantLock starting = new ReentrantLock();
    /** The top-level run each child run descends from; guarded by {@link #starting}. */
    private final Map<String, String> rootOf = new java.util.HashMap<>();
    /**
     * Per top-level run: the runs started through workflow tools, and when the first was (nanoTime); guarded by
     * {@link #starting}. A run cannot outlast {@link #BUDGET_KEPT} (its time limit is far below), so an entry is let
     * go after that.
     */
    private final Map<String, long[]> budgets = new java.util.HashMap<>();
    static final java.time.Duration BUDGET_KEPT = java.time.Duration.ofHours(2);

    /**
     * @param runs  the run use case, given once the composition root has made it (it needs the engine, which
     *              needs this runner)
     * @param stops   stops a child run when its caller stops
     * @param getRuns reads a child run again when its caller goes on after waiting for it
     * @param forms   the forms of a child run that waits for a person, which its caller's form stands for
     */
    public WorkflowAppToolRunner(Function<ToolRef, Optional<ToolBinding.App>> bindings, Supplier<RunWorkflowUseCase> runs,
            Supplier<StopTaskUseCase> stops, Supplier<GetRunUseCase> getRuns, Supplier<AnswerFormUseCase> forms) {
        this.bindings = bindings;
        this.runs = runs;
        this.stops = stops;
        this.getRuns = getRuns;
        this.forms = forms;
    }

    @Override
    public boolean runs(ToolRef tool) {
        return bindings.apply(tool).isPresent();
    }

    @Override
    public Optional<ToolDescription> describe(ToolRef tool) {
        return bindings.apply(tool).map(app -> new ToolDescription(tool, "Runs the app " + app.appId()
                + " with these inputs", Map.of("type", "object")));
    }

    @Override
    public List<ToolMessage> run(ToolRef tool, Map<String, Object> arguments, StopSignal stop) {
        ToolBinding.App app = bindings.apply(tool).orElseThrow(() -> new ToolException("the tool " + tool.label()
                + " is not bound to an app"));
        NodeContext caller = stop instanceof NodeContext ctx ? ctx : null;
        HumanInputForm.FormRef waitedOn = caller == null ? null : caller.formAnswer()
                .map(answer -> answer.form().forwardsTo()).orElse(null);
        WorkflowRun run = waitedOn != null ? calledRun(app, waitedOn.runId())
                : startAndAwait(tool, app, arguments, caller, stop);
        if (run.status() == RunStatus.FAILED || run.status() == RunStatus.STOPPED) {
            throw new ToolException(run.error() == null || run.error().isBlank() ? "the run " + run.id()
                    + " of app " + app.appId() + " ended " + run.status().wireName() : run.error());
        }
        if (!run.status().isTerminal()) {
            throw new PauseRequested(forwardingForm(caller, app, run));
        }
        return messages(run.outputs() == null ? Map.of() : run.outputs());
    }

    /** Starts the app's run, within the depth and the top-level run's budget, and waits for its end or pause. */
    private WorkflowRun startAndAwait(ToolRef tool, ToolBinding.App app, Map<String, Object> arguments,
            NodeContext caller, StopSignal stop) {
        String user = caller == null ? NO_USER : caller.pool().get(VariableSelector.of(VariableSelector.SYSTEM,
                "user_id")).map(String::valueOf).filter(id -> !id.isBlank()).orElse(NO_USER);
        RunWorkflowUseCase.RunUnderWay child;
        String root = caller == null ? null : rootOf.getOrDefault(caller.runId(), caller.runId());
        starting.lock();
        try {
            int depth = (caller == null ? 0 : depths.getOrDefault(caller.runId(), 0)) + 1;
            if (depth > MAX_DEPTH) {
                throw new ToolException("Max workflow call depth " + MAX_DEPTH + " reached.");
            }
            long now = System.nanoTime();
            budgets.values().removeIf(entry -> now - entry[1] > BUDGET_KEPT.toNanos());
            long[] budget = root == null ? new long[] {0, now}
                    : budgets.computeIfAbsent(root, r -> new long[] {0, now});
            if (budget[0] >= MAX_RUNS_PER_ROOT) {
                throw new ToolException("A run may start at most " + MAX_RUNS_PER_ROOT + " runs through workflow "
                        + "tools, at every depth together; this one has started " + budget[0]);
            }
            child = runs.get().start(new RunWorkflowUseCase.RunWorkflowCommand(app.appId(), null, user, arguments,
                    List.of()), RunWorkflowUseCase.RunObserver.NONE);
            budget[0]++;
            depths.put(child.runId(), depth);
            if (root != null) {
                rootOf.put(child.runId(), root);
            }
        } catch (ApiException e) {
            throw new ToolException("the app " + app.appId() + " bound to " + tool.label() + " cannot run: "
                    + e.getMessage());
        } finally {
            starting.unlock();
        }
        try (AutoCloseable stopChild = stop.onStop(() -> stops.get().stop(app.appId(), child.taskId(), user))) {
            return child.await();
        } catch (ApiException e) {
            throw new ToolException("the run of app " + app.appId() + " was not kept: " + e.getMessage());
        } catch (Exception e) {
            throw new ToolException("the run of app " + app.appId() + " broke: " + e.getMessage(), e);
        } finally {
            depths.remove(child.runId());
            ended(child.runId());
        }
    }

    /** The called run as it is now, read again when the caller's form it paused with was answered. */
    private WorkflowRun calledRun(ToolBinding.App app, String runId) {
        try {
            return getRuns.get().get(app.appId(), runId);
        } catch (ApiException e) {
            throw new ToolException("the run " + runId + " of app " + app.appId() + " is gone: " + e.getMessage());
        }
    }

    /**
     * The caller's own form (its id and token) standing for the called run's form: the form it waits on, or, once
     * answered and the run going on, the latest it sent. Its answer goes to that form; the caller goes on when the
     * called run ends or pauses again. Only a tool node waits: an agent's tool call cannot.
     */
    private HumanInputForm forwardingForm(NodeContext caller, ToolBinding.App app, WorkflowRun run) {
        List<KeptForm> sent = forms.get().formsOf(app.appId(), run.id());
        KeptForm latest = sent.stream().filter(form -> form.status() == FormStatus.WAITING)
                .reduce((first, second) -> second)
                .orElse(sent.isEmpty() ? null : sent.get(sent.size() - 1));
        if (caller == null || caller.node().type() != NodeType.TOOL || latest == null) {
            throw new ToolException("the run " + run.id() + " of app " + app.appId() + " waits for a person, and "
                    + "only a tool node of a workflow can wait with it");
        }
        HumanInputForm form = latest.form();
        // The called run's own mail already sent its form's link: the caller's form is not mailed again.
        List<Map<String, Object>> delivery = form.deliveryMethods().stream()
                .filter(method -> !"email".equals(method.get("type"))).toList();
        return new HumanInputForm(caller.newId(), FormTokens.next(), caller.runId(), caller.node().id(),
                caller.node().title(), form.formContent(), form.inputs(), form.actions(),
                form.resolvedDefaultValues(), form.expirationTime(), delivery,
                new HumanInputForm.FormRef(run.id(), form.formId()));
    }

    /** A child run ended: its descent is forgotten (its top-level run's budget stays until it expires). */
    private void ended(String childRunId) {
        starting.lock();
        try {
            rootOf.remove(childRunId);
        } finally {
            starting.unlock();
        }
    }

    /** The files among the outputs (as values or in lists), then the outputs as text and as JSON. */
    private static List<ToolMessage> messages(Map<String, Object> outputs) {
        List<ToolMessage> messages = new ArrayList<>();
        for (Object value : outputs.values()) {
            if (value instanceof FileValue file) {
                messages.add(new ToolMessage.File(file));
            } else if (value instanceof List<?> items) {
                items.stream().filter(FileValue.class::isInstance)
                        .forEach(file -> messages.add(new ToolMessage.File((FileValue) file)));
            }
        }
        messages.add(new ToolMessage.Text(Values.pythonJson(outputs)));
        messages.add(new ToolMessage.Json(outputs));
        return messages;
    }
}
