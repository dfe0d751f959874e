package dev.hexaflow.workflow;

import static dev.hexaflow.workflow.TestWorkflows.workflow;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.workflow.engine.EngineSettings;
import dev.hexaflow.workflow.engine.PreparedWorkflow;
import dev.hexaflow.workflow.engine.RunRequest;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.engine.WorkflowEngine;
import dev.hexaflow.workflow.nodes.StandardNodes;
import dev.hexaflow.workflow.port.out.ToolRunner;
import dev.hexaflow.domain.tool.ToolDescription;
import dev.hexaflow.domain.tool.ToolMessage;
import dev.hexaflow.domain.tool.ToolRef;
import dev.hexaflow.domain.workflow.InvalidWorkflowException;
import dev.hexaflow.domain.workflow.NodeExecution;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The tool node through the engine, on a hand-written runner of one tool, {@code echo/say}. */
class ToolNodeTest {

    private final List<RunEvent> events = new CopyOnWriteArrayList<>();
    private final List<Map<String, Object>> calls = new CopyOnWriteArrayList<>();

    /** Answers what the arguments ask for: texts, a link, JSON, a variable; fails when told to. */
    private final ToolRunner echo = new ToolRunner() {
        @Override
        public Optional<ToolDescription> describe(ToolRef tool) {
            return tool.provider().equals("echo") && tool.tool().equals("say")
                    ? Optional.of(new ToolDescription(tool, "says it", null)) : Optional.empty();
        }

        @Override
        public List<ToolMessage> run(ToolRef tool, Map<String, Object> arguments, StopSignal stop) {
            calls.add(arguments);
            if (arguments.containsKey("fail")) {
                throw new ToolException("the echo is broken");
            }
            if (arguments.containsKey("json")) {
                return List.of(new ToolMessage.Json(Map.of("n", 1)), new ToolMessage.Variable("result", 42));
            }
            return List.of(new ToolMessage.Text("Hello, "), new ToolMessage.Text(String.valueOf(arguments.get("who"))),
                    new ToolMessage.Link("http://example.com"));
        }
    };

    private final WorkflowEngine engine = new WorkflowEngine(StandardNodes.catalogue(
            StandardNodes.Services.none().withTools(List.of(echo))), EngineSettings.DEFAULTS, Clock.systemUTC(),
            () -> UUID.randomUUID().toString());

