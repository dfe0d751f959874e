package dev.hexaflow.workflow;

import static dev.hexaflow.workflow.TestWorkflows.condition;
import static dev.hexaflow.workflow.TestWorkflows.ifElse;
import static dev.hexaflow.workflow.TestWorkflows.workflow;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.workflow.engine.EngineSettings;
import dev.hexaflow.workflow.engine.InvalidInputsException;
import dev.hexaflow.workflow.engine.NodeUnavailableException;
import dev.hexaflow.workflow.engine.PreparedWorkflow;
import dev.hexaflow.workflow.engine.RunHandle;
import dev.hexaflow.workflow.engine.RunRequest;
import dev.hexaflow.workflow.engine.WorkflowEngine;
import dev.hexaflow.workflow.nodes.StandardNodes;
import dev.hexaflow.domain.workflow.InvalidWorkflowException;
import dev.hexaflow.domain.workflow.NodeExecution;
import dev.hexaflow.domain.workflow.NodeStatus;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.domain.workflow.WorkflowProblem;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The engine on nodes that need no adapter: scheduling, events, strategies, limits, stop and checks. */
class WorkflowEngineTest {

    private final List<RunEvent> events = new CopyOnWriteArrayList<>();
    private WorkflowEngine engine = engine(EngineSettings.DEFAULTS);

    private static WorkflowEngine engine(EngineSettings settings) {
        return new WorkflowEngine(StandardNodes.catalogue(StandardNodes.Services.none()),
                settings, Clock.systemUTC(), () -> UUID.randomUUID().toString());
    }

    private WorkflowRun run(Workflow workflow, Map<String, Object> inputs) {
        PreparedWorkflow prepared = engine.prepare(workflow);
        return engine.run(prepared, RunRequest.of(workflow, "user-1", inputs), events::add);
    }

    private List<NodeExecution> finished() {
        return events.stream().filter(e -> e instanceof RunEvent.NodeFinished)
                .map(e -> ((RunEvent.NodeFinished) e).execution()).toList();
    }

    private List<String> text() {
        return events.stream().filter(e -> e instanceof RunEvent.TextChunk).map(e -> ((RunEvent.TextChunk) e).text())
                .toList();
    }

