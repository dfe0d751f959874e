package dev.hexaflow.domain.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The graph rules on graphs as large as they may be: their walks hold no frame per node on the stack, so a chain
 * as long as the limit is checked on a thread with a small stack, and a graph past the limit is refused by it.
 */
class GraphRulesSizeTest {

    /** A thread stack far smaller than the JVM's default, on which a walk with a frame per node would overflow. */
    private static final long SMALL_STACK = 128 * 1024;

    @Test
    void aChainAsLongAsTheLimitIsCheckedWithoutAFramePerNode() throws Exception {
        Graph chain = chain(GraphRules.MAX_NODES, false);

        List<WorkflowProblem> problems = onSmallStack(() -> GraphRules.check(chain));

        assertThat(problems).isEmpty();
    }

    @Test
    void aCycleClosedAtTheEndOfALongChainIsFoundWithoutAFramePerNode() throws Exception {
        Graph looped = chain(GraphRules.MAX_NODES, true);

        List<WorkflowProblem> problems = onSmallStack(() -> GraphRules.check(looped));

        assertThat(problems).extracting(WorkflowProblem::toString).containsExactly("node n1 (N1): edge n"
                + (GraphRules.MAX_NODES - 2) + "-source-n1 closes a cycle; repeat work with a loop or iteration node "
                + "instead");
    }

    @Test
    void aGraphWithMoreNodesThanTheLimitIsRefusedByTheLimitAlone() throws Exception {
        Graph huge = chain(100_000, false);

        List<WorkflowProblem> problems = onSmallStack(() -> GraphRules.check(huge));

        assertThat(problems).extracting(WorkflowProblem::toString).containsExactly("the workflow has 100000 "
                + "nodes; a workflow may have at most " + GraphRules.MAX_NODES + " (iteration and loop children "
                + "included)");
    }

    @Test
    void aGraphWithMoreEdgesThanTheLimitIsRefusedByTheLimitAlone() {
        List<Node> nodes = List.of(Node.of("s", NodeType.START, Map.of("title", "S")),
                Node.of("e", NodeType.END, Map.of("title", "E")));
        List<Edge> edges = new ArrayList<>();
        for (int i = 0; i <= GraphRules.MAX_EDGES; i++) {
            edges.add(new Edge("e" + i, "s", "e", null));
        }

        assertThat(GraphRules.check(new Graph(nodes, edges))).extracting(WorkflowProblem::toString)
                .containsExactly("the workflow has " + (GraphRules.MAX_EDGES + 1) + " edges; a workflow may have at "
                        + "most " + GraphRules.MAX_EDGES);
    }

    /** start, n1 … n(size-2), end; {@code looped} adds an edge from the last n back to n1. */
    private static Graph chain(int size, boolean looped) {
        List<Node> nodes = new ArrayList<>();
        List<Edge> edges = new ArrayList<>();
        nodes.add(Node.of("start", NodeType.START, Map.of("title", "Start")));
        String previous = "start";
        for (int i = 1; i <= size - 2; i++) {
            nodes.add(Node.of("n" + i, NodeType.TEMPLATE_TRANSFORM, Map.of("title", "N" + i)));
            edges.add(new Edge(null, previous, "n" + i, null));
            previous = "n" + i;
        }
        nodes.add(Node.of("end", NodeType.END, Map.of("title", "End")));
        edges.add(new Edge(null, previous, "end", null));
        if (looped) {
            edges.add(new Edge(null, previous, "n1", null));
        }
        return new Graph(nodes, edges);
    }

    private static <T> T onSmallStack(Supplier<T> work) throws InterruptedException {
        AtomicReference<T> result = new AtomicReference<>();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread thread = new Thread(null, () -> {
            try {
                result.set(work.get());
            } catch (Throwable t) {
                thrown.set(t);
            }
        }, "small-stack", SMALL_STACK);
        thread.start();
        thread.join();
        if (thrown.get() != null) {
            throw new AssertionError("the check failed on a small stack", thrown.get());
        }
        return result.get();
    }
}
