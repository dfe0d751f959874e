package dev.hexaflow.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.dsl.YamlWorkflowDslReader;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.domain.workflow.InvalidWorkflowException;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.domain.workflow.WorkflowRun;
import dev.hexaflow.engine.EngineConfiguration;
import dev.hexaflow.engine.Engines;
import dev.hexaflow.testing.SharedFolder;
import dev.hexaflow.workflow.engine.ChatTurn.PastMessage;
import dev.hexaflow.workflow.engine.ChatTurn;
import dev.hexaflow.workflow.engine.PreparedWorkflow;
import dev.hexaflow.workflow.engine.RunRequest;
import dev.hexaflow.workflow.engine.WorkflowEngine;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Chatflows through the engine beyond the manifest's cases: the chat fixtures Dify's tests run without listing
 * answers, conversation variables written inside an iteration, LLM memory's window and modes, and the rules that
 * keep answer nodes to chatflows.
 */
class ChatflowEngineTest {

    static final FakeModelServer MODEL = new FakeModelServer();
    static final WorkflowEngine ENGINE = Engines.standard(EngineConfiguration.fromEnvironment(Map.of())
            .withLlm(MODEL.baseUrl(), "test-key"));

    private final List<RunEvent> events = new CopyOnWriteArrayList<>();

    @AfterAll
    static void stopModel() {
        MODEL.close();
    }

    private static Workflow fixture(String file) throws Exception {
        return new YamlWorkflowDslReader().read(Files.readAllBytes(
                SharedFolder.require("conformance/dify-chatflow/" + file)));
    }

    private static Workflow chatflow(String body) {
        return new YamlWorkflowDslReader().read(("app: {name: chat, mode: advanced-chat}\nkind: app\n"
                + "version: 0.5.0\n" + body).getBytes(StandardCharsets.UTF_8));
    }

    private WorkflowRun run(Workflow workflow, ChatTurn turn) {
        PreparedWorkflow prepared = ENGINE.prepare(workflow);
        RunRequest request = RunRequest.of(workflow, "user", Map.of());
        return ENGINE.run(prepared, turn == null ? request : request.withChat(turn), events::add);
    }

    private String streamed() {
        StringBuilder text = new StringBuilder();
        events.stream().filter(RunEvent.TextChunk.class::isInstance)
                .forEach(event -> text.append(((RunEvent.TextChunk) event).text()));
        return text.toString();
    }

    private Map<String, Object> conversationVariables() {
        return events.stream().filter(RunEvent.ConversationVariables.class::isInstance)
                .map(event -> ((RunEvent.ConversationVariables) event).values()).findFirst().orElseThrow();
    }