    @Test
    void aStraightRunEmitsDifysEventsInOrderAndAnswersTheEndOutputs() {
        Workflow workflow = workflow().start("query").end("end", Map.of("answer", List.of("start", "query")))
                .edge("start", "end").build();

        WorkflowRun run = run(workflow, Map.of("query", "hi", "ignored", 1));

        assertThat(run.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(run.outputs()).isEqualTo(Map.of("answer", "hi"));
        assertThat(run.totalSteps()).isEqualTo(2);
        // As Dify's response coordinator: the end's text streams once what it shows is ready, here as the start
        // node finishes, before the end node itself starts.
        assertThat(events).map(e -> e.getClass().getSimpleName()).containsExactly("WorkflowStarted", "NodeStarted",
                "TextChunk", "NodeFinished", "NodeStarted", "NodeFinished", "WorkflowFinished");
        RunEvent.WorkflowStarted started = (RunEvent.WorkflowStarted) events.get(0);
        assertThat(started.run().inputs()).containsEntry("query", "hi").containsEntry("sys.user_id", "user-1")
                .containsKey("sys.workflow_run_id").doesNotContainKey("ignored");
        assertThat(finished()).extracting(NodeExecution::index).containsExactly(1, 2);
        assertThat(finished().get(1).predecessorNodeId()).isEqualTo("start");
        assertThat(((RunEvent.TextChunk) events.get(2)).fromVariableSelector()).containsExactly("start", "query");
    }

    @Test
    void theUnselectedBranchIsSkippedAndBranchesJoinWhereAnyWasTaken() {
        Workflow workflow = workflow().start("query")
                .node("if", NodeType.IF_ELSE, ifElse("yes", condition(List.of("start", "query"), "contains", "x")))
                .node("a", NodeType.VARIABLE_AGGREGATOR, Map.of("variables", List.of(List.of("start", "query"))))
                .node("b", NodeType.VARIABLE_AGGREGATOR, Map.of("variables", List.of(List.of("if", "result"))))
                .node("join", NodeType.VARIABLE_AGGREGATOR, Map.of("variables",
                        List.of(List.of("a", "output"), List.of("b", "output"))))
                .end("end", Map.of("out", List.of("join", "output")))
                .edge("start", "if").edge("if", "a", "yes").edge("if", "b", "false")
                .edge("a", "join").edge("b", "join").edge("join", "end").build();

        WorkflowRun yes = run(workflow, Map.of("query", "xyz"));
        List<String> ranOnYes = finished().stream().map(NodeExecution::nodeId).toList();
        events.clear();
        WorkflowRun no = run(workflow, Map.of("query", "abc"));

        assertThat(yes.outputs()).isEqualTo(Map.of("out", "xyz"));
        assertThat(ranOnYes).containsExactly("start", "if", "a", "join", "end");
        assertThat(no.outputs()).isEqualTo(Map.of("out", false));
        assertThat(finished().stream().map(NodeExecution::nodeId).toList()).doesNotContain("a");
    }

    @Test
    void anEndBehindABranchStreamsOnceTheBranchTakesItAndAnEndNotTakenStreamsNothing() {
        Workflow workflow = workflow().start("query")
                .node("if", NodeType.IF_ELSE, ifElse("yes", condition(List.of("start", "query"), "contains", "x")))
                .end("taken", Map.of("out", List.of("start", "query")))
                .end("other", Map.of("no", List.of("start", "query")))
                .edge("start", "if").edge("if", "taken", "yes").edge("if", "other", "false").build();

        run(workflow, Map.of("query", "xyz"));

        assertThat(text()).containsExactly("xyz");
        List<String> order = events.stream().map(e -> e instanceof RunEvent.NodeFinished finished
                ? "finished " + finished.execution().nodeId() : e.getClass().getSimpleName()).toList();
        assertThat(order).containsSubsequence("finished start", "TextChunk", "finished if", "finished taken");
        assertThat(order.indexOf("TextChunk")).isGreaterThan(order.indexOf("finished start"))
                .isLessThan(order.indexOf("finished if"));
    }

    @Test
    void parallelBranchesAllRunAndEveryExecutedEndAddsToTheOutputs() {
        Workflow workflow = workflow().start("q")
                .end("end1", Map.of("one", List.of("start", "q")))
                .end("end2", Map.of("two", List.of("start", "q")))
                .edge("start", "end1").edge("start", "end2").build();

        WorkflowRun run = run(workflow, Map.of("q", "v"));

        assertThat(run.outputs()).isEqualTo(Map.of("one", "v", "two", "v"));
        assertThat(finished()).hasSize(3);
    }

    /** An if-else that fails when its input is text: ">" needs a number. */
    private static TestWorkflows failing(Map<String, Object> extra) {
        Map<String, Object> data = new java.util.LinkedHashMap<>(
                ifElse("big", condition(List.of("start", "q"), ">", "1")));
        data.putAll(extra);
        return workflow().start("q").node("check", NodeType.IF_ELSE, data);
    }

    @Test
    void aFailedNodeWithoutAStrategyFailsTheRunAndNothingAfterItRuns() {
        Workflow workflow = failing(Map.of()).end("end", Map.of("q", List.of("start", "q")))
                .edge("start", "check").edge("check", "end", "big").edge("check", "end", "false").build();

        WorkflowRun run = run(workflow, Map.of("q", "text"));

        assertThat(run.status()).isEqualTo(RunStatus.FAILED);
        assertThat(run.error()).isEqualTo("Invalid actual value type: number");
        assertThat(finished()).extracting(NodeExecution::nodeId).containsExactly("start", "check");
        assertThat(finished().get(1).status()).isEqualTo(NodeStatus.FAILED);
    }

    @Test
    void theDefaultValueStrategyGoesOnWithTheDefaultsAndThePartialSucceededStatus() {
        Workflow workflow = failing(Map.of("error_strategy", "default-value", "default_value",
                List.of(Map.of("key", "result", "type", "boolean", "value", true))))
                .end("end", Map.of("result", List.of("check", "result"), "why", List.of("check", "error_message")))
                .edge("start", "check").edge("check", "end").build();

        WorkflowRun run = run(workflow, Map.of("q", "text"));

        assertThat(run.status()).isEqualTo(RunStatus.PARTIAL_SUCCEEDED);
        assertThat(run.exceptionsCount()).isEqualTo(1);
        assertThat(run.outputs()).containsEntry("result", true)
                .containsEntry("why", "Invalid actual value type: number");
        assertThat(finished().get(1).status()).isEqualTo(NodeStatus.EXCEPTION);
    }

    @Test
    void theFailBranchStrategyTakesTheFailBranchAndSuccessTakesTheSuccessBranch() {
        Workflow workflow = failing(Map.of("error_strategy", "fail-branch"))
                .end("failed", Map.of("type", List.of("check", "error_type")))
                .end("fine", Map.of("q", List.of("start", "q")))
                .edge("start", "check").edge("check", "failed", "fail-branch").edge("check", "fine", "success-branch")
                .build();

        WorkflowRun broken = run(workflow, Map.of("q", "text"));
        WorkflowRun fine = run(workflow, Map.of());

        assertThat(broken.status()).isEqualTo(RunStatus.PARTIAL_SUCCEEDED);
        assertThat(broken.outputs()).isEqualTo(Map.of("type", "ConditionError"));
        assertThat(fine.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(fine.outputs()).containsOnlyKeys("q");
    }

    @Test
    void retriesAreMadeAndReportedBeforeTheNodeFails() {
        Workflow workflow = failing(Map.of("retry_config", Map.of("retry_enabled", true, "max_retries", 2,
                "retry_interval", 10))).edge("start", "check").build();

        WorkflowRun run = run(workflow, Map.of("q", "text"));

        assertThat(run.status()).isEqualTo(RunStatus.FAILED);
        assertThat(events.stream().filter(e -> e instanceof RunEvent.NodeRetried).count()).isEqualTo(2);
    }

    @Test
    void anUnknownErrorStrategyOrARetryCountThatIsNoNumberIsRefusedWhenTheWorkflowIsPrepared() {
        Workflow typo = failing(Map.of("error_strategy", "fail-brnch", "retry_config", Map.of("max_retries", "x")))
                .edge("start", "check").build();

        assertThatThrownBy(() -> engine.prepare(typo)).isInstanceOf(InvalidWorkflowException.class)
                .satisfies(e -> assertThat(((InvalidWorkflowException) e).problems())
                        .extracting(WorkflowProblem::toString).containsExactlyInAnyOrder(
                                "node check (check): retry_config.max_retries must be a number, was 'x'",
                                "node check (check): error_strategy 'fail-brnch' is not an error strategy "
                                        + "(fail-branch, default-value or none)"));
    }

    @Test
    void aStartFieldOfAnUnknownKindIsRefusedWhenTheWorkflowIsPrepared() {
        Workflow typo = workflow().startWith(List.of(Map.of("variable", "q", "type", "nmber"))).build();

        assertThatThrownBy(() -> engine.prepare(typo)).isInstanceOf(InvalidWorkflowException.class)
                .hasMessageContaining("node start (Start): variables.q.type 'nmber' is not an input type");
    }

    @Test
    void noneAsErrorStrategyFailsTheRunAsAnAbsentOneDoes() {
        Workflow workflow = failing(Map.of("error_strategy", "none")).end("end", Map.of("q", List.of("start", "q")))
                .edge("start", "check").edge("check", "end", "big").edge("check", "end", "false").build();

        WorkflowRun run = run(workflow, Map.of("q", "text"));

        assertThat(run.status()).isEqualTo(RunStatus.FAILED);
        assertThat(finished().get(1).status()).isEqualTo(NodeStatus.FAILED);
    }

    @Test
    void retriesAreNotMadeWhenTheRetryConfigIsNotEnabled() {
        Workflow workflow = failing(Map.of("retry_config", Map.of("enabled", false, "max_retries", 2,
                "retry_interval", 10))).edge("start", "check").build();

        WorkflowRun run = run(workflow, Map.of("q", "text"));

        assertThat(run.status()).isEqualTo(RunStatus.FAILED);
        assertThat(events).noneMatch(e -> e instanceof RunEvent.NodeRetried);
    }

    /** A loop that counts up for ever (until a limit or a stop ends it). */
    private static Workflow endlessLoop() {
        return workflow().start()
                .node("loop", NodeType.LOOP, Map.of("loop_count", 100_000_000, "start_node_id", "loopstart",
                        "loop_variables", List.of(Map.of("label", "n", "var_type", "number", "value_type",
                                "constant", "value", "0"))))
                .child("loop", "loopstart", NodeType.LOOP_START, Map.of())
                .child("loop", "add", NodeType.ASSIGNER, Map.of("version", "2", "items", List.of(Map.of(
                        "variable_selector", List.of("loop", "n"), "input_type", "constant", "operation", "+=",
                        "value", 1))))
                .end("end", Map.of("n", List.of("loop", "n")))
                .edge("start", "loop").edge("loopstart", "add").edge("loop", "end").build();
    }

    @Test
    void theStepLimitFailsTheRun() {
        engine = engine(EngineSettings.DEFAULTS.withMaxSteps(50));

        WorkflowRun run = run(endlessLoop(), Map.of());

        assertThat(run.status()).isEqualTo(RunStatus.FAILED);
        assertThat(run.error()).isEqualTo("Max steps 50 reached.");
    }

    @Test
    void theTimeLimitFailsTheRun() {
        engine = engine(EngineSettings.DEFAULTS.withMaxSteps(Integer.MAX_VALUE).withMaxTime(Duration.ofMillis(300)));

        WorkflowRun run = run(endlessLoop(), Map.of());

        assertThat(run.status()).isEqualTo(RunStatus.FAILED);
        assertThat(run.error()).startsWith("Max execution time");
    }

    @Test
    void aRunWhoseEndCannotBeKeptIsNotAnsweredAsEndedButWithTheCause() {
        Workflow workflow = workflow().start("query").end("end", Map.of("answer", List.of("start", "query")))
                .edge("start", "end").build();
        IllegalStateException notKept = new IllegalStateException("No space left on device");

        RunHandle handle = engine.start(engine.prepare(workflow), RunRequest.of(workflow, "u", Map.of("query", "hi")),
                event -> {
                    if (event instanceof RunEvent.WorkflowFinished) {
                        throw notKept;
                    }
                });

        assertThatThrownBy(handle::await).hasCause(notKept);
        assertThat(handle.finished()).isCompletedExceptionally();
    }

    @Test
    void aStopEndsTheRunWithinASecondAndTheRunningNodesEndStopped() throws Exception {
        engine = engine(EngineSettings.DEFAULTS.withMaxSteps(Integer.MAX_VALUE));
        Workflow workflow = endlessLoop();
        RunHandle handle = engine.start(engine.prepare(workflow), RunRequest.of(workflow, "u", Map.of()), events::add);
        Thread.sleep(200);

        long asked = System.nanoTime();
        handle.stop();
        WorkflowRun run = handle.await(Duration.ofSeconds(1));

        assertThat((System.nanoTime() - asked) / 1e9).isLessThan(1.0);
        assertThat(run.status()).isEqualTo(RunStatus.STOPPED);
        RunEvent.ContainerCompleted loop = events.stream().filter(e -> e instanceof RunEvent.ContainerCompleted)
                .map(e -> (RunEvent.ContainerCompleted) e).findFirst().orElseThrow();
        assertThat(loop.status()).isEqualTo(NodeStatus.STOPPED);
        assertThat(events.get(events.size() - 1)).isInstanceOf(RunEvent.WorkflowFinished.class);
    }

    @Test
    void inputsAreCheckedAgainstTheStartFormWithDifysMessages() {
        Workflow workflow = workflow().startWith(List.of(
                Map.of("variable", "name", "type", "text-input", "required", true, "max_length", 5),
                Map.of("variable", "tone", "type", "select", "required", false, "options", List.of("calm", "loud")),
                Map.of("variable", "count", "type", "number", "required", false),
                Map.of("variable", "ok", "type", "checkbox", "required", false)))
                .end("end", Map.of("count", List.of("start", "count"), "ok", List.of("start", "ok")))
                .edge("start", "end").build();
        PreparedWorkflow prepared = engine.prepare(workflow);

        assertThatThrownBy(() -> engine.start(prepared, RunRequest.of(workflow, "u", Map.of()), events::add))
                .isInstanceOf(InvalidInputsException.class).hasMessage("name is required in input form");
        assertThatThrownBy(() -> engine.start(prepared, RunRequest.of(workflow, "u", Map.of("name", 5)), events::add))
                .hasMessage("(type 'text-input') name in input form must be a string");
        assertThatThrownBy(() -> engine.start(prepared, RunRequest.of(workflow, "u", Map.of("name", "toolong")),
                events::add)).hasMessage("name in input form must be less than 5 characters");
        assertThatThrownBy(() -> engine.start(prepared, RunRequest.of(workflow, "u",
                Map.of("name", "a", "tone", "angry")), events::add))
                .hasMessage("tone in input form must be one of the following: ['calm', 'loud']");
        assertThatThrownBy(() -> engine.start(prepared, RunRequest.of(workflow, "u",
                Map.of("name", "a", "count", "many")), events::add))
                .hasMessage("count in input form must be a valid number");
        assertThat(events).isEmpty();

        WorkflowRun run = engine.run(prepared, RunRequest.of(workflow, "u", Map.of("name", "a", "count", "2.5",
                "ok", "yes")), events::add);

        assertThat(run.outputs()).isEqualTo(Map.of("count", 2.5, "ok", true));
    }

    @Test
    void anOptionalSelectLeftEmptyKeepsItsEmptyDefaultAsDifyExportsIt() {
        // Dify's exports write `default: ''` on every select; leaving an optional one empty is no choice.
        Workflow workflow = workflow().startWith(List.of(
                Map.of("variable", "style", "type", "select", "required", false, "default", "",
                        "options", List.of("haiku", "limerick")),
                Map.of("variable", "mood", "type", "select", "required", true, "default", "",
                        "options", List.of("calm", "loud"))))
                .end("end", Map.of("style", List.of("start", "style"))).edge("start", "end").build();
        PreparedWorkflow prepared = engine.prepare(workflow);

        assertThat(engine.run(prepared, RunRequest.of(workflow, "u", Map.of("mood", "calm")), events::add)
                .outputs()).isEqualTo(Map.of("style", ""));
        assertThat(engine.run(prepared, RunRequest.of(workflow, "u", Map.of("mood", "calm", "style", "")),
                events::add).outputs()).isEqualTo(Map.of("style", ""));
        assertThatThrownBy(() -> engine.start(prepared, RunRequest.of(workflow, "u", Map.of("mood", "calm",
                "style", "sonnet")), events::add))
                .hasMessage("style in input form must be one of the following: ['haiku', 'limerick']");
        assertThatThrownBy(() -> engine.start(prepared, RunRequest.of(workflow, "u", Map.of("mood", "")),
                events::add)).hasMessage("mood in input form must be one of the following: ['calm', 'loud']");
    }

    @Test
    void aWorkflowWithProblemsIsRefusedWithAllOfThemAtOnce() {
        Workflow workflow = workflow().start("q")
                .node("kr", NodeType.KNOWLEDGE_RETRIEVAL, Map.of())
                .node("bad", NodeType.IF_ELSE, ifElse("c", condition(List.of("start", "q"), "like", "x")))
                .end("end", Map.of("a", List.of("start", "nope"), "b", List.of("ghost", "x"), "c",
                        List.of("env", "MISSING")))
                .edge("start", "end").build();

        assertThatThrownBy(() -> engine.prepare(workflow)).isInstanceOfSatisfying(InvalidWorkflowException.class,
                e -> assertThat(e.problems()).extracting(WorkflowProblem::toString).containsExactlyInAnyOrder(
                        "node kr (kr): node type 'knowledge-retrieval' is not one Hexaflow runs; remove the node or "
                                + "replace it with one of the types docs/command-line.md lists",
                        "node bad (bad): comparison_operator 'like' is not one of Dify's operators",
                        "node end (end): refers to [start, nope], but Start (start) has no output nope (it has q)",
                        "node end (end): refers to [ghost, x], but there is no node ghost",
                        "node end (end): refers to [env, MISSING], no environment variable"));
    }

    @Test
    void aModelNodeWithoutAConfiguredProviderIsRefusedBeforeTheRunStarts() {
        Workflow workflow = workflow().start("q")
                .node("llm", NodeType.LLM, Map.of("model", Map.of("provider", "openai", "name", "gpt-4o"),
                        "prompt_template", List.of(Map.of("role", "user", "text", "{{#start.q#}}"))))
                .end("end", Map.of("a", List.of("llm", "text"))).edge("start", "llm").edge("llm", "end").build();
        PreparedWorkflow prepared = engine.prepare(workflow);

        assertThatThrownBy(() -> engine.start(prepared, RunRequest.of(workflow, "u", Map.of()), events::add))
                .isInstanceOfSatisfying(NodeUnavailableException.class,
                        e -> assertThat(e.code()).isEqualTo("provider_not_initialize"));
        assertThat(events).isEmpty();
    }

    /** An iteration over items whose child fails on text items (">" needs numbers). */
    private static Workflow iteration(String mode, boolean parallel) {
        return workflow().start()
                .node("items", NodeType.LOOP, Map.of("loop_count", 0, "start_node_id", "itemsstart", "loop_variables",
                        List.of(Map.of("label", "list", "var_type", "array[any]", "value_type", "constant",
                                "value", "[1, \"x\", 3]"))))
                .child("items", "itemsstart", NodeType.LOOP_START, Map.of())
                .node("it", NodeType.ITERATION, Map.of("iterator_selector", List.of("items", "list"),
                        "output_selector", List.of("keep", "output"), "start_node_id", "itstart",
                        "error_handle_mode", mode, "is_parallel", parallel, "parallel_nums", 2))
                .child("it", "itstart", NodeType.ITERATION_START, Map.of())
                .child("it", "check", NodeType.IF_ELSE, ifElse("c", condition(List.of("it", "item"), ">", "0")))
                .child("it", "keep", NodeType.VARIABLE_AGGREGATOR, Map.of("variables", List.of(List.of("it", "item"))))
                .end("end", Map.of("out", List.of("it", "output")))
                .edge("start", "items").edge("itemsstart", "itemsstart2").edge("items", "it")
                .edge("itstart", "check").edge("check", "keep", "c").edge("check", "keep", "false").edge("it", "end")
                .build();
    }

    @Test
    void iterationErrorModesTerminateKeepNullOrDropTheFailedRound() {
        List<Object> kept = new ArrayList<>();
        kept.add(1L);
        kept.add(null);
        kept.add(3L);
        for (boolean parallel : new boolean[] {false, true}) {
            WorkflowRun terminated = run(iterationWithoutStrayEdge("terminated", parallel), Map.of());
            WorkflowRun continued = run(iterationWithoutStrayEdge("continue-on-error", parallel), Map.of());
            WorkflowRun removed = run(iterationWithoutStrayEdge("remove-abnormal-output", parallel), Map.of());

            assertThat(terminated.status()).isEqualTo(RunStatus.FAILED);
            assertThat(terminated.error()).isEqualTo("Invalid actual value type: number");
            assertThat(continued.outputs()).isEqualTo(Map.of("out", kept));
            assertThat(removed.outputs()).isEqualTo(Map.of("out", List.of(1L, 3L)));
        }
        assertThat(events.stream().filter(e -> e instanceof RunEvent.ContainerNext).count()).isGreaterThan(0);
    }

    private static Workflow iterationWithoutStrayEdge(String mode, boolean parallel) {
        Workflow built = iteration(mode, parallel);
        return new Workflow(built.app(), built.dslVersion(), new dev.hexaflow.domain.workflow.Graph(
                built.graph().nodes(), built.graph().edges().stream()
                .filter(e -> !e.target().equals("itemsstart2")).toList()), null, List.of());
    }

    @Test
    void aLoopEndsWhenItsBreakConditionHoldsOrItReachesLoopEnd() {
        Workflow byCondition = workflow().start()
                .node("loop", NodeType.LOOP, Map.of("loop_count", 10, "start_node_id", "ls",
                        "loop_variables", List.of(Map.of("label", "n", "var_type", "number", "value_type", "constant",
                                "value", "1")),
                        "break_conditions", List.of(condition(List.of("loop", "n"), "≥", "5")),
                        "logical_operator", "and"))
                .child("loop", "ls", NodeType.LOOP_START, Map.of())
                .child("loop", "add", NodeType.ASSIGNER, Map.of("version", "2", "items", List.of(Map.of(
                        "variable_selector", List.of("loop", "n"), "input_type", "constant", "operation", "+=",
                        "value", 1))))
                .end("end", Map.of("n", List.of("loop", "n")))
                .edge("start", "loop").edge("ls", "add").edge("loop", "end").build();
        Workflow byLoopEnd = workflow().start()
                .node("loop", NodeType.LOOP, Map.of("loop_count", 10, "start_node_id", "ls",
                        "loop_variables", List.of(Map.of("label", "n", "var_type", "number", "value_type", "constant",
                                "value", "1"))))
                .child("loop", "ls", NodeType.LOOP_START, Map.of())
                .child("loop", "add", NodeType.ASSIGNER, Map.of("version", "2", "items", List.of(Map.of(
                        "variable_selector", List.of("loop", "n"), "input_type", "constant", "operation", "*=",
                        "value", 2))))
                .child("loop", "check", NodeType.IF_ELSE, ifElse("big", condition(List.of("loop", "n"), ">", "10")))
                .child("loop", "stop", NodeType.LOOP_END, Map.of())
                .end("end", Map.of("n", List.of("loop", "n")))
                .edge("start", "loop").edge("ls", "add").edge("add", "check").edge("check", "stop", "big")
                .edge("loop", "end").build();

        assertThat(run(byCondition, Map.of()).outputs()).isEqualTo(Map.of("n", 5L));
        assertThat(run(byLoopEnd, Map.of()).outputs()).isEqualTo(Map.of("n", 16L));
    }
}
