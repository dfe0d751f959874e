package dev.hexaflow.workflow.nodes;

import dev.hexaflow.workflow.engine.NodeContext;
import dev.hexaflow.workflow.engine.NodeExecutor;
import dev.hexaflow.workflow.engine.NodeFailure;
import dev.hexaflow.workflow.engine.NodeResult;
import dev.hexaflow.workflow.engine.PreparedNode;
import dev.hexaflow.workflow.engine.RunStoppedException;
import dev.hexaflow.domain.workflow.DataTree;
import dev.hexaflow.domain.workflow.InvalidNodeDataException;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.Values;
import dev.hexaflow.domain.workflow.VariablePool;
import dev.hexaflow.domain.workflow.VariableSelector;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Semaphore;

/**
 * iteration: runs its children once per item of an array, each round on its own fork of the variables with
 * {@code item} and {@code index}, in order or up to parallel_nums at once; collects each round's output_selector
 * into {@code output}, flattened one level when every round gave an array and flatten_output is on. A failed
 * round ends the iteration (terminated), gives null (continue-on-error) or is left out (remove-abnormal-output).
 */
public final class IterationNode implements NodeExecutor {

    private static final Set<String> MODES = Set.of("terminated", "continue-on-error", "remove-abnormal-output");

    @Override
    public NodeType type() {
        return NodeType.ITERATION;
    }

    /** What a node's data says, read once when the workflow is prepared. */
    private record IterationSettings(VariableSelector iterator, Optional<VariableSelector> output, boolean parallel,
            int parallelism, String mode, boolean flatten, String start) {

        static IterationSettings read(DataTree data) {
            VariableSelector iterator = data.selector("iterator_selector");
            Optional<VariableSelector> output = data.optionalSelector("output_selector");
            boolean parallel = data.bool("is_parallel", false);
            int parallelism = (int) Math.max(1, data.longValue("parallel_nums", 10));
            String mode = data.string("error_handle_mode", "terminated");
            if (!MODES.contains(mode)) {
                throw new InvalidNodeDataException("error_handle_mode", "'" + mode + "' is not one of " + MODES);
            }
            boolean flatten = data.bool("flatten_output", true);
            String start = data.string("start_node_id");
            return new IterationSettings(iterator, output, parallel, parallelism, mode, flatten, start);
        }
    }

    @Override
    public PreparedNode prepare(Node node) {
        IterationSettings settings = IterationSettings.read(node.data());
        return new PreparedNode() {
            @Override
            public List<VariableSelector> references() {
                return settings.output().isPresent() ? List.of(settings.iterator(), settings.output().get())
                        : List.of(settings.iterator());
            }

            @Override
            public Optional<Set<String>> outputs() {
                return Optional.of(Set.of("output", "item", "index"));
            }

            @Override
            public NodeResult run(NodeContext context) {
                Object value = context.pool().get(settings.iterator()).orElse(null);
                if (!(value instanceof List<?> items)) {
                    throw new NodeFailure("IterationNodeError", "Invalid iterator value: " + Values.text(value)
                            + ", please provide a list.", null);
                }
                return new IterationRun(node, settings, context, items).run();
            }
        };
    }

    /** One run of the node: its rounds, in order or in parallel, and what each gave. */
    private static final class IterationRun {

        private final Node node;
        private final IterationSettings settings;
        private final NodeContext context;
        private final List<?> items;
        private final Object[] results;
        private final boolean[] dropped;

        IterationRun(Node node, IterationSettings settings, NodeContext context, List<?> items) {
            this.node = node;
            this.settings = settings;
            this.context = context;
            this.items = items;
            this.results = new Object[items.size()];
            this.dropped = new boolean[items.size()];
        }

        NodeResult run() {
            if (settings.parallel() && items.size() > 1) {
                roundsInParallel();
            } else {
                for (int i = 0; i < items.size(); i++) {
                    round(i);
                }
            }
            return NodeResult.of(Map.of("iterator_selector", items), Map.of("output", collected()));
        }

        /** Up to parallel_nums rounds at once, on the run's executor; a round's failure is the node's. */
        private void roundsInParallel() {
            Semaphore slots = new Semaphore(settings.parallelism());
            List<CompletableFuture<Void>> rounds = new ArrayList<>();
            for (int i = 0; i < items.size(); i++) {
                int index = i;
                acquire(slots, context);
                rounds.add(CompletableFuture.runAsync(() -> {
                    try {
                        round(index);
                    } finally {
                        slots.release();
                    }
                }, context.executor()));
            }
            try {
                CompletableFuture.allOf(rounds.toArray(CompletableFuture[]::new)).join();
            } catch (CompletionException e) {
                if (e.getCause() instanceof RuntimeException cause) {
                    throw cause;
                }
                throw e;
            }
        }

        private void round(int index) {
            context.checkStopped();
            context.emitRound(index);
            VariablePool pool = context.pool().fork();
            pool.set(node.id(), "item", items.get(index));
            pool.set(node.id(), "index", (long) index);
            try {
                context.runChildren(settings.start(), pool, context.metadata().inIteration(node.id(), index));
                results[index] = settings.output().flatMap(pool::get).orElse(null);
            } catch (NodeFailure failure) {
                switch (settings.mode()) {
                    case "continue-on-error" -> results[index] = null;
                    case "remove-abnormal-output" -> dropped[index] = true;
                    default -> throw new NodeFailure("IterationNodeError", failure.getMessage(), failure);
                }
            }
        }

        /** The rounds' results but the dropped ones, flattened one level when asked and every one is an array. */
        private List<Object> collected() {
            List<Object> collected = new ArrayList<>();
            for (int i = 0; i < results.length; i++) {
                if (!dropped[i]) {
                    collected.add(results[i]);
                }
            }
            if (settings.flatten() && !collected.isEmpty()
                    && collected.stream().allMatch(r -> r instanceof List<?>)) {
                List<Object> flat = new ArrayList<>();
                collected.forEach(r -> flat.addAll((List<?>) r));
                collected = flat;
            }
            return collected;
        }
    }

    private static void acquire(Semaphore slots, NodeContext context) {
        try {
            slots.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunStoppedException();
        }
        if (context.isStopped()) {
            slots.release();
            throw new RunStoppedException();
        }
    }
}