    private static Map<String, Object> tool(String provider, String name, Map<String, Object> parameters) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("provider_type", "builtin");
        data.put("provider_id", provider);
        data.put("provider_name", provider);
        data.put("tool_name", name);
        data.put("tool_parameters", parameters);
        data.put("tool_configurations", Map.of());
        return data;
    }

    private WorkflowRun run(Workflow workflow, Map<String, Object> inputs) {
        PreparedWorkflow prepared = engine.prepare(workflow);
        return engine.run(prepared, RunRequest.of(workflow, "user-1", inputs), events::add);
    }

    private NodeExecution toolExecution() {
        return events.stream().filter(e -> e instanceof RunEvent.NodeFinished)
                .map(e -> ((RunEvent.NodeFinished) e).execution()).filter(e -> e.nodeId().equals("tool"))
                .findFirst().orElseThrow();
    }

    @Test
    void aToolsTextsAndLinksBecomeItsTextStreamedToTheEndOutputThatShowsIt() {
        Workflow workflow = workflow().start("name")
                .node("tool", NodeType.TOOL, tool("echo", "say", Map.of(
                        "who", Map.of("type", "variable", "value", List.of("start", "name")),
                        "greeting", Map.of("type", "mixed", "value", "dear {{#start.name#}}"),
                        "times", Map.of("type", "constant", "value", 2))))
                .end("end", Map.of("said", List.of("tool", "text")))
                .edge("start", "tool").edge("tool", "end").build();

        WorkflowRun run = run(workflow, Map.of("name", "Ada"));

        assertThat(run.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(run.outputs()).isEqualTo(Map.of("said", "Hello, Ada" + "Link: http://example.com\n"));
        assertThat(calls).containsExactly(Map.of("who", "Ada", "greeting", "dear Ada", "times", 2));
        assertThat(events).filteredOn(e -> e instanceof RunEvent.TextChunk)
                .map(e -> ((RunEvent.TextChunk) e).text())
                .containsExactly("Hello, ", "Ada", "Link: http://example.com\n");
        assertThat(events).filteredOn(e -> e instanceof RunEvent.TextChunk)
                .allMatch(e -> ((RunEvent.TextChunk) e).fromVariableSelector().equals(List.of("tool", "text")));
        assertThat(toolExecution().outputs()).containsEntry("files", List.of())
                .containsEntry("json", List.of(Map.of("data", List.of())));
    }

    @Test
    void jsonMessagesListInJsonAndAVariableIsAnOutputOfItsOwn() {
        Workflow workflow = workflow().start()
                .node("tool", NodeType.TOOL, tool("echo", "say", Map.of("json", "yes")))
                .end("end", Map.of("result", List.of("tool", "result"), "json", List.of("tool", "json")))
                .edge("start", "tool").edge("tool", "end").build();

        WorkflowRun run = run(workflow, Map.of());

        assertThat(run.outputs()).isEqualTo(Map.of("result", 42L, "json", List.of(Map.of("n", 1L))));
        assertThat(toolExecution().outputs()).containsEntry("text", "");
    }

    @Test
    void aFailingToolFailsTheNodeWithDifysMessageAndTheErrorStrategyApplies() {
        Map<String, Object> data = tool("echo", "say", Map.of("fail", "yes"));
        Workflow failing = workflow().start().node("tool", NodeType.TOOL, data)
                .end("end", Map.of("t", List.of("tool", "text"))).edge("start", "tool").edge("tool", "end").build();
        data.put("error_strategy", "default-value");
        data.put("default_value", List.of(Map.of("key", "text", "type", "string", "value", "fallback")));
        Workflow tolerant = workflow().start().node("tool", NodeType.TOOL, data)
                .end("end", Map.of("t", List.of("tool", "text"))).edge("start", "tool").edge("tool", "end").build();

        WorkflowRun failed = run(failing, Map.of());
        WorkflowRun recovered = run(tolerant, Map.of());

        assertThat(failed.status()).isEqualTo(RunStatus.FAILED);
        assertThat(failed.error()).isEqualTo("Failed to invoke tool echo: the echo is broken");
        assertThat(recovered.status()).isEqualTo(RunStatus.PARTIAL_SUCCEEDED);
        assertThat(recovered.outputs()).isEqualTo(Map.of("t", "fallback"));
    }

    @Test
    void aToolNoRunnerRunsIsKeptWithAWarningAndFailsTheRunThatReachesIt() {
        Workflow workflow = workflow().start()
                .node("tool", NodeType.TOOL, tool("junjiem/db_query/db_query", "db_query", Map.of("sql", "select 1")))
                .end("end", Map.of("t", List.of("tool", "text"))).edge("start", "tool").edge("tool", "end").build();

        PreparedWorkflow prepared = engine.prepare(workflow);
        WorkflowRun run = run(workflow, Map.of());

        assertThat(prepared.warnings()).singleElement().asString()
                .contains("junjiem/db_query/db_query/db_query").contains("hexaflow tools bind")
                .contains("PUT /admin/tools/bindings");
        assertThat(run.status()).isEqualTo(RunStatus.FAILED);
        assertThat(run.error()).startsWith("Failed to get tool runtime: the tool junjiem/db_query/db_query/db_query")
                .contains("hexaflow tools bind");
    }

    @Test
    void aToolNodeWithAnUnknownProviderTypeOrInputTypeIsRefusedAtImport() {
        Map<String, Object> badType = tool("echo", "say", Map.of());
        badType.put("provider_type", "magic");
        Map<String, Object> badInput = tool("echo", "say", Map.of("who", Map.of("type", "guess", "value", "x")));

        assertThatThrownBy(() -> engine.prepare(workflow().start().node("tool", NodeType.TOOL, badType).build()))
                .isInstanceOf(InvalidWorkflowException.class).hasMessageContaining("provider_type 'magic'");
        assertThatThrownBy(() -> engine.prepare(workflow().start().node("tool", NodeType.TOOL, badInput).build()))
                .isInstanceOf(InvalidWorkflowException.class).hasMessageContaining("tool_parameters.who.type");
    }
}
