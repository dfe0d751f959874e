package dev.hexaflow.workflow.engine;

import dev.hexaflow.domain.workflow.FormAnswer;

import dev.hexaflow.domain.workflow.ExecutionMetadata;
import dev.hexaflow.domain.workflow.Graph;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.domain.workflow.VariablePool;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/** What a node may use while it runs: its variables, the run's stop signal, and the means to emit and nest. */
public final class NodeContext implements StopSignal {

    private final RunState run;
    private final Node node;
    private final VariablePool pool;
    private final String executionId;
    private final ExecutionMetadata metadata;
    private final GraphRunner graph;
    private final ResponseCoordinator responses;
    /** Whether a reached response shows this node's reasoning, once it is known to. */
    private boolean reasoningShown;

    NodeContext(RunState run, Node node, VariablePool pool, String executionId, ExecutionMetadata metadata,
            GraphRunner graph, ResponseCoordinator responses) {
        this.responses = responses;
        this.run = run;
        this.node = node;
        this.pool = pool;
        this.executionId = executionId;
        this.metadata = metadata;
        this.graph = graph;
    }

    public Node node() {
        return node;
    }

    public VariablePool pool() {
        return pool;
    }

    public EngineSettings settings() {
        return run.settings;
    }

    public String runId() {
        return run.runId;
    }

    /**
     * Where this node streams its text under {@code [node, variable]} (a model's tokens, a tool's text), when an
     * answer or end node of its level shows it: that response sends it on as it comes, in its turn. Empty where
     * nothing shows it.
     */
    public Optional<Consumer<String>> responseStream(String variable) {
        return responses == null ? Optional.empty() : responses.streamOf(node.id(), variable);
    }

    /** The chat turn this run answers, in a chatflow; empty in a workflow app. */
    public Optional<ChatTurn> chatTurn() {
        return Optional.ofNullable(run.chat);
    }

    /** Streams text to the run's listeners, as an end output or a model's tokens. */
    public void emitText(String text, List<String> fromVariableSelector) {
        if (!text.isEmpty()) {
            run.emit(new RunEvent.TextChunk(text, fromVariableSelector));
        }
    }

    /**
     * Streams a piece of this node's reasoning to the run's listeners, apart from its text, when a response this
     * run reaches shows the node's text or reasoning (as Dify filters its reasoning stream); else nothing.
     */
    public void emitReasoning(String reasoning, boolean isFinal) {
        if (reasoning.isEmpty() && !isFinal || responses == null) {
            return;
        }
        // Once a response is sure to show the node, it stays sure for the rest of the node's run.
        reasoningShown = reasoningShown || responses.showsReasoningOf(node.id());
        if (reasoningShown) {
            run.emit(new RunEvent.ReasoningChunk(node.id(), reasoning, isFinal));
        }
    }

    /**
     * Tells listeners that an agent node wrote an entry of its log, or began one ({@code status} start); the
     * entry's fields as Dify's {@code agent_log} names them.
     */
    public void emitAgentLog(String id, String label, String parentId, String status, String error,
            java.util.Map<String, Object> data, java.util.Map<String, Object> metadata) {
        run.emit(new RunEvent.AgentLogged(executionId, node.id(), id, label, parentId, status, error, data,
                metadata));
    }

    @Override
    public boolean isStopped() {
        return run.stopped();
    }

    /** Throws when the run is stopping, for loops that check between steps. */
    public void checkStopped() {
        if (run.stopped()) {
            throw new RunStoppedException();
        }
    }

    /**
     * Registers a way to cancel blocking work (a model call, an HTTP request, a code process) when the run stops;
     * close the handle once the work is done.
     */
    @Override
    public AutoCloseable onStop(Runnable cancel) {
        return run.onStop(cancel);
    }

    /** Tells listeners that the container this node is begins its round (iteration or loop). */
    public void emitRound(int round) {
        run.emit(new RunEvent.ContainerNext(executionId, node, round, run.now()));
    }

    /**
     * Runs the children of this container from its start node on the given pool, as one round; answers whether a
     * loop-end node was reached.
     *
     * @throws NodeFailure with the first child failure
     */
    public ChildrenOutcome runChildren(String startNodeId, VariablePool roundPool, ExecutionMetadata roundMetadata) {
        return graph.runChildren(node, startNodeId, roundPool, roundMetadata);
    }

    /** One object per run under {@code key}, made on first use: state that nodes of one run share. */
    @SuppressWarnings("unchecked")
    public <T> T runScoped(String key, java.util.function.Supplier<T> create) {
        return (T) run.scoped.computeIfAbsent(key, k -> create.get());
    }

    /** Where a container runs its rounds in parallel. */
    public java.util.concurrent.Executor executor() {
        return run.executor;
    }

    public ExecutionMetadata metadata() {
        return metadata;
    }

    /** How a round of a container's children ended. */
    public record ChildrenOutcome(boolean reachedLoopEnd) {
    }

    /** In a resumed run, what came of this node's form; empty where the node runs for the first time. */
    public Optional<FormAnswer> formAnswer() {
        return Optional.ofNullable(run.answers.get(node.id()));
    }

    /** A new id, as the run makes them (a form's). */
    public String newId() {
        return run.ids.get();
    }

    /** Unix seconds by the run's clock. */
    public long now() {
        return run.now();
    }

    /** Tells listeners that this node's form was answered, or expired unanswered. */
    public void emitFormOutcome(RunEvent outcome) {
        if (!(outcome instanceof RunEvent.HumanInputFormFilled) && !(outcome instanceof RunEvent.HumanInputFormTimeout)) {
            throw new IllegalArgumentException("not a form's outcome: " + outcome);
        }
        run.emit(outcome);
    }

    /** The graph the run works on, for nodes that look at their neighbours. */
    public Graph graphOf() {
        return graph.graph();
    }
}