    @Test
    void anAssignerInsideAnIterationWritesTheConversationVariableTheAnswerAfterItShows() throws Exception {
        WorkflowRun run = run(fixture("update-conversation-variable-in-iteration.yml"),
                ChatTurn.first("the query", "c1"));

        assertThat(run.status()).as(run.error()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(conversationVariables()).containsEntry("answer", "the query");
        assertThat(streamed()).isEqualTo("the query");
        assertThat(run.outputs()).containsEntry("answer", "the query");
    }

    @Test
    void aVersion1AssignerIsWaitedForBeforeTheAnswerShowsTheVariable() throws Exception {
        WorkflowRun run = run(fixture("test_streaming_conversation_variables_v1_overwrite.yml"),
                ChatTurn.first("overwritten", "c1"));

        assertThat(run.status()).as(run.error()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(streamed()).isEqualTo("Current Value Of `conv_var` is:overwritten");
        assertThat(conversationVariables()).containsEntry("conv_var", "overwritten");
        int chunk = indexOf(RunEvent.TextChunk.class);
        int assignerFinished = events.indexOf(events.stream().filter(RunEvent.NodeFinished.class::isInstance)
                .filter(e -> ((RunEvent.NodeFinished) e).execution().nodeId().equals("assigner")).findFirst()
                .orElseThrow());
        assertThat(chunk).isLessThan(assignerFinished);
    }

    @Test
    void twoParallelModelsStreamInTheAnswersOrderWhicheverEndsFirst() throws Exception {
        MODEL.answer(FakeModelServer.Script.text("same words", 1, 1));

        WorkflowRun run = run(fixture("multilingual_parallel_llm_streaming_workflow.yml"),
                ChatTurn.first("hi", "c1"));

        assertThat(run.status()).as(run.error()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(streamed()).isEqualTo("same wordssame words");
        List<List<String>> sources = events.stream().filter(RunEvent.TextChunk.class::isInstance)
                .map(event -> ((RunEvent.TextChunk) event).fromVariableSelector()).distinct().toList();
        assertThat(sources).containsExactly(List.of("1754339725656", "text"), List.of("1754339718571", "text"));
    }

    @Test
    void anObjectInAnAnswerRendersAsIndentedJsonAsDifysObjectSegmentDoes() {
        // What the manifest's structured_output case checks, with the object made by a real node: Dify's test
        // sets the llm node's outputs directly, which Hexaflow's tests do not do.
        Workflow workflow = chatflow("""
                workflow:
                  graph:
                    nodes:
                      - {id: start, data: {type: start, title: Start, variables: []}}
                      - id: code
                        data:
                          type: code
                          title: Code
                          code_language: javascript
                          code: "function main() { return {structured_output: {type: 'greeting', words: ['hi', '你好']}}; }"
                          variables: []
                          outputs: {structured_output: {type: object}}
                      - {id: answer, data: {type: answer, title: Answer, answer: '{{#code.structured_output#}}'}}
                    edges:
                      - {source: start, target: code}
                      - {source: code, target: answer}
                """);

        WorkflowRun run = run(workflow, ChatTurn.first("hello", "c1"));

        String expected = "{\n  \"type\": \"greeting\",\n  \"words\": [\n    \"hi\",\n    \"你好\"\n  ]\n}";
        assertThat(run.status()).as(run.error()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(run.outputs()).containsEntry("answer", expected);
        assertThat(streamed()).isEqualTo(expected);
    }

    @Test
    void aChatflowCalledWithoutATurnRunsWithAnEmptyQueryAndTheDefaults() throws Exception {
        WorkflowRun run = run(fixture("test_streaming_conversation_variables.yml"), null);

        assertThat(run.status()).as(run.error()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(run.inputs()).containsEntry("sys.query", "").containsEntry("sys.dialogue_count", 1L);
        assertThat(conversationVariables()).containsEntry("str", "");
    }

    @Test
    void aConversationStartsFromTheValuesItHoldsAndTheDslDefaultsForTheRest() throws Exception {
        Workflow workflow = chatflow("""
                workflow:
                  conversation_variables:
                    - {id: a, name: held, value_type: string, value: default}
                    - {id: b, name: count, value_type: number, value: '3'}
                  graph:
                    nodes:
                      - {id: start, data: {type: start, title: Start, variables: []}}
                      - {id: answer, data: {type: answer, title: Answer, answer: '{{#conversation.held#}} {{#conversation.count#}} {{#sys.dialogue_count#}}'}}
                    edges:
                      - {source: start, target: answer}
                """);

        WorkflowRun run = run(workflow, new ChatTurn("q", "c1", 4, Map.of("held", "kept"), List.of()));

        assertThat(run.outputs()).containsEntry("answer", "kept 3 4");
        assertThat(streamed()).isEqualTo("kept 3 4");
        assertThat(conversationVariables()).containsEntry("held", "kept").containsEntry("count", 3L);
    }

    @Test
    void memoryWithAWindowSendsOnlyTheLastTurnsBeforeTheQuery() {
        MODEL.answer(FakeModelServer.Script.text("fine", 1, 1));
        Workflow workflow = chatflow("""
                workflow:
                  graph:
                    nodes:
                      - {id: start, data: {type: start, title: Start, variables: []}}
                      - id: llm
                        data:
                          type: llm
                          title: LLM
                          model: {provider: openai, name: m, mode: chat, completion_params: {}}
                          prompt_template: [{role: system, text: 'Be brief.'}, {role: user, text: ''}]
                          memory: {window: {enabled: true, size: 2}, query_prompt_template: 'Q: {{#sys.query#}}'}
                          context: {enabled: false}
                          vision: {enabled: false}
                      - {id: answer, data: {type: answer, title: Answer, answer: '{{#llm.text#}}'}}
                    edges:
                      - {source: start, target: llm}
                      - {source: llm, target: answer}
                """);
        List<PastMessage> history = List.of(new PastMessage("one", "1"), new PastMessage("two", "2"),
                new PastMessage("three", "3"));

        run(workflow, new ChatTurn("four", "c1", 4, Map.of(), history));

        assertThat(sentMessages()).containsExactly("system: Be brief.", "user: two", "assistant: 2",
                "user: three", "assistant: 3", "user: Q: four");
    }

    @Test
    void aCompletionModelGetsTheHistoryAsPrefixedLinesInPlaceOfHistories() {
        MODEL.answer(FakeModelServer.Script.text("fine", 1, 1));
        Workflow workflow = chatflow("""
                workflow:
                  graph:
                    nodes:
                      - {id: start, data: {type: start, title: Start, variables: []}}
                      - id: llm
                        data:
                          type: llm
                          title: LLM
                          model: {provider: openai, name: m, mode: completion, completion_params: {}}
                          prompt_template: {text: "Talk.\\n#histories#\\nNow:"}
                          memory: {role_prefix: {user: U, assistant: A}, window: {enabled: false, size: 5}, query_prompt_template: ''}
                          context: {enabled: false}
                          vision: {enabled: false}
                      - {id: answer, data: {type: answer, title: Answer, answer: '{{#llm.text#}}'}}
                    edges:
                      - {source: start, target: llm}
                      - {source: llm, target: answer}
                """);

        run(workflow, new ChatTurn("next?", "c1", 2, Map.of(), List.of(new PastMessage("hi", "hello"))));

        assertThat(sentMessages()).containsExactly("user: Talk.\nU: hi\nA: hello\nNow:\nnext?");
    }

    @Test
    void memoryDropsTheOldestTurnsBeyondTheTokenBudget() {
        MODEL.answer(FakeModelServer.Script.text("fine", 1, 1));
        Workflow workflow = chatflow("""
                workflow:
                  graph:
                    nodes:
                      - {id: start, data: {type: start, title: Start, variables: []}}
                      - id: llm
                        data:
                          type: llm
                          title: LLM
                          model: {provider: openai, name: m, mode: chat, completion_params: {}}
                          prompt_template: []
                          memory: {window: {enabled: false, size: 10}, query_prompt_template: '{{#sys.query#}}'}
                      - {id: answer, data: {type: answer, title: Answer, answer: '{{#llm.text#}}'}}
                    edges:
                      - {source: start, target: llm}
                      - {source: llm, target: answer}
                """);
        List<PastMessage> history = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            history.add(new PastMessage("turn " + i + " " + "x".repeat(3000), "ok"));
        }

        run(workflow, new ChatTurn("last", "c1", 6, Map.of(), history));

        List<String> sent = sentMessages();
        assertThat(sent).hasSize(2 * 2 + 1);
        assertThat(sent.get(0)).startsWith("user: turn 3 ");
        assertThat(sent.get(sent.size() - 1)).isEqualTo("user: last");
    }

    @Test
    void aClassifierWithMemoryGetsTheEarlierTurnsInItsSystemPrompt() {
        MODEL.answer(FakeModelServer.Script.text("{\"category_id\": \"b\", \"category_name\": \"B\"}", 1, 1));
        Workflow workflow = chatflow("""
                workflow:
                  graph:
                    nodes:
                      - {id: start, data: {type: start, title: Start, variables: []}}
                      - id: classify
                        data:
                          type: question-classifier
                          title: Classify
                          model: {provider: openai, name: m, mode: chat, completion_params: {}}
                          query_variable_selector: [sys, query]
                          classes: [{id: a, name: A}, {id: b, name: B}]
                          memory: {window: {enabled: true, size: 1}}
                      - {id: pick, data: {type: answer, title: Pick, answer: '{{#classify.class_name#}}'}}
                    edges:
                      - {source: start, target: classify}
                      - {source: classify, sourceHandle: a, target: pick}
                      - {source: classify, sourceHandle: b, target: pick}
                """);

        WorkflowRun run = run(workflow, new ChatTurn("and this?", "c1", 3, Map.of(),
                List.of(new PastMessage("old", "gone"), new PastMessage("first", "an answer"))));

        assertThat(run.outputs()).containsEntry("answer", "B");
        List<String> sent = sentMessages();
        assertThat(sent.get(0)).contains("<histories>\nHuman: first\nAssistant: an answer\n</histories>")
                .doesNotContain("old");
        assertThat(sent.get(1)).isEqualTo("user: and this?");
    }

    @Test
    void aTurnCountsItselfSoItsDialogueCountIsAtLeastOne() {
        assertThatThrownBy(() -> new ChatTurn("q", "c1", 0, Map.of(), List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("dialogueCount");
        assertThat(ChatTurn.first(null, null)).isEqualTo(new ChatTurn("", "", 1, Map.of(), List.of()));
    }

    @Test
    void anAnswerNodeBelongsToAChatflowAndAnEndNodeToAWorkflowApp() {
        Workflow workflowWithAnswer = Dsl.workflow("""
                - {id: start, data: {type: start, title: Start, variables: []}}
                - {id: answer, data: {type: answer, title: Answer, answer: hi}}
                """, "- {source: start, target: answer}");
        Workflow chatflowWithEnd = chatflow("""
                workflow:
                  graph:
                    nodes:
                      - {id: start, data: {type: start, title: Start, variables: []}}
                      - {id: end, data: {type: end, title: End, outputs: []}}
                      - {id: answer, data: {type: answer, title: Answer, answer: '{{#conversation.nothing#}}'}}
                    edges:
                      - {source: start, target: end}
                      - {source: start, target: answer}
                """);

        assertThatThrownBy(() -> ENGINE.prepare(workflowWithAnswer)).isInstanceOf(InvalidWorkflowException.class)
                .hasMessageContaining("an answer node runs only in an advanced-chat app");
        assertThatThrownBy(() -> ENGINE.prepare(chatflowWithEnd)).isInstanceOf(InvalidWorkflowException.class)
                .hasMessageContaining("an end node runs only in a workflow app")
                .hasMessageContaining("refers to [conversation, nothing], no conversation variable");
    }

    @Test
    void theRealTimeToolBeforeAStaticAnswerGivesTheUtcTimeNowAndTheAnswerStreamsAsOneChunk() throws Exception {
        java.time.LocalDateTime before = java.time.LocalDateTime.now(java.time.ZoneOffset.UTC).withNano(0);

        WorkflowRun run = run(fixture("chatflow_time_tool_static_output_workflow.yml"),
                ChatTurn.first("what time is it?", "c1"));

        assertThat(run.status()).as(run.error()).isEqualTo(RunStatus.SUCCEEDED);
        List<RunEvent.TextChunk> chunks = events.stream().filter(RunEvent.TextChunk.class::isInstance)
                .map(RunEvent.TextChunk.class::cast).toList();
        assertThat(chunks).extracting(RunEvent.TextChunk::text).containsExactly("hello, dify!");
        Map<String, Object> tool = events.stream().filter(RunEvent.NodeFinished.class::isInstance)
                .map(event -> ((RunEvent.NodeFinished) event).execution())
                .filter(execution -> execution.nodeId().equals("1754336729904")).findFirst().orElseThrow()
                .outputs();
        java.time.LocalDateTime told = java.time.LocalDateTime.parse(String.valueOf(tool.get("text")),
                java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss"));
        assertThat(told).isBetween(before, java.time.LocalDateTime.now(java.time.ZoneOffset.UTC));
        assertThat(tool).containsEntry("files", List.of()).containsEntry("json", List.of(Map.of("data", List.of())));
    }

    private List<String> sentMessages() {
        JsonNode last = MODEL.requests().get(MODEL.requests().size() - 1);
        List<String> flat = new ArrayList<>();
        last.get("messages").forEach(m -> flat.add(m.get("role").asText() + ": " + m.get("content").asText()));
        return flat;
    }

    private int indexOf(Class<? extends RunEvent> kind) {
        for (int i = 0; i < events.size(); i++) {
            if (kind.isInstance(events.get(i))) {
                return i;
            }
        }
        return -1;
    }
}
