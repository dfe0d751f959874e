package dev.hexaflow.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer.Script;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.domain.workflow.NodeExecution;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.domain.workflow.WorkflowRun;
import dev.hexaflow.engine.EngineConfiguration;
import dev.hexaflow.engine.Engines;
import dev.hexaflow.workflow.engine.ChatTurn.PastMessage;
import dev.hexaflow.workflow.engine.ChatTurn;
import dev.hexaflow.workflow.engine.RunHandle;
import dev.hexaflow.workflow.engine.RunRequest;
import dev.hexaflow.workflow.engine.WorkflowEngine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The agent node through the standard engine: the OpenAI-compatible adapter against a real streaming server on
 * loopback that answers tool calls, and the built-in time tools the agent calls.
 */
class AgentNodeTest {

    static final FakeModelServer MODEL = new FakeModelServer();
    static final WorkflowEngine ENGINE = Engines.standard(EngineConfiguration.fromEnvironment(
            Map.of("HEXAFLOW_LLM_MODELS", "*=local-model")).withLlm(MODEL.baseUrl(), "sk-t"));

    private final List<RunEvent> events = new CopyOnWriteArrayList<>();

    @AfterAll
    static void stop() {
        MODEL.close();
    }

    @BeforeEach
    void forget() {
        MODEL.requests().clear();
    }

    /** start (query) → agent with the time tools weekday and current_time → end (answer = the agent's text). */
    static Workflow agent(String strategy, int maximumIterations) {
        return Dsl.workflow("""
                - {id: start, data: {type: start, title: Start, variables: [{variable: query, type: text-input}]}}
                - id: agent
                  data:
                    type: agent
                    title: Agent
                    agent_strategy_provider_name: langgenius/agent/agent
                    agent_strategy_name: %s
                    agent_parameters:
                      model:
                        type: constant
                        value: {provider: langgenius/openai/openai, model: gpt-4o, mode: chat,
                                completion_params: {temperature: 0.2}, model_type: llm, type: model-selector}
                      tools:
                        type: constant
                        value:
                          - {enabled: true, provider_name: time, tool_name: weekday, type: builtin,
                             parameters: {year: {auto: 1, value: null}}, settings: {}}
                          - {enabled: true, provider_name: langgenius/time/time, tool_name: current_time,
                             type: builtin, settings: {timezone: {value: UTC}}, extra: {description: The time now}}
                          - {enabled: false, provider_name: junjiem/db_query/db_query, tool_name: db_query}
                      instruction: {type: constant, value: You answer questions about dates.}
                      query: {type: mixed, value: '{{#start.query#}}'}
                      maximum_iterations: {type: constant, value: %d}
                - {id: end, data: {type: end, title: End, outputs: [{variable: answer, value_selector: [agent, text]}]}}
                """.formatted(strategy, maximumIterations), """
                - {source: start, target: agent}
                - {source: agent, target: end}
                """);
    }

    private WorkflowRun run(Workflow workflow) {
        return ENGINE.run(ENGINE.prepare(workflow), RunRequest.of(workflow, "u",
                Map.of("query", "What day is 2024-02-29?")), events::add);
    }

    private NodeExecution agentExecution() {
        return events.stream().filter(e -> e instanceof RunEvent.NodeFinished).map(e ->
                ((RunEvent.NodeFinished) e).execution()).filter(e -> e.nodeType() == NodeType.AGENT).findFirst()
                .orElseThrow();
    }

    private List<String> chunks() {
        return events.stream().filter(e -> e instanceof RunEvent.TextChunk).map(e -> ((RunEvent.TextChunk) e).text())
                .toList();
    }

    private static List<Object> labels(NodeExecution execution) {
        return execution.metadata().agentLog().stream().map(entry -> entry.get("label")).toList();
    }

