package dev.hexaflow.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.hexaflow.adapters.dsl.YamlWorkflowDslReader;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.domain.workflow.NodeStatus;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.domain.workflow.Values;
import dev.hexaflow.domain.workflow.WorkflowRun;
import dev.hexaflow.engine.EngineConfiguration;
import dev.hexaflow.engine.Engines;
import dev.hexaflow.testing.SharedFolder;
import dev.hexaflow.workflow.engine.ChatTurn.PastMessage;
import dev.hexaflow.workflow.engine.ChatTurn;
import dev.hexaflow.workflow.engine.PreparedWorkflow;
import dev.hexaflow.workflow.engine.RunRequest;
import dev.hexaflow.workflow.engine.WorkflowEngine;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Dify's own chatflow fixtures with what its tests expect ({@code dify-chatflow/manifest.json}), each case run as
 * a chat turn through the real engine with the real nodes, the model being the fake OpenAI-compatible server on
 * loopback. Earlier turns of a case's conversation run first in one conversation, carrying its history and
 * conversation variables forward, as the chat service does. The one {@code tool_mock} (the time tool before a
 * static answer) is not applied: the real built-in tool runs, and the case asserts only the answer, which does
 * not depend on the tool's output.
 */
class ChatflowConformanceTest {

    static final String CORPUS = "conformance/dify-chatflow/";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    static final FakeModelServer MODEL = new FakeModelServer();
    static final WorkflowEngine ENGINE = Engines.standard(EngineConfiguration.fromEnvironment(Map.of())
            .withLlm(MODEL.baseUrl(), "test-key"));

    /** Cases Hexaflow cannot run as Dify's test does, and why. */
    private static final Map<String, String> NOT_RUN = Map.of(
            "answer renders an LLM structured_output object as indented JSON",
            "Dify's test sets the LLM node's outputs (structured_output) directly; the fixture's LLM node has no "
                    + "structured output schema, so a real LLM node (ours, or Dify's without the mock) makes none");

    /**
     * Cases whose expect_answer (derived for the manifest, not asserted by Dify's test) is the run's
     * outputs.answer, which joins the answers in the order their nodes finished, while the stream follows Dify's
     * coordinator: on "hello world" Answer 2 is sure to run as soon as Start ends (through the LLM, no branch on
     * that path) and so streams first, the LLM's text, while Answer 1 waits for the IF/ELSE and then for Answer 2.
     * The stream Dify's coordinator sends is given here.
     */
    private static final Map<String, String> STREAM_IN_COORDINATOR_ORDER = Map.of(
            "hello world", "This is a mocked LLM response for hello worldcontains 'hello'");

    @AfterAll
    static void stopModel() {
        MODEL.close();
    }

    static Stream<Arguments> cases() throws IOException {
        List<Arguments> cases = new ArrayList<>();
        for (JsonNode file : JSON.readTree(SharedFolder.require(CORPUS + "manifest.json").toFile())) {
            if (!file.get("app_mode").asText().equals("advanced-chat")) {
                continue;
            }
            for (JsonNode c : file.get("cases")) {
                cases.add(Arguments.of(file.get("file").asText(), c.get("name").asText(), c));
            }
        }
        return cases.stream();
    }

    /** A turn's events, and the run it ended with. */
    private record Turn(WorkflowRun run, List<RunEvent> events) {

        String answer() {
            StringBuilder text = new StringBuilder();
            events.stream().filter(RunEvent.TextChunk.class::isInstance)
                    .forEach(event -> text.append(((RunEvent.TextChunk) event).text()));
            return text.toString();
        }

