package dev.hexaflow.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer.Script;
import dev.hexaflow.adapters.nodes.tool.mcp.LoopbackMcpServer;
import dev.hexaflow.domain.workflow.InvalidWorkflowException;
import dev.hexaflow.domain.workflow.NodeExecution;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.domain.workflow.WorkflowRun;
import dev.hexaflow.workflow.engine.RunRequest;
import dev.hexaflow.workflow.engine.WorkflowEngine;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The MCP strategies of the agent plugins apps share ({@code hjlarry/agent}, {@code junjiem/mcp_see_agent}) through
 * the standard engine: real MCP servers on loopback (HTTP+SSE and Streamable HTTP, the SDK's server side), a real
 * model server scripting the calls, the outbound policy allowing loopback (or not).
 */
class AgentMcpStrategyTest {

    static final FakeModelServer MODEL = new FakeModelServer();
    static final LoopbackMcpServer SSE = start(true);
    static final LoopbackMcpServer STREAMABLE = start(false);
    static final LoopbackMcpServer OPEN = open();
    static final WorkflowEngine ENGINE = Engines.standard(EngineConfiguration.fromEnvironment(Map.of(
            "HEXAFLOW_LLM_MODELS", "*=local-model", "HEXAFLOW_OUTBOUND_ALLOW", "127.0.0.1"))
            .withLlm(MODEL.baseUrl(), "sk-t"));
    /** An engine whose tools may take a second at most. */
    static final WorkflowEngine HASTY = Engines.standard(EngineConfiguration.fromEnvironment(Map.of(
            "HEXAFLOW_LLM_MODELS", "*=local-model", "HEXAFLOW_OUTBOUND_ALLOW", "127.0.0.1",
            "HEXAFLOW_TOOL_TIMEOUT_SECONDS", "1")).withLlm(MODEL.baseUrl(), "sk-t"));
    /** The default policy: loopback is refused. */
    static final WorkflowEngine HELD = Engines.standard(EngineConfiguration.fromEnvironment(Map.of(
            "HEXAFLOW_LLM_MODELS", "*=local-model")).withLlm(MODEL.baseUrl(), "sk-t"));

    private final List<RunEvent> events = new CopyOnWriteArrayList<>();

    private static LoopbackMcpServer start(boolean sse) {
        try {
            return sse ? LoopbackMcpServer.sse("k") : new LoopbackMcpServer("k");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** An SSE server that asks for no key. */
    private static LoopbackMcpServer open() {
        try {
            return LoopbackMcpServer.sse(null);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @AfterAll
    static void stop() throws Exception {
        MODEL.close();
        SSE.close();
        STREAMABLE.close();
        OPEN.close();
    }

    @BeforeEach
    void forget() {
        MODEL.requests().clear();
    }

    /** start (query, url) → an agent of {@code provider}/{@code strategy} with {@code parameter} → end. */
    static Workflow agent(String provider, String strategy, String parameter, String config) {
        return Dsl.workflow("""
                - {id: start, data: {type: start, title: Start, variables: [{variable: query, type: text-input},
                   {variable: url, type: text-input, required: false}]}}
                - id: agent
                  data:
                    type: agent
                    title: Agent
                    agent_strategy_provider_name: %s
                    agent_strategy_name: %s
                    agent_parameters:
                      model:
                        type: constant
                        value: {provider: langgenius/openai/openai, model: gpt-4o, mode: chat,
                                completion_params: {}, model_type: llm, type: model-selector}
                      tools:
                        type: constant
                        value:
                          - {enabled: true, provider_name: time, tool_name: weekday, type: builtin,
                             parameters: {}, settings: {}}
                      %s: {type: mixed, value: '%s'}
                      instruction: {type: constant, value: You use tools.}
                      query: {type: mixed, value: '{{#start.query#}}'}
                      maximum_iterations: {type: constant, value: 3}
                - {id: end, data: {type: end, title: End, outputs: [{variable: answer, value_selector: [agent, text]}]}}
                """.formatted(provider, strategy, parameter, config), """
                - {source: start, target: agent}
                - {source: agent, target: end}
                """);
    }

    static String servers(String name, String url, String transport) {
        return "{\"" + name + "\": {\"url\": \"" + url + "\", \"transport\": \"" + transport
                + "\", \"headers\": {\"X-Api-Key\": \"k\"}, \"timeout\": 5, \"sse_read_timeout\": 5}}";
    }

    private WorkflowRun run(WorkflowEngine engine, Workflow workflow, String url) {
        return engine.run(engine.prepare(workflow), RunRequest.of(workflow, "u",
                Map.of("query", "Say hi through the tool", "url", url)), events::add);
    }

    private NodeExecution agentExecution() {
        return events.stream().filter(e -> e instanceof RunEvent.NodeFinished).map(e ->
                ((RunEvent.NodeFinished) e).execution()).filter(e -> e.nodeType() == NodeType.AGENT).findFirst()
                .orElseThrow();
    }

    private static List<String> offered(JsonNode request) {
        List<String> names = new ArrayList<>();
        request.path("tools").forEach(tool -> names.add(tool.get("function").get("name").asText()));
        return names;
    }

    @Test
    void hjlarrysStrategyOffersTheToolsOfItsSseServersNextToTheNodesAndRunsTheCallThere() {
        MODEL.answerInTurn(Script.toolCall("echo", "{\"text\": \"hi\"}"), Script.text("The tool said hi.", 3, 4));

        WorkflowRun run = run(ENGINE, agent("hjlarry/agent/mcp_agent", "function_calling", "mcp_server",
                servers("loop", SSE.url().toString(), "sse")), "");

        assertThat(run.status()).as(run.error()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(run.outputs()).containsEntry("answer", "The tool said hi.");
        assertThat(offered(MODEL.requests().get(0))).contains("weekday", "echo", "add");
        JsonNode told = MODEL.requests().get(1).get("messages");
        assertThat(told.get(told.size() - 1).get("content").asText()).isEqualTo("echo: hi");
        assertThat(agentExecution().metadata().agentLog().stream().map(entry -> entry.get("label")))
                .contains("CALL echo");
    }

    @Test
    void hjlarrysStrategyTakesOneServersUrlAlone() {
        MODEL.answerInTurn(Script.toolCall("echo", "{\"text\": \"alone\"}"), Script.text("Done.", 3, 4));

        WorkflowRun run = run(ENGINE, agent("hjlarry/agent/mcp_agent", "mcp_agent", "mcp_server",
                OPEN.url().toString()), "");

        assertThat(run.status()).as(run.error()).isEqualTo(RunStatus.SUCCEEDED);
        JsonNode told = MODEL.requests().get(1).get("messages");
        assertThat(told.get(told.size() - 1).get("content").asText()).isEqualTo("echo: alone");
    }

    @Test
    void aCallLongerThanTheServersTimeoutIsToldToTheModelAsAnError() {
        MODEL.answerInTurn(Script.toolCall("slow", "{\"seconds\": 5}"), Script.text("It was slow.", 3, 4));
        String config = "{\"calc\": {\"url\": \"" + STREAMABLE.url() + "\", \"transport\": \"streamable_http\", "
                + "\"headers\": {\"X-Api-Key\": \"k\"}, \"timeout\": 1}}";
        long started = System.nanoTime();

        WorkflowRun run = run(ENGINE, agent("junjiem/mcp_see_agent/mcp_see_agent", "mcp_sse_function_calling",
                "mcp_servers_config", config), "");

        assertThat(run.status()).as(run.error()).isEqualTo(RunStatus.SUCCEEDED);
        JsonNode told = MODEL.requests().get(1).get("messages");
        assertThat(told.get(told.size() - 1).get("content").asText()).startsWith("tool invoke error: ")
                .contains("did not answer the call of tool slow within 1 s");
        assertThat((System.nanoTime() - started) / 1e9).isLessThan(4);
    }

    @Test
    void theEnginesToolTimeoutBoundsTheTimeoutAServerAsksFor() {
        MODEL.answerInTurn(Script.toolCall("slow", "{\"seconds\": 5}"), Script.text("It was slow.", 3, 4));
        String config = "{\"calc\": {\"url\": \"" + STREAMABLE.url() + "\", \"transport\": \"streamable_http\", "
                + "\"headers\": {\"X-Api-Key\": \"k\"}, \"timeout\": 600}}";

        WorkflowRun run = run(HASTY, agent("junjiem/mcp_see_agent/mcp_see_agent", "mcp_sse_function_calling",
                "mcp_servers_config", config), "");

        assertThat(run.status()).as(run.error()).isEqualTo(RunStatus.SUCCEEDED);
        JsonNode told = MODEL.requests().get(1).get("messages");
        assertThat(told.get(told.size() - 1).get("content").asText())
                .contains("did not answer the call of tool slow within 1 s");
    }

    @Test
    void junjiemsFunctionCallingRunsOverStreamableHttpWithTheConfigsReferencesRenderedAtRunTime() {
        MODEL.answerInTurn(Script.toolCall("add", "{\"a\": 2, \"b\": 3}"), Script.text("It is 5.", 3, 4));
        Workflow workflow = agent("junjiem/mcp_see_agent/mcp_see_agent", "mcp_sse_function_calling",
                "mcp_servers_config", "{\"mcpServers\": " + servers("calc", "{{#start.url#}}", "streamable_http")
                        + "}");

        WorkflowRun run = run(ENGINE, workflow, STREAMABLE.url().toString());

        assertThat(run.status()).as(run.error()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(run.outputs()).containsEntry("answer", "It is 5.");
        JsonNode told = MODEL.requests().get(1).get("messages");
        assertThat(told.get(told.size() - 1).get("content").asText()).contains("{\"sum\":5.0}");
    }

    @Test
    void junjiemsReactDescribesTheServersToolsAndRunsTheActionThere() {
        MODEL.answerInTurn(Script.text("Thought: use echo. Action: ```json {\"action\": \"echo\", \"action_input\": "
                + "{\"text\": \"hello\"}} ```", 5, 5), Script.text("Thought: done. Action: ```{\"action\": "
                + "\"Final Answer\", \"action_input\": \"It echoed hello.\"}```", 5, 5));

        WorkflowRun run = run(ENGINE, agent("junjiem/mcp_see_agent/mcp_see_agent", "mcp_sse_ReAct",
                "mcp_servers_config", servers("loop", SSE.url().toString(), "sse")), "");

        assertThat(run.status()).as(run.error()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(run.outputs()).containsEntry("answer", "It echoed hello.");
        assertThat(MODEL.requests().get(0).get("messages").get(0).get("content").asText()).contains("- echo: ");
        assertThat(MODEL.requests().get(1).get("messages").toString()).contains("Observation: echo: hello");
    }

    @Test
    void aServerOutsideTheOutboundPolicyFailsTheRunNamingIt() {
        int handshakes = STREAMABLE.handshakes();

        WorkflowRun run = run(HELD, agent("junjiem/mcp_see_agent/mcp_see_agent", "mcp_sse_function_calling",
                "mcp_servers_config", servers("inside", STREAMABLE.url().toString(), "streamable_http")), "");

        assertThat(run.status()).isEqualTo(RunStatus.FAILED);
        assertThat(run.error()).startsWith("Failed to get the tools of MCP server inside: ")
                .contains("outside the outbound policy").contains("HEXAFLOW_OUTBOUND_ALLOW");
        assertThat(STREAMABLE.handshakes()).isEqualTo(handshakes);
        assertThat(MODEL.requests()).isEmpty();
    }

    @Test
    void aConfigThatIsNotJsonOrNamesNoUrlIsRefusedAtImportNamingTheField() {
        for (String config : List.of("{not json", "{\"files\": {\"command\": \"npx\"}}",
                "{\"a\": {\"url\": \"ftp://host/x\"}}", "{\"a\": {\"url\": \"http://h/sse\", \"transport\": \"ws\"}}")) {
            Workflow workflow = agent("junjiem/mcp_see_agent/mcp_see_agent", "mcp_sse_function_calling",
                    "mcp_servers_config", config);

            assertThatThrownBy(() -> ENGINE.prepare(workflow)).as(config)
                    .isInstanceOf(InvalidWorkflowException.class)
                    .hasMessageContaining("agent_parameters.mcp_servers_config.value");
        }
    }

    @Test
    void aConfigOfMoreServersThanTheLimitIsRefusedAtImport() {
        String eleven = "{" + String.join(", ", IntStream.rangeClosed(1, 11).mapToObj(i -> "\"s" + i
                + "\": {\"url\": \"http://127.0.0.1:1/sse\"}").toList()) + "}";
        Workflow workflow = agent("hjlarry/agent/mcp_agent", "function_calling", "mcp_server", eleven);

        assertThatThrownBy(() -> ENGINE.prepare(workflow)).isInstanceOf(InvalidWorkflowException.class)
                .hasMessageContaining("agent_parameters.mcp_server.value").hasMessageContaining("at most 10");
    }

    @Test
    void aConfigWhoseReferenceRendersToNoUrlFailsTheRunNamingTheField() {
        Workflow workflow = agent("junjiem/mcp_see_agent/mcp_see_agent", "mcp_sse_function_calling",
                "mcp_servers_config", servers("calc", "{{#start.url#}}", "sse"));

        WorkflowRun run = run(ENGINE, workflow, "");

        assertThat(run.status()).isEqualTo(RunStatus.FAILED);
        assertThat(run.error()).startsWith("Failed to read the MCP servers config: ").contains("calc")
                .contains("names no url");
    }

    @Test
    void aStrategyOfAnotherPluginIsNamedAtImportAndRefusedNeverRunAsFunctionCalling() {
        for (String[] strategy : List.of(new String[] {"afeaad50-0000/agent/agent", "TOD"},
                new String[] {"someone/agent/agent", "function_calling"})) {
            Workflow workflow = agent(strategy[0], strategy[1], "task_schema", "{}");

            List<String> warnings = ENGINE.prepare(workflow).warnings();
            WorkflowRun run = run(ENGINE, workflow, "");

            assertThat(warnings).singleElement().asString().contains("The agent strategy " + strategy[1] + " of "
                    + strategy[0] + " is not one Hexaflow runs");
            assertThat(run.status()).isEqualTo(RunStatus.FAILED);
            assertThat(run.error()).startsWith("Failed to get agent strategy: ").contains(strategy[1]);
        }
        assertThat(MODEL.requests()).isEmpty();
    }
}
