package dev.hexaflow.workflow.engine;

import dev.hexaflow.domain.workflow.Edge;
import dev.hexaflow.domain.workflow.ErrorHandling;
import dev.hexaflow.domain.workflow.ExecutionMetadata;
import dev.hexaflow.domain.workflow.Graph;
import dev.hexaflow.domain.workflow.HumanInputForm;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeExecution;
import dev.hexaflow.domain.workflow.NodeStatus;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.PausedRun;
import dev.hexaflow.domain.workflow.RetryPolicy;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.domain.workflow.VariablePool;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Drives a graph (or a container's sub-graph) as Dify's engine does. Each edge is pending, taken or skipped; a
 * node runs once none of its incoming edges is pending and at least one was taken; a node whose incoming edges
 * were all skipped is skipped, and so are its outgoing edges, down the graph. Nodes that become ready together
 * run in parallel; the traversal's own thread runs one of them itself, so a straight chain never changes thread.
 */
final class GraphRunner {

    private enum EdgeState { PENDING, TAKEN, SKIPPED }

    private final RunState run;
    private final Graph graph;
    private final Map<String, RunnableNode> nodes;

    /** The levels (empty: the top; else a container's id) that hold an answer or end node. */
    private final java.util.Set<Optional<String>> responding = new java.util.HashSet<>();

    GraphRunner(RunState run, Graph graph, Map<String, RunnableNode> nodes) {
        this.run = run;
        this.graph = graph;
        this.nodes = nodes;
        for (Node node : graph.nodes()) {
            if (ResponseCoordinator.responds(node)) {
                responding.add(node.parentId());
            }
        }
    }

    Graph graph() {
        return graph;
    }

    /**
     * Runs the top level from its start node; a node failure with no error strategy stops the run. Answers the
     * edges decided, by id ({@code taken} or {@code skipped}), which a paused run keeps.
     */
    Map<String, String> runTopLevel(Node start, VariablePool pool) {
        Traversal traversal = new Traversal(pool, ExecutionMetadata.NONE, null);
        // The roots a run does not start from (the other triggers) never run: their branches are skipped.
        traversal.idleRoots = graph.starts().stream().filter(root -> !root.id().equals(start.id())).toList();
        traversal.run(List.of(new Traversal.Ready(start, null)));
        return traversal.exportEdges();
    }

    /**
     * Goes on with a paused run's top level: its edges as they were decided, and the answered nodes run again
     * first (each takes its answer's branch). Answers the edges decided by then.
     */
    Map<String, String> resumeTopLevel(List<Node> answered, VariablePool pool, Map<String, String> decided) {
        Traversal traversal = new Traversal(pool, ExecutionMetadata.NONE, null);
        decided.forEach((edge, state) -> traversal.edges.put(edge, EdgeState.valueOf(state.toUpperCase(
                java.util.Locale.ROOT))));
        traversal.run(answered.stream().map(node -> new Traversal.Ready(node, null)).toList());
        return traversal.exportEdges();
    }

    NodeContext.ChildrenOutcome runChildren(Node container, String startNodeId, VariablePool pool,
            ExecutionMetadata metadata) {
        Node start = graph.node(startNodeId).orElseThrow(() -> new NodeFailure(
                "start node " + startNodeId + " of " + container.label() + " does not exist"));
        Traversal round = new Traversal(pool, metadata, container);
        round.run(List.of(new Traversal.Ready(start, null)));
        if (round.failure != null) {
            throw round.failure;
        }
        if (run.stopped()) {
            throw new RunStoppedException();
        }
        return new NodeContext.ChildrenOutcome(round.reachedLoopEnd);
    }

    /** A node run begun: its execution record and when it began. */
    private record Started(Node node, String predecessor, NodeExecution execution, long began) {
    }

    /** One pass over a graph or sub-graph, with its own edge states. */
    private final class Traversal {
        private final VariablePool pool;
        private final ExecutionMetadata metadata;
        private final Node container;
        private final Map<String, EdgeState> edges = new HashMap<>();
        private final ArrayDeque<Ready> ready = new ArrayDeque<>();
        private int inFlight;
        private volatile NodeFailure failure;
        private volatile boolean reachedLoopEnd;
        private volatile ResponseCoordinator responses;
        private List<Node> idleRoots = List.of();

        record Ready(Node node, String predecessor) {
        }

        Traversal(VariablePool pool, ExecutionMetadata metadata, Node container) {
            this.pool = pool;
            this.metadata = metadata;
            this.container = container;
        }

        /** Runs from the roots (the start node, or a resumed run's answered nodes) until nothing more can run. */
        void run(List<Ready> roots) {
            Optional<String> level = Optional.ofNullable(container).map(Node::id);
            if (responding.contains(level)) {
                responses = new ResponseCoordinator(run, graph, level, roots.get(0).node(), pool);
            }
            synchronized (this) {
                ready.addAll(roots);
                idleRoots.forEach(idle -> release(idle, null));
            }
            while (true) {
                Ready next;
                synchronized (this) {
                    while (ready.isEmpty() && inFlight > 0) {
                        try {
                            wait();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            run.stop(RunState.StopKind.USER, "interrupted");
                        }
                    }
                    if (ready.isEmpty()) {
                        return;
                    }
                    next = ready.poll();
                    while (!ready.isEmpty()) {
                        Ready extra = ready.poll();
                        inFlight++;
                        run.executor.execute(() -> step(extra));
                    }
                    inFlight++;
                }
                step(next);
            }
        }

        synchronized Map<String, String> exportEdges() {
            Map<String, String> decided = new java.util.LinkedHashMap<>();
            edges.forEach((edge, state) -> {
                if (state != EdgeState.PENDING) {
                    decided.put(edge, state.name().toLowerCase(java.util.Locale.ROOT));
                }
            });
            return decided;
        }

        private void step(Ready item) {
            String handle = null;
            try {
                if (!run.stopped() && failure == null && !reachedLoopEnd) {
                    handle = execute(item.node(), item.predecessor());
                }
            } finally {
                synchronized (this) {
                    if (handle != null) {
                        release(item.node(), handle);
                    }
                    inFlight--;
                    notifyAll();
                }
            }
        }

        /** Marks the node's outgoing edges by the handle it chose (null: none) and queues what became ready. */
        private void release(Node node, String handle) {
            for (Edge edge : graph.outgoing(node.id())) {
                edges.put(edge.id(), edge.sourceHandle().equals(handle) ? EdgeState.TAKEN : EdgeState.SKIPPED);
                consider(edge.target(), node.id());
            }
        }

        /**
         * Queues the target once none of its incoming edges is pending and one was taken; skips it when all were
         * skipped, and then each of its outgoing edges in turn, going on down the graph. The edges still to skip are
         * kept in a list, not on the stack, so that skipping a long chain costs no stack depth; they are taken in
         * the order a depth-first recursion would take them, so a node is queued or skipped once, by the last of its
         * incoming edges to be decided.
         */
        private void consider(String targetId, String predecessor) {
            ArrayDeque<Skip> todo = new ArrayDeque<>();
            todo.push(new Skip(null, targetId, predecessor));
            while (!todo.isEmpty()) {
                Skip next = todo.pop();
                if (next.edge() != null) {
                    edges.put(next.edge().id(), EdgeState.SKIPPED);
                }
                EdgeState incoming = incomingState(next.target());
                if (incoming == EdgeState.PENDING) {
                    continue;
                }
                if (incoming == EdgeState.TAKEN) {
                    ready.add(new Ready(graph.node(next.target()).orElseThrow(), next.predecessor()));
                    continue;
                }
                if (responses != null) {
                    responses.nodeSkipped(next.target());
                }
                List<Edge> outgoing = graph.outgoing(next.target());
                for (int i = outgoing.size() - 1; i >= 0; i--) {
                    todo.push(new Skip(outgoing.get(i), outgoing.get(i).target(), next.target()));
                }
            }
        }

        /** An edge to mark skipped (none for the first, already marked), and the node it leads to. */
        private record Skip(Edge edge, String target, String predecessor) {
        }

        /** PENDING while an incoming edge is, else TAKEN when one was taken, else SKIPPED. */
        private EdgeState incomingState(String id) {
            boolean taken = false;
            for (Edge edge : graph.incoming(id)) {
                EdgeState state = edges.getOrDefault(edge.id(), EdgeState.PENDING);
                if (state == EdgeState.PENDING) {
                    return EdgeState.PENDING;
                }
                taken |= state == EdgeState.TAKEN;
            }
            return taken ? EdgeState.TAKEN : EdgeState.SKIPPED;
        }

        /** Runs one node with its retries and error strategy; answers the handle to follow, or null to stop. */
        private String execute(Node node, String predecessor) {
            PausedRun.WaitingNode earlier = run.resumed.remove(node.id());
            if (earlier == null && !run.countStep()) {
                return null;
            }
            RunnableNode runnable = nodes.get(node.id());
            Started started = earlier == null ? start(node, predecessor) : restart(node, earlier);
            NodeOutcome outcome = applyErrorStrategy(runnable.errors(), attempt(runnable, started));
            if (outcome.status() == NodeStatus.PAUSED) {
                waitForPerson(started, runnable, outcome.form());
                return null;
            }
            keepOutputs(node, outcome);
            boolean kept = outcome.status() == NodeStatus.SUCCEEDED || outcome.status() == NodeStatus.EXCEPTION;
            if (responses != null && kept) {
                responses.nodeFinished(node, outcome.handle());
            }
            report(started, outcome);
            return follow(node, outcome);
        }

        private Started start(Node node, String predecessor) {
            String executionId = run.ids.get();
            int index = run.nodeIndex.incrementAndGet();
            long began = System.nanoTime();
            NodeExecution execution = NodeExecution.started(executionId, node, index, predecessor, metadata,
                    run.now());
            if (node.type().isContainer()) {
                run.emit(new RunEvent.ContainerStarted(executionId, node, index, predecessor, Map.of(),
                        execution.createdAt()));
            } else {
                run.emit(new RunEvent.NodeStarted(execution));
            }
            return new Started(node, predecessor, execution, began);
        }

        /** A paused node runs again under the execution it paused with. */
        private Started restart(Node node, PausedRun.WaitingNode earlier) {
            NodeExecution execution = NodeExecution.started(earlier.executionId(), node, earlier.index(),
                    earlier.predecessorNodeId(), metadata, earlier.createdAt());
            run.emit(new RunEvent.NodeStarted(execution));
            return new Started(node, earlier.predecessorNodeId(), execution, System.nanoTime());
        }

        /** The node's form goes out and the node waits; its edges stay pending until it is answered. */
        private void waitForPerson(Started started, RunnableNode runnable, HumanInputForm form) {
            NodeExecution execution = started.execution();
            run.emit(new RunEvent.HumanInputRequired(form));
            run.emit(new RunEvent.NodeFinished(execution.pause(runnable.read(pool),
                    (System.nanoTime() - started.began()) / 1e9)));
            run.sentForms.add(form);
            run.waiting.put(started.node().id(), new PausedRun.WaitingNode(started.node().id(), execution.id(),
                    execution.index(), started.predecessor(), execution.createdAt(), form));
        }

        /** Runs the node, and again after each failure while its retry policy allows. */
        private NodeOutcome attempt(RunnableNode runnable, Started started) {
            RetryPolicy retry = runnable.retry();
            NodeContext context = new NodeContext(run, started.node(), pool, started.execution().id(), metadata,
                    GraphRunner.this, responses);
            NodeOutcome failed = null;
            for (int round = 0; ; round++) {
                try (NodeScope.Entered entered = run.nodeScope.enter(run.runId, started.execution().id())) {
                    return NodeOutcome.succeeded(runnable.behavior().run(context));
                } catch (RunStoppedException e) {
                    return NodeOutcome.stopped(failed);
                } catch (PauseRequested e) {
                    // A run pauses at its top level only: a container's rounds hold their thread till they end.
                    return container == null ? NodeOutcome.paused(e.form()) : NodeOutcome.failed(new NodeFailure(
                            "HumanInputNodeError", "a human-input node cannot wait inside an iteration or a loop",
                            null));
                } catch (Exception e) {
                    if (run.stopped()) {
                        return NodeOutcome.stopped(failed);
                    }
                    failed = NodeOutcome.failed(e);
                    if (round >= retry.retries()) {
                        return failed;
                    }
                    run.emit(new RunEvent.NodeRetried(started.execution().finish(NodeStatus.FAILED, null, null,
                            null, failed.error(), 0, null, run.now()), round + 1));
                    if (!run.sleepUnlessStopped(retry.interval())) {
                        return NodeOutcome.stopped(failed);
                    }
                }
            }
        }

        /** A success takes the strategy's branch; a failure it handles becomes an exception the run goes on from. */
        private NodeOutcome applyErrorStrategy(ErrorHandling errors, NodeOutcome outcome) {
            if (outcome.status() == NodeStatus.SUCCEEDED) {
                return outcome.withHandle(errors.successHandle(outcome.handle()));
            }
            if (outcome.status() != NodeStatus.FAILED || !errors.handlesErrors()) {
                return outcome;
            }
            run.exceptions.incrementAndGet();
            return outcome.handled(errors.failureOutputs(outcome.error(), outcome.errorType()),
                    errors.failureHandle());
        }

        private void keepOutputs(Node node, NodeOutcome outcome) {
            if ((outcome.status() == NodeStatus.SUCCEEDED || outcome.status() == NodeStatus.EXCEPTION)
                    && outcome.outputs() != null) {
                pool.setAll(node.id(), outcome.outputs());
            }
        }

        private void report(Started started, NodeOutcome outcome) {
            long tokens = outcome.tokens();
            run.tokens.addAndGet(tokens);
            double elapsed = (System.nanoTime() - started.began()) / 1e9;
            NodeExecution execution = started.execution();
            NodeResult result = outcome.result();
            RunnableNode runnable = nodes.get(started.node().id());
            Map<String, Object> inputs = result != null ? result.inputs() : runnable == null ? null
                    : runnable.read(pool);
            if (started.node().type().isContainer()) {
                run.emit(new RunEvent.ContainerCompleted(execution.id(), started.node(), execution.index(),
                        started.predecessor(), inputs, outcome.outputs(), outcome.status(), outcome.error(), elapsed,
                        tokens, run.steps.get(), execution.createdAt(), run.now()));
            } else {
                ExecutionMetadata used = result == null ? metadata
                        : metadata.withTokens(tokens, result.price()).withAgentLog(result.agentLog());
                run.emit(new RunEvent.NodeFinished(execution.finish(outcome.status(), inputs,
                        result == null ? null : result.processData(), outcome.outputs(), outcome.error(), elapsed,
                        used, run.now())));
            }
        }

        /** Answers the handle to take on, or null where the traversal stops here. */
        private String follow(Node node, NodeOutcome outcome) {
            if (outcome.status() == NodeStatus.FAILED) {
                if (container == null) {
                    run.stop(RunState.StopKind.FAILURE, outcome.error());
                } else {
                    // Inside a container the container decides: fail, or go on as its error mode says.
                    synchronized (this) {
                        failure = failure == null ? new NodeFailure(outcome.errorType(), outcome.error(), null)
                                : failure;
                    }
                }
                return null;
            }
            if (outcome.status() == NodeStatus.STOPPED) {
                return null;
            }
            if (node.type() == NodeType.LOOP_END) {
                reachedLoopEnd = true;
            }
            if (node.type() == NodeType.END && container == null && outcome.outputs() != null) {
                run.mergeOutputs(outcome.outputs());
            }
            if (node.type() == NodeType.ANSWER && outcome.outputs() != null) {
                run.appendAnswer(outcome.outputs());
            }
            return outcome.handle();
        }
    }
}