        Map<String, Object> conversationVariables() {
            return events.stream().filter(RunEvent.ConversationVariables.class::isInstance)
                    .map(event -> ((RunEvent.ConversationVariables) event).values()).findFirst().orElseThrow();
        }
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("cases")
    void eachChatCaseAnswersAsDifysTestsExpect(String file, String name, JsonNode c) throws IOException {
        Assumptions.assumeFalse(NOT_RUN.containsKey(name), NOT_RUN.get(name));
        mockModel(c.get("llm_mock"));
        PreparedWorkflow workflow = ENGINE.prepare(new YamlWorkflowDslReader().read(dsl(file, c.get("dsl_patch"))));
        @SuppressWarnings("unchecked")
        Map<String, Object> inputs = JSON.convertValue(c.get("inputs"), Map.class);
        String conversationId = "conversation-" + Math.abs(name.hashCode());
        List<PastMessage> history = new ArrayList<>();
        Map<String, Object> variables = Map.of();
        for (JsonNode earlier : c.path("conversation")) {
            Turn turn = run(workflow, inputs, new ChatTurn(earlier.get("query").asText(), conversationId,
                    history.size() + 1, variables, history));
            assertThat(turn.answer()).as("earlier turn %s", earlier.get("query")).isEqualTo(
                    earlier.get("answer").asText());
            history.add(new PastMessage(earlier.get("query").asText(), turn.answer()));
            variables = turn.conversationVariables();
        }
        int requestsBefore = MODEL.requests().size();

        Turn turn = run(workflow, inputs, new ChatTurn(c.get("query").asText(), conversationId, history.size() + 1,
                variables, history));

        WorkflowRun run = turn.run();
        assertThat(run.status().wireName()).as(run.error()).isEqualTo(c.get("expect_status").asText());
        if (c.hasNonNull("expect_answer")) {
            assertThat(turn.answer()).isEqualTo(STREAM_IN_COORDINATOR_ORDER.getOrDefault(name,
                    c.get("expect_answer").asText()));
        }
        if (c.hasNonNull("expect_outputs")) {
            c.get("expect_outputs").fields().forEachRemaining(expected -> assertThat(
                    ConformanceCorpusTest.numbersAsDoubles(run.outputs().get(expected.getKey())))
                    .as("outputs.%s", expected.getKey())
                    .isEqualTo(ConformanceCorpusTest.numbersAsDoubles(Values.normalize(
                            JSON.convertValue(expected.getValue(), Object.class)))));
        }
        if (c.hasNonNull("expect_conversation_variables")) {
            @SuppressWarnings("unchecked")
            Map<String, Object> expected = JSON.convertValue(c.get("expect_conversation_variables"), Map.class);
            assertThat(turn.conversationVariables()).containsAllEntriesOf(expected);
        }
        if (c.hasNonNull("expect_llm_messages")) {
            JsonNode sent = MODEL.requests().get(MODEL.requests().size() - 1).get("messages");
            assertThat(MODEL.requests().size()).isGreaterThan(requestsBefore);
            assertThat(messages(sent)).isEqualTo(messages(c.get("expect_llm_messages")));
        }
        if (c.hasNonNull("expect_node_outputs")) {
            assertNodeOutputs(turn, c.get("expect_node_outputs"));
        }
        if (c.hasNonNull("expect_events")) {
            assertThat(kinds(turn.events())).isEqualTo(expectedKinds(c.get("expect_events")));
        }
    }

    private static Turn run(PreparedWorkflow workflow, Map<String, Object> inputs, ChatTurn chat) {
        List<RunEvent> events = new CopyOnWriteArrayList<>();
        WorkflowRun run = ENGINE.run(workflow, RunRequest.of(workflow.workflow(), "conformance", inputs)
                .withChat(chat), events::add);
        return new Turn(run, events);
    }

    /**
     * The fake model answers what Dify's test mocked. Several mocked LLM nodes run one after the other in these
     * fixtures, so they are answered in the manifest's order, one call each.
     */
    private static void mockModel(JsonNode mock) {
        if (mock == null || mock.isNull()) {
            MODEL.answer(FakeModelServer.Script.text("unmocked", 1, 1));
        } else if (mock.isArray()) {
            List<FakeModelServer.Script> scripts = new ArrayList<>();
            mock.forEach(each -> scripts.add(script(each)));
            MODEL.answerInTurn(scripts.toArray(FakeModelServer.Script[]::new));
        } else {
            MODEL.answer(script(mock));
        }
    }

    private static FakeModelServer.Script script(JsonNode mock) {
        JsonNode usage = mock.path("usage");
        return FakeModelServer.Script.text(mock.get("text").asText(), usage.path("prompt_tokens").asLong(10),
                usage.path("completion_tokens").asLong(5));
    }

    /** The fixture, with the node data the case's test changed ({@code dsl_patch}). */
    @SuppressWarnings("unchecked")
    private static byte[] dsl(String file, JsonNode patches) throws IOException {
        byte[] bytes = Files.readAllBytes(SharedFolder.require(CORPUS + file));
        if (patches == null || patches.isNull()) {
            return bytes;
        }
        Map<String, Object> document = YAML.readValue(bytes, Map.class);
        List<Map<String, Object>> nodes = (List<Map<String, Object>>) ((Map<String, Object>) ((Map<String, Object>)
                document.get("workflow")).get("graph")).get("nodes");
        for (JsonNode patch : patches) {
            Map<String, Object> node = nodes.stream().filter(n -> n.get("id").equals(patch.get("node_id").asText()))
                    .findFirst().orElseThrow();
            ((Map<String, Object>) node.get("data")).putAll(JSON.convertValue(patch.get("set"), Map.class));
        }
        return YAML.writeValueAsBytes(document);
    }

