package dev.hexaflow.application.workflow.engine;

import dev.hexaflow.domain.workflow.DataTree;
import dev.hexaflow.domain.workflow.Edge;
import dev.hexaflow.domain.workflow.ExecutionMetadata;
import dev.hexaflow.domain.workflow.Graph;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeExecution;
import dev.hexaflow.domain.workflow.NodeStatus;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.domain.workflow.Values;
import dev.hexaflow.domain.workflow.VariablePool;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.LinkedHashMap;

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
    private final Map<String, PreparedNode> prepared;

    GraphRunner(RunState run, Graph graph, Map<String, PreparedNode> prepared) {
        this.run = run;
        this.graph = graph;
        this.prepared = prepared;
    }

    Graph graph() {
        return graph;
    }

    /** Runs the top level from its start node; a node failure with no error strategy stops the run. */
    void runTopLevel(Node start, VariablePool pool) {
        new Traversal(pool, ExecutionMetadata.NONE, null).run(start, null);
    }

    NodeContext.ChildrenOutcome runChildren(Node container, String startNodeId, VariablePool pool,
            ExecutionMetadata metadata) {
        Node start = graph.node(startNodeId).orElseThrow(() -> new NodeFailure(
                "start node " + startNodeId + " of " + container.label() + " does not exist"));
        Traversal round = new Traversal(pool, metadata, container);
        round.run(start, null);
        if (round.failure != null) {
            throw round.failure;
        }
        if (run.stopped()) {
            throw new RunStoppedException();
        }
        return new NodeContext.ChildrenOutcome(round.reachedLoopEnd);
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

        private record Ready(Node node, String predecessor) {
        }

        Traversal(VariablePool pool, ExecutionMetadata metadata, Node container) {
            this.pool = pool;
            this.metadata = metadata;
            this.container = container;
        }

        void run(Node root, String predecessor) {
            synchronized (this) {
                ready.add(new Ready(root, predecessor));
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

        /** Marks the node's outgoing edges by the handle it chose and queues what became ready. */
        private void release(Node node, String handle) {
            for (Edge edge : graph.outgoing(node.id())) {
                edges.put(edge.id(), edge.sourceHandle().equals(handle) ? EdgeState.TAKEN : EdgeState.SKIPPED);
                consider(edge.target(), node.id());
            }
        }

        private void consider(String targetId, String predecessor) {
            boolean taken = false;
            for (Edge edge : graph.incoming(targetId)) {
                EdgeState state = edges.getOrDefault(edge.id(), EdgeState.PENDING);
                if (state == EdgeState.PENDING) {
                    return;
                }
                taken |= state == EdgeState.TAKEN;
            }
            Node target = graph.node(targetId).orElseThrow();
            if (taken) {
                ready.add(new Ready(target, predecessor));
            } else {
                for (Edge edge : graph.outgoing(targetId)) {
                    edges.put(edge.id(), EdgeState.SKIPPED);
                    consider(edge.target(), targetId);
                }
            }
        }

        /** Runs one node with its retries and error strategy; answers the handle to follow, or null to stop. */
        private String execute(Node node, String predecessor) {
            if (run.steps.incrementAndGet() > run.settings.maxSteps()) {
                run.stop(RunState.StopKind.FAILURE, "Max steps " + run.settings.maxSteps() + " reached.");
                return null;
            }
            PreparedNode behavior = prepared.get(node.id());
            String executionId = run.ids.get();
            int index = run.nodeIndex.incrementAndGet();
            long started = System.nanoTime();
            NodeExecution execution = NodeExecution.started(executionId, node, index, predecessor, metadata,
                    run.now());
            boolean container = node.type().isContainer();
            if (container) {
                run.emit(new RunEvent.ContainerStarted(executionId, node, index, predecessor, Map.of(),
                        execution.createdAt()));
            } else {
                run.emit(new RunEvent.NodeStarted(execution));
            }
            NodeContext context = new NodeContext(run, node, pool, executionId, metadata, GraphRunner.this);
            Attempt attempt = attempt(node, behavior, context, execution);
            NodeStatus status = attempt.status;
            Map<String, Object> outputs = attempt.result == null ? null : attempt.result.outputs();
            String handle = attempt.result == null ? null : attempt.result.handle();
            String error = attempt.error;
            if (status == NodeStatus.FAILED) {
                Optional<String> strategy = node.data().optionalString("error_strategy");
                if (strategy.isPresent() && !strategy.get().isEmpty()) {
                    status = NodeStatus.EXCEPTION;
                    run.exceptions.incrementAndGet();
                    outputs = new LinkedHashMap<>();
                    if (strategy.get().equals("default-value")) {
                        outputs.putAll(defaultValues(node.data()));
                        handle = NodeResult.DEFAULT_HANDLE;
                    } else {
                        handle = "fail-branch";
                    }
                    outputs.put("error_message", error);
                    outputs.put("error_type", attempt.errorType);
                }
            } else if (status == NodeStatus.SUCCEEDED
                    && "fail-branch".equals(node.data().string("error_strategy", ""))) {
                handle = "success-branch";
            }
            if (outputs != null && (status == NodeStatus.SUCCEEDED || status == NodeStatus.EXCEPTION)) {
                pool.setAll(node.id(), outputs);
            }
            long tokens = attempt.result == null ? 0 : attempt.result.tokens();
            run.tokens.addAndGet(tokens);
            double elapsed = (System.nanoTime() - started) / 1e9;
            Map<String, Object> inputs = attempt.result == null ? null : attempt.result.inputs();
            if (container) {
                run.emit(new RunEvent.ContainerCompleted(executionId, node, index, predecessor, inputs, outputs,
                        status, error, elapsed, tokens, run.steps.get(), execution.createdAt(), run.now()));
            } else {
                ExecutionMetadata used = attempt.result == null ? metadata
                        : metadata.withTokens(tokens, attempt.result.price());
                run.emit(new RunEvent.NodeFinished(execution.finish(status, inputs,
                        attempt.result == null ? null : attempt.result.processData(), outputs, error, elapsed, used,
                        run.now())));
            }
            if (status == NodeStatus.FAILED) {
                if (this.container == null) {
                    run.stop(RunState.StopKind.FAILURE, error);
                } else {
                    // Inside a container the container decides: fail, or go on as its error mode says.
                    synchronized (this) {
                        failure = failure == null ? new NodeFailure(attempt.errorType, error, null) : failure;
                    }
                }
                return null;
            }
            if (status == NodeStatus.STOPPED) {
                return null;
            }
            if (node.type() == NodeType.LOOP_END) {
                reachedLoopEnd = true;
            }
            if (node.type() == NodeType.END && this.container == null && outputs != null) {
                run.mergeOutputs(outputs);
            }
            return handle;
        }

        private final class Attempt {
            NodeResult result;
            NodeStatus status;
            String error;
            String errorType;
        }

        private Attempt attempt(Node node, PreparedNode behavior, NodeContext context, NodeExecution execution) {
            DataTree retry = node.data().tree("retry_config");
            boolean retryEnabled = retry.bool("retry_enabled", retry.bool("enabled", false));
            long maxRetries = retryEnabled ? Math.max(0, retry.longValue("max_retries", 0)) : 0;
            long interval = Math.max(0, retry.longValue("retry_interval", 0));
            Attempt attempt = new Attempt();
            for (int round = 0; ; round++) {
                try {
                    attempt.result = behavior.run(context);
                    attempt.status = NodeStatus.SUCCEEDED;
                    return attempt;
                } catch (RunStoppedException e) {
                    attempt.status = NodeStatus.STOPPED;
                    return attempt;
                } catch (Exception e) {
                    if (run.stopped()) {
                        attempt.status = NodeStatus.STOPPED;
                        return attempt;
                    }
                    attempt.status = NodeStatus.FAILED;
                    attempt.error = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
                    attempt.errorType = e instanceof NodeFailure failure ? failure.type()
                            : e.getClass().getSimpleName();
                    if (round >= maxRetries) {
                        return attempt;
                    }
                    run.emit(new RunEvent.NodeRetried(execution.finish(NodeStatus.FAILED, null, null, null,
                            attempt.error, 0, null, run.now()), round + 1));
                    if (!pause(interval)) {
                        attempt.status = NodeStatus.STOPPED;
                        return attempt;
                    }
                }
            }
        }

        private boolean pause(long millis) {
            long until = System.currentTimeMillis() + millis;
            while (!run.stopped()) {
                long left = until - System.currentTimeMillis();
                if (left <= 0) {
                    return true;
                }
                try {
                    Thread.sleep(Math.min(left, 50));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return false;
        }
    }

    /** The outputs a node with the default-value strategy gives on failure, by their declared types. */
    static Map<String, Object> defaultValues(DataTree data) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (DataTree item : data.trees("default_value")) {
            String key = item.string("key", "");
            if (!key.isEmpty()) {
                values.put(key, Values.normalize(item.get("value")));
            }
        }
        return values;
    }

}
