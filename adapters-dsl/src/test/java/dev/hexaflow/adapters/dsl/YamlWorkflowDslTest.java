package dev.hexaflow.adapters.dsl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.domain.workflow.InvalidWorkflowException;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.VariableSelector;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.domain.workflow.WorkflowProblem;
import dev.hexaflow.testing.SharedFolder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class YamlWorkflowDslTest {

    private static final String CORPUS = "conformance/dify-dsl";
    private static final String CHAT_CORPUS = "conformance/dify-chatflow";
    private final YamlWorkflowDslReader reader = new YamlWorkflowDslReader();
    private final YamlWorkflowDslWriter writer = new YamlWorkflowDslWriter();

    static Stream<Path> corpus() throws IOException {
        try (Stream<Path> files = Files.list(SharedFolder.require(CORPUS))) {
            return files.filter(f -> f.toString().endsWith(".yml")).sorted().toList().stream();
        }
    }

    private Workflow read(String yaml) {
        return reader.read(yaml.getBytes(StandardCharsets.UTF_8));
    }

    @ParameterizedTest
    @MethodSource("corpus")
    void everyRealDifyFileReadsAndWritesBackToTheSameWorkflow(Path file) throws IOException {
        Workflow workflow = reader.read(Files.readAllBytes(file));

        assertThat(workflow.app().mode()).isEqualTo("workflow");
        assertThat(workflow.graph().starts()).hasSize(1);
        Workflow again = read(writer.write(workflow));
        assertThat(again).isEqualTo(workflow);
    }

    @Test
    void theLoopFileHasItsContainerChildrenAndLayout() throws IOException {
        Path file = SharedFolder.require(CORPUS + "/increment_loop_with_break_condition_workflow.yml");

        Workflow workflow = reader.read(Files.readAllBytes(file));

        Node loop = workflow.graph().node("1754827949615").orElseThrow();
        assertThat(loop.type()).isEqualTo(NodeType.LOOP);
        assertThat(loop.title()).isEqualTo("Loop");
        Node assigner = workflow.graph().node("1754827988715").orElseThrow();
        assertThat(assigner.parentId()).contains("1754827949615");
        assertThat(workflow.graph().node("1754827949615start").orElseThrow().type()).isEqualTo(NodeType.LOOP_START);
        assertThat(assigner.data().trees("items").get(0).selector("variable_selector"))
                .isEqualTo(VariableSelector.of("1754827949615", "num"));
        assertThat(loop.view().asMap()).containsKey("position");
        assertThat(workflow.dslVersion()).isEqualTo("0.3.1");
    }

    @Test
    void aFileWithoutKindOrVersionIsReadAs010AndNotesAreSkipped() {
        Workflow workflow = read("""
                app: {name: old, mode: workflow}
                workflow:
                  graph:
                    nodes:
                      - {id: s, type: custom, data: {type: start, title: Start, variables: []}}
                      - {id: n1, type: custom-note, data: {type: '', text: remember}}
                      - {id: 1700000000000, type: custom, data: {type: end, title: End, outputs: []}}
                    edges:
                      - {source: s, target: 1700000000000}
                """);

        assertThat(workflow.dslVersion()).isEqualTo("0.1.0");
        assertThat(workflow.graph().nodes()).extracting(Node::id).containsExactly("s", "1700000000000");
        assertThat(workflow.graph().edges().get(0).sourceHandle()).isEqualTo("source");
    }

    @Test
    void everyStructuralProblemIsListedAtOnceNamingTheNode() {
        assertThatThrownBy(() -> read("""
                app: {name: pipeline, mode: rag-pipeline}
                workflow:
                  graph:
                    nodes:
                      - {id: a, data: {type: start, title: Begin}}
                      - {id: b, data: {type: teleport, title: Beam me}}
                      - {data: {type: end}}
                    edges:
                      - {source: a}
                """))
                .isInstanceOfSatisfying(InvalidWorkflowException.class, e -> assertThat(e.problems())
                        .extracting(WorkflowProblem::toString)
                        .containsExactly(
                                "app.mode is 'rag-pipeline'; Hexaflow runs workflow, advanced-chat, chat, agent-chat and "
                                        + "completion apps",
                                "node b (Beam me): unknown node type 'teleport'; remove the node or replace it with "
                                        + "one of the types docs/command-line.md lists",
                                "workflow.graph.nodes[2] has no id",
                                "workflow.graph.edges[0] needs a source and a target"));
    }

    @Test
    void aFileThatIsNotYamlOrNotADslIsRefusedWithAReason() {
        assertThatThrownBy(() -> read("app: [unclosed")).isInstanceOf(InvalidWorkflowException.class)
                .hasMessageContaining("not valid YAML");
        assertThatThrownBy(() -> read("- just\n- a list\n")).hasMessageContaining("not a Dify app DSL");
        assertThatThrownBy(() -> read("app: {mode: workflow}\n")).hasMessageContaining("workflow is missing");
        assertThatThrownBy(() -> read("workflow: {graph: {nodes: []}}\n")).hasMessageContaining("app is missing");
    }

    /** The chat fixtures but knowledge_retrieval_v2_workflow.yml, whose KnowledgeFS node Hexaflow does not know. */
    static Stream<Path> chatCorpus() throws IOException {
        try (Stream<Path> files = Files.list(SharedFolder.require(CHAT_CORPUS))) {
            return files.filter(f -> f.toString().endsWith(".yml"))
                    .filter(f -> !f.getFileName().toString().startsWith("knowledge_retrieval_v2")).sorted().toList()
                    .stream();
        }
    }

    @ParameterizedTest
    @MethodSource("chatCorpus")
    void everyDifyChatFixtureReadsAndWritesBackToTheSameWorkflowWithItsConversationVariables(Path file)
            throws IOException {
        Workflow workflow = reader.read(Files.readAllBytes(file));

        Workflow again = read(writer.write(workflow));

        assertThat(again).isEqualTo(workflow);
        assertThat(again.app().mode()).isIn("workflow", "advanced-chat");
    }

    @Test
    void aChatflowKeepsItsConversationVariablesAndAHandWrittenIdAsWritten() throws IOException {
        Path file = SharedFolder.require(CHAT_CORPUS + "/minimal_non_uuid_conversation_variable.yml");

        Workflow workflow = reader.read(Files.readAllBytes(file));

        assertThat(workflow.isChat()).isTrue();
        assertThat(workflow.conversationVariables()).singleElement().satisfies(variable -> {
            assertThat(variable.id()).isEqualTo("opt-comp-prompt-var");
            assertThat(variable.name()).isEqualTo("optimization_comparison_prompt");
            assertThat(variable.valueType()).isEqualTo("string");
            assertThat(variable.value()).isEqualTo("-");
        });
        assertThat(writer.write(workflow)).contains("id: opt-comp-prompt-var")
                .contains("mode: advanced-chat");
    }

    @Test
    void aMalformedConversationVariableListIsRefusedNamingTheField() {
        assertThatThrownBy(() -> read("""
                app: {name: chat, mode: advanced-chat}
                workflow:
                  conversation_variables: [{value: 1}, plain, {name: n, value_type: [x]}]
                  graph: {nodes: [{id: s, data: {type: start, title: Start}}]}
                """))
                .isInstanceOfSatisfying(InvalidWorkflowException.class, e -> assertThat(e.problems())
                        .extracting(WorkflowProblem::toString)
                        .containsExactly(
                                "workflow.conversation_variables[0] has no name",
                                "workflow.conversation_variables[1] is not an object",
                                "workflow.conversation_variables[2].value_type is not a text"));
        assertThatThrownBy(() -> read("""
                app: {name: chat, mode: advanced-chat}
                workflow:
                  conversation_variables: {name: n}
                  graph: {nodes: [{id: s, data: {type: start, title: Start}}]}
                """)).hasMessageContaining("workflow.conversation_variables is not a list");
    }

    @Test
    void theCorpusIsThereWhenTheSharedFolderIs() throws IOException {
        List<Path> files = corpus().toList();
        assertThat(files).hasSizeGreaterThanOrEqualTo(12);
    }
}