    private static List<String> messages(JsonNode messages) {
        List<String> flat = new ArrayList<>();
        messages.forEach(message -> flat.add(message.get("role").asText() + ": " + message.get("content").asText()));
        return flat;
    }

    private static void assertNodeOutputs(Turn turn, JsonNode expected) {
        Map<String, Map<String, Object>> outputs = new LinkedHashMap<>();
        turn.events().stream().filter(RunEvent.NodeFinished.class::isInstance)
                .map(event -> ((RunEvent.NodeFinished) event).execution())
                .filter(execution -> execution.status() == NodeStatus.SUCCEEDED)
                .forEach(execution -> outputs.put(execution.nodeId(), execution.outputs()));
        expected.fields().forEachRemaining(node -> {
            Map<String, Object> actual = outputs.get(node.getKey());
            assertThat(actual).as("outputs of node %s", node.getKey()).isNotNull();
            node.getValue().fields().forEachRemaining(field -> {
                if (field.getKey().endsWith("_regex")) {
                    String name = field.getKey().substring(0, field.getKey().length() - "_regex".length());
                    assertThat(String.valueOf(actual.get(name))).matches(field.getValue().asText());
                } else {
                    assertThat(actual.get(field.getKey())).as("%s.%s", node.getKey(), field.getKey())
                            .isEqualTo(Values.normalize(JSON.convertValue(field.getValue(), Object.class)));
                }
            });
        });
    }

    /**
     * Dify's graph-engine events as kinds, a run of text chunks as one (Dify ends a model's text with an empty
     * final chunk; the order of text against the node events is what the fixtures pin). Dify's loop ends with
     * two events, loop-succeeded then node-succeeded, and sends the answer after the loop between them; Hexaflow
     * sends one container-completed event, after that text, so both are read as one node-succeeded.
     */
    private static List<String> kinds(List<RunEvent> events) {
        List<String> kinds = new ArrayList<>();
        for (RunEvent event : events) {
            if (event instanceof RunEvent.NodeStarted started && isContainerStart(started.execution().nodeType())
                    || event instanceof RunEvent.NodeFinished finished
                    && isContainerStart(finished.execution().nodeType())) {
                continue;
            }
            if (event instanceof RunEvent.WorkflowStarted) {
                add(kinds, "GraphRunStarted");
            } else if (event instanceof RunEvent.NodeStarted) {
                add(kinds, "NodeRunStarted");
            } else if (event instanceof RunEvent.NodeFinished finished) {
                add(kinds, finished.execution().status() == NodeStatus.SUCCEEDED ? "NodeRunSucceeded"
                        : "NodeRun" + finished.execution().status());
            } else if (event instanceof RunEvent.TextChunk) {
                add(kinds, "NodeRunStreamChunk");
            } else if (event instanceof RunEvent.ContainerStarted started) {
                add(kinds, "NodeRunStarted");
                add(kinds, "NodeRun" + container(started.node().type().wireName()) + "Started");
            } else if (event instanceof RunEvent.ContainerNext next && next.round() > 0) {
                add(kinds, "NodeRun" + container(next.node().type().wireName()) + "Next");
            } else if (event instanceof RunEvent.ContainerCompleted) {
                add(kinds, "NodeRunSucceeded");
            } else if (event instanceof RunEvent.WorkflowFinished finished) {
                add(kinds, finished.run().status().wireName().equals("succeeded") ? "GraphRunSucceeded"
                        : "GraphRunFailed");
            }
        }
        return kinds;
    }

    /**
     * Hexaflow reports a container's start node (loop-start, iteration-start) as a node run; Dify's events in these
     * tests do not list it, so it is left out of the comparison.
     */
    private static boolean isContainerStart(NodeType type) {
        return type == NodeType.LOOP_START || type == NodeType.ITERATION_START;
    }

    private static List<String> expectedKinds(JsonNode expected) {
        List<String> kinds = new ArrayList<>();
        for (JsonNode event : expected) {
            String kind = event.asText().split(" ")[0];
            if (!kind.equals("NodeRunLoopSucceeded") && !kind.equals("NodeRunIterationSucceeded")) {
                add(kinds, kind);
            }
        }
        return kinds;
    }

    private static String container(String wireName) {
        return wireName.equals("loop") ? "Loop" : "Iteration";
    }

    private static void add(List<String> kinds, String kind) {
        if (!(kind.equals("NodeRunStreamChunk") && !kinds.isEmpty() && kinds.get(kinds.size() - 1).equals(kind))) {
            kinds.add(kind);
        }
    }
}
