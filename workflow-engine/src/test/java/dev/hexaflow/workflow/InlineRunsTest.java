package dev.hexaflow.workflow;

import static dev.hexaflow.workflow.TestWorkflows.condition;
import static dev.hexaflow.workflow.TestWorkflows.ifElse;
import static dev.hexaflow.workflow.TestWorkflows.workflow;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.domain.workflow.WorkflowRun;
import dev.hexaflow.workflow.engine.EngineSettings;
import dev.hexaflow.workflow.engine.NodeCatalogue;
import dev.hexaflow.workflow.engine.NodeExecutor;
import dev.hexaflow.workflow.engine.NodeResult;
import dev.hexaflow.workflow.engine.PreparedNode;
import dev.hexaflow.workflow.engine.PreparedWorkflow;
import dev.hexaflow.workflow.engine.RunHandle;
import dev.hexaflow.workflow.engine.RunRequest;
import dev.hexaflow.workflow.engine.WorkflowEngine;
import dev.hexaflow.workflow.nodes.StandardNodes;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Runs played on the thread that asks ({@link WorkflowEngine#ready}, {@link RunHandle#playHere}): which workflows
 * may, that every node and event of such a run stays on that thread, and that a stop and the run's deadline end it
 * as they end a started run.
 */
class InlineRunsTest {

    /** The threads the template-transform nodes ran on, and the threads the events were told on. */
    private final List<Thread> nodeThreads = new CopyOnWriteArrayList<>();
    private final List<Thread> eventThreads = new CopyOnWriteArrayList<>();
    private final List<RunEvent> events = new CopyOnWriteArrayList<>();
    /** What each template-transform node does besides noting its thread. */
    private Runnable nodeAction = () -> { };

    /** The engine's own nodes, with a template-transform that notes its thread and answers "ok". */
    private WorkflowEngine engine(EngineSettings settings) {
        NodeCatalogue standard = StandardNodes.catalogue(StandardNodes.Services.none());
        List<NodeExecutor> executors = new ArrayList<>();
        standard.types().forEach(type -> executors.add(standard.executor(type).orElseThrow()));
        executors.add(new NodeExecutor() {
            @Override
            public NodeType type() {
                return NodeType.TEMPLATE_TRANSFORM;
            }

            @Override
            public PreparedNode prepare(Node node) {
                return PreparedNode.of(List.of(), Optional.of(Set.of("output")), context -> {
                    nodeThreads.add(Thread.currentThread());
                    nodeAction.run();
                    return NodeResult.of(Map.of(), Map.of("output", "ok"));
                });
            }
        });
        return new WorkflowEngine(new NodeCatalogue(executors), settings, Clock.systemUTC(),
                () -> UUID.randomUUID().toString());
    }

    private RunHandle ready(WorkflowEngine engine, Workflow workflow) {
        PreparedWorkflow prepared = engine.prepare(workflow);
        assertThat(prepared.mayRunInline()).as("the workflow may run inline").isTrue();
        return engine.ready(prepared, RunRequest.of(workflow, "u", Map.of()), event -> {
            eventThreads.add(Thread.currentThread());
            events.add(event);
        });
    }

    /** start, a noted node, an if-else, a loop of two rounds with a noted node in it, and the end. */
    private static Workflow straight() {
        return workflow().start()
                .node("greet", NodeType.TEMPLATE_TRANSFORM, Map.of("template", "x"))
                .node("check", NodeType.IF_ELSE, ifElse("yes", condition(List.of("greet", "output"), "is", "ok")))
                .node("loop", NodeType.LOOP, Map.of("loop_count", 2, "start_node_id", "ls", "loop_variables",
                        List.of()))
                .child("loop", "ls", NodeType.LOOP_START, Map.of())
                .child("loop", "inner", NodeType.TEMPLATE_TRANSFORM, Map.of("template", "y"))
                .end("end", Map.of("out", List.of("greet", "output")))
                .edge("start", "greet").edge("greet", "check").edge("check", "loop", "yes").edge("ls", "inner")
                .edge("loop", "end").build();
    }

    /** A loop that goes on for ever (until a limit or a stop ends it), with a noted node in each round. */
    private static Workflow endless() {
        return workflow().start()
                .node("loop", NodeType.LOOP, Map.of("loop_count", 100_000_000, "start_node_id", "ls",
                        "loop_variables", List.of()))
                .child("loop", "ls", NodeType.LOOP_START, Map.of())
                .child("loop", "inner", NodeType.TEMPLATE_TRANSFORM, Map.of("template", "y"))
                .end("end", Map.of())
                .edge("start", "loop").edge("ls", "inner").edge("loop", "end").build();
    }

    @Test
    void aSequentialRunPlayedHereRunsEveryNodeAndTellsEveryEventOnTheCallersThread() {
        RunHandle handle = ready(engine(EngineSettings.DEFAULTS), straight());
        assertThat(events).as("nothing runs before it is played").isEmpty();

        handle.playHere();

        assertThat(handle.finished()).as("the run is over once playHere returns").isDone();
        WorkflowRun run = handle.await();
        assertThat(run.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(run.outputs()).isEqualTo(Map.of("out", "ok"));
        assertThat(nodeThreads).hasSize(3).containsOnly(Thread.currentThread());
        assertThat(eventThreads).isNotEmpty().containsOnly(Thread.currentThread());
        assertThat(events.get(events.size() - 1)).isInstanceOf(RunEvent.WorkflowFinished.class);
        assertThatThrownBy(handle::playHere).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aParallelGraphMayNotRunInlineAndAStartedRunOfItRunsNoNodeOnTheCallersThread() {
        WorkflowEngine engine = engine(EngineSettings.DEFAULTS);
        Workflow parallel = workflow().start()
                .node("a", NodeType.TEMPLATE_TRANSFORM, Map.of("template", "a"))
                .node("b", NodeType.TEMPLATE_TRANSFORM, Map.of("template", "b"))
                .end("end", Map.of("a", List.of("a", "output"), "b", List.of("b", "output")))
                .edge("start", "a").edge("start", "b").edge("a", "end").edge("b", "end").build();
        PreparedWorkflow prepared = engine.prepare(parallel);

        WorkflowRun run = engine.run(prepared, RunRequest.of(parallel, "u", Map.of()), events::add);

        assertThat(prepared.mayRunInline()).isFalse();
        assertThat(run.outputs()).isEqualTo(Map.of("a", "ok", "b", "ok"));
        assertThat(nodeThreads).hasSize(2).doesNotContain(Thread.currentThread());
    }

    @Test
    void aParallelIterationAModelNodeOrSpokenAnswersMayNotRunInline() {
        WorkflowEngine engine = engine(EngineSettings.DEFAULTS);
        Workflow iteration = workflow().start()
                .node("it", NodeType.ITERATION, Map.of("iterator_selector", List.of("sys", "files"),
                        "output_selector", List.of("inner", "output"), "start_node_id", "is", "is_parallel", true))
                .child("it", "is", NodeType.ITERATION_START, Map.of())
                .child("it", "inner", NodeType.TEMPLATE_TRANSFORM, Map.of("template", "y"))
                .end("end", Map.of("out", List.of("it", "output")))
                .edge("start", "it").edge("is", "inner").edge("it", "end").build();
        Workflow sequential = iterationRunning(iteration, false);
        Workflow model = workflow().start("q")
                .node("llm", NodeType.LLM, Map.of("model", Map.of("provider", "openai", "name", "gpt-4o"),
                        "prompt_template", List.of(Map.of("role", "user", "text", "{{#start.q#}}"))))
                .end("end", Map.of("a", List.of("llm", "text"))).edge("start", "llm").edge("llm", "end").build();
        Workflow spoken = new Workflow(straight().app(), "0.5.0", straight().graph(),
                dev.hexaflow.domain.workflow.DataTree.of(Map.of("text_to_speech", Map.of("enabled", true))),
                List.of());

        assertThat(engine.prepare(iteration).mayRunInline()).isFalse();
        assertThat(engine.prepare(sequential).mayRunInline()).isTrue();
        assertThat(engine.prepare(model).mayRunInline()).isFalse();
        assertThat(engine.prepare(spoken).mayRunInline()).isFalse();
        assertThat(engine.prepare(straight()).mayRunInline()).isTrue();
    }

    /** The same workflow with its iteration's is_parallel set as given. */
    private static Workflow iterationRunning(Workflow workflow, boolean parallel) {
        List<Node> nodes = workflow.graph().nodes().stream().map(node -> {
            if (node.type() != NodeType.ITERATION) {
                return node;
            }
            Map<String, Object> data = new java.util.LinkedHashMap<>(node.data().asMap());
            data.put("is_parallel", parallel);
            return Node.of(node.id(), node.type(), data);
        }).toList();
        return new Workflow(workflow.app(), workflow.dslVersion(), new dev.hexaflow.domain.workflow.Graph(nodes,
                workflow.graph().edges()), null, List.of());
    }

    @Test
    void aStopFromAnotherThreadEndsARunPlayedHereStopped() {
        AtomicReference<RunHandle> handle = new AtomicReference<>();
        nodeAction = () -> {
            // The stop a request for the task makes, from a thread of its own, while the run goes on here.
            Thread stopper = new Thread(() -> handle.get().stop());
            stopper.start();
            try {
                stopper.join();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        };
        handle.set(ready(engine(EngineSettings.DEFAULTS.withMaxSteps(Integer.MAX_VALUE)), endless()));

        handle.get().playHere();

        WorkflowRun run = handle.get().await();
        assertThat(run.status()).isEqualTo(RunStatus.STOPPED);
        assertThat(run.error()).isEqualTo("Workflow stopped by the user.");
        assertThat(nodeThreads).containsOnly(Thread.currentThread());
        assertThat(events.get(events.size() - 1)).isInstanceOf(RunEvent.WorkflowFinished.class);
    }

    @Test
    void theRunsDeadlineFailsARunPlayedHereThatLoopsTooLong() {
        // Long enough for a node to run first on a loaded machine (at 1 ms the deadline could pass before any did).
        RunHandle handle = ready(engine(EngineSettings.DEFAULTS.withMaxSteps(Integer.MAX_VALUE)
                .withMaxTime(Duration.ofMillis(200))), endless());

        handle.playHere();

        WorkflowRun run = handle.await();
        assertThat(run.status()).isEqualTo(RunStatus.FAILED);
        assertThat(run.error()).isEqualTo("Max execution time 0s reached.");
        assertThat(nodeThreads).containsOnly(Thread.currentThread());
    }
}