    @Test
    void functionCallingOffersTheToolsRunsTheCallTheModelMakesAndStreamsTheAnswerThatFollows() {
        MODEL.answerInTurn(Script.toolCall("weekday", "{\"year\": 2024, \"month\": 2, \"day\": 29}"),
                Script.text("It is a Thursday.", 30, 4));

        WorkflowRun run = run(agent("function_calling", 3));

        assertThat(run.status()).as(run.error()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(run.outputs()).containsEntry("answer", "It is a Thursday.");
        assertThat(chunks()).containsExactly("It", " is", " a", " Thursday.");
        assertThat(run.totalTokens()).isEqualTo(15 + 34);
        JsonNode first = MODEL.requests().get(0);
        assertThat(first.get("model").asText()).isEqualTo("local-model");
        assertThat(first.get("messages").get(0).get("content").asText()).isEqualTo("You answer questions about "
                + "dates.");
        assertThat(first.get("messages").get(1).get("content").asText()).isEqualTo("What day is 2024-02-29?");
        assertThat(first.get("tools")).extracting(tool -> tool.get("function").get("name").asText())
                .containsExactly("weekday", "current_time");
        assertThat(first.get("tools").get(0).get("function").get("parameters").get("properties").has("month"))
                .isTrue();
        JsonNode currentTime = first.get("tools").get(1).get("function");
        assertThat(currentTime.get("description").asText()).isEqualTo("The time now");
        assertThat(currentTime.get("parameters").get("properties").has("timezone")).as("fixed by the node")
                .isFalse();
        JsonNode second = MODEL.requests().get(1).get("messages");
        assertThat(second.get(2).get("tool_calls").get(0).get("id").asText()).isEqualTo("call_1");
        assertThat(second.get(3).get("role").asText()).isEqualTo("tool");
        assertThat(second.get(3).get("tool_call_id").asText()).isEqualTo("call_1");
        assertThat(second.get(3).get("content").asText()).isEqualTo("February 29, 2024 is Thursday.");

        NodeExecution agent = agentExecution();
        assertThat(labels(agent)).containsExactly("ROUND 1", "gpt-4o Thought", "CALL weekday", "ROUND 2",
                "gpt-4o Thought");
        assertThat(agent.metadata().totalTokens()).isEqualTo(49);
        assertThat(agent.outputs()).containsEntry("json", List.of(Map.of("data", List.of())))
                .containsEntry("files", List.of());
        assertThat(((Map<?, ?>) agent.outputs().get("usage")).get("total_tokens")).isEqualTo(49L);
    }

    @Test
    void theLastRoundOffersNoToolsSoTheAgentStopsAtItsMaximumIterations() {
        MODEL.answer(Script.toolCall("weekday", "{\"year\": 2024, \"month\": 2, \"day\": 29}"));

        WorkflowRun run = run(agent("function_calling", 2));

        assertThat(run.status()).as(run.error()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(MODEL.requests()).hasSize(2);
        assertThat(MODEL.requests().get(0).has("tools")).isTrue();
        assertThat(MODEL.requests().get(1).has("tools")).isFalse();
        assertThat(labels(agentExecution())).containsExactly("ROUND 1", "gpt-4o Thought", "CALL weekday",
                "ROUND 2", "gpt-4o Thought");
    }

    @Test
    void aToolThatFailsTellsTheModelItsErrorAndTheLogMarksTheCallAsAnError() {
        MODEL.answerInTurn(Script.toolCall("weekday", "{\"year\": 2024}"), Script.text("I need a month.", 1, 1));

        WorkflowRun run = run(agent("function_calling", 3));

        assertThat(run.status()).as(run.error()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(run.outputs()).containsEntry("answer", "I need a month.");
        assertThat(MODEL.requests().get(1).get("messages").get(3).get("content").asText())
                .isEqualTo("tool invoke error: 月份为必填项");
        Map<String, Object> call = agentExecution().metadata().agentLog().get(2);
        assertThat(call).containsEntry("label", "CALL weekday").containsEntry("status", "error")
                .containsEntry("error", "月份为必填项");
    }

    @Test
    void aCallOfAToolTheNodeDoesNotOfferIsAnsweredThatThereIsNone() {
        MODEL.answerInTurn(Script.toolCall("db_query", "{}"), Script.text("No database.", 1, 1));

        WorkflowRun run = run(agent("function_calling", 3));

        assertThat(run.outputs()).containsEntry("answer", "No database.");
        assertThat(MODEL.requests().get(1).get("messages").get(3).get("content").asText())
                .isEqualTo("there is not a tool named db_query");
    }

    @Test
    void reactReadsTheJsonActionRunsTheToolAndAnswersTheFinalAnswer() {
        MODEL.answerInTurn(Script.text("Thought: I should look it up. Action: ```json {\"action\": \"weekday\", "
                + "\"action_input\": {\"year\": 2024, \"month\": 2, \"day\": 29}} ```", 10, 10),
                Script.text("Thought: I know. Action: ``` {\"action\": \"Final Answer\", \"action_input\": "
                        + "\"Thursday\"} ```", 10, 10));

        WorkflowRun run = run(agent("ReAct", 3));

        assertThat(run.status()).as(run.error()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(run.outputs()).containsEntry("answer", "Thursday");
        assertThat(chunks()).containsExactly("Thursday");
        JsonNode first = MODEL.requests().get(0);
        assertThat(first.has("tools")).isFalse();
        assertThat(first.get("stop").get(0).asText()).isEqualTo("Observation:");
        assertThat(first.get("messages").get(0).get("content").asText()).contains("You answer questions about "
                + "dates.").contains("- weekday: ").contains("Final Answer");
        JsonNode second = MODEL.requests().get(1).get("messages");
        assertThat(second.get(2).get("role").asText()).isEqualTo("assistant");
        assertThat(second.get(2).get("content").asText()).contains("Observation: February 29, 2024 is Thursday.");
        assertThat(labels(agentExecution())).containsExactly("ROUND 1", "gpt-4o Thought", "CALL weekday",
                "ROUND 2", "gpt-4o Thought");
    }

    @Test
    void aModelThatFailsFailsTheNodeWithTheEndpointsError() {
        MODEL.answer(Script.failure(500, "the model is down"));

        WorkflowRun run = run(agent("function_calling", 3));

        assertThat(run.status()).isEqualTo(RunStatus.FAILED);
        assertThat(run.error()).startsWith("Failed to invoke agent: ").contains("500").contains("the model is down");
    }

    @Test
    void aStrategyHexaflowDoesNotRunImportsWithAWarningAndFailsTheRunThatReachesIt() {
        Workflow workflow = agent("mcp_sse_agent", 3);

        List<String> warnings = ENGINE.prepare(workflow).warnings();
        WorkflowRun run = run(workflow);

        assertThat(warnings).singleElement().asString().contains("mcp_sse_agent").contains("function_calling");
        assertThat(run.status()).isEqualTo(RunStatus.FAILED);
        assertThat(run.error()).startsWith("Failed to get agent strategy: ").contains("mcp_sse_agent");
        assertThat(MODEL.requests()).isEmpty();
    }

    @Test
    void aStopWhileTheModelAnswersEndsTheRunWithinASecond() throws Exception {
        MODEL.answerInTurn(Script.toolCall("weekday", "{\"year\": 2024, \"month\": 2, \"day\": 29}"),
                Script.text("one two three four five six seven eight", 1, 1).pausing(400));
        Workflow workflow = agent("function_calling", 3);
        RunHandle handle = ENGINE.start(ENGINE.prepare(workflow), RunRequest.of(workflow, "u",
                Map.of("query", "q")), events::add);
        Thread.sleep(700);

        long asked = System.nanoTime();
        handle.stop();
        WorkflowRun run = handle.await(Duration.ofSeconds(2));

        assertThat((System.nanoTime() - asked) / 1e9).isLessThan(1.0);
        assertThat(run.status()).isEqualTo(RunStatus.STOPPED);
        assertThat(MODEL.requests()).hasSize(2);
        assertThat(chunks()).contains("one").doesNotContain(" eight");
    }

    /**
     * A chatflow: start → agent (no tools, memory as given, query sys.query) → answer (the agent's text). Dify's
     * agent node reads {@code memory.window.size} whether the window is enabled or not.
     */
    static Workflow chatAgent(String strategy, String memory) {
        return Dsl.read("""
                app: {name: chat-agent, mode: advanced-chat}
                kind: app
                version: 0.5.0
                workflow:
                  graph:
                    nodes:
                      - {id: start, data: {type: start, title: Start, variables: []}}
                      - id: agent
                        data:
                          type: agent
                          title: Agent
                          agent_strategy_provider_name: langgenius/agent/agent
                          agent_strategy_name: %s
                          agent_parameters:
                            model:
                              type: constant
                              value: {provider: langgenius/openai/openai, model: gpt-4o, mode: chat, completion_params: {}}
                            tools: {type: constant, value: []}
                            instruction: {type: constant, value: Answer briefly.}
                            query: {type: mixed, value: '{{#sys.query#}}'}
                            maximum_iterations: {type: constant, value: 3}
                          %s
                      - {id: answer, data: {type: answer, title: Answer, answer: '{{#agent.text#}}'}}
                    edges:
                      - {source: start, target: agent}
                      - {source: agent, target: answer}
                """.formatted(strategy, memory));
    }

    private WorkflowRun chat(Workflow workflow, ChatTurn turn) {
        return ENGINE.run(ENGINE.prepare(workflow), RunRequest.of(workflow, "u", Map.of()).withChat(turn),
                events::add);
    }

    private static List<String> sent(int request) {
        List<String> flat = new ArrayList<>();
        MODEL.requests().get(request).get("messages").forEach(m -> flat.add(m.get("role").asText() + ": "
                + m.get("content").asText()));
        return flat;
    }

    private static final List<PastMessage> THREE_TURNS = List.of(new PastMessage("one", "1"),
            new PastMessage("two", "2"), new PastMessage("three", "3"));

    @Test
    void aFunctionCallingAgentWithMemoryGetsTheLastTurnsOfItsWindowBetweenInstructionAndQuery() {
        MODEL.answer(Script.text("four", 1, 1));

        WorkflowRun run = chat(chatAgent("function_calling", "memory: {window: {enabled: false, size: 2}}"),
                new ChatTurn("and now?", "c1", 4, Map.of(), THREE_TURNS));

        assertThat(run.status()).as(run.error()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(run.outputs()).containsEntry("answer", "four");
        assertThat(sent(0)).containsExactly("system: Answer briefly.", "user: two", "assistant: 2",
                "user: three", "assistant: 3", "user: and now?");
    }

    @Test
    void aReactAgentWithMemoryGetsTheTurnsBetweenItsSystemPromptAndTheQuestion() {
        MODEL.answer(Script.text("Thought: easy. Action: ```{\"action\": \"Final Answer\", \"action_input\": "
                + "\"four\"}```", 1, 1));

        WorkflowRun run = chat(chatAgent("ReAct", "memory: {window: {enabled: true, size: 0}}"),
                new ChatTurn("and now?", "c1", 4, Map.of(), THREE_TURNS));

        assertThat(run.status()).as(run.error()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(run.outputs()).containsEntry("answer", "four");
        List<String> messages = sent(0);
        assertThat(messages.get(0)).startsWith("system: ").contains("Answer briefly.");
        assertThat(messages.subList(1, messages.size())).containsExactly("user: one", "assistant: 1", "user: two",
                "assistant: 2", "user: three", "assistant: 3", "user: Question: and now?");
    }

    @Test
    void anAgentWithoutMemoryInAChatflowGetsNoEarlierTurns() {
        MODEL.answer(Script.text("alone", 1, 1));

        WorkflowRun run = chat(chatAgent("function_calling", ""), new ChatTurn("and now?", "c1", 4, Map.of(),
                THREE_TURNS));

        assertThat(run.status()).as(run.error()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(sent(0)).containsExactly("system: Answer briefly.", "user: and now?");
    }
}
