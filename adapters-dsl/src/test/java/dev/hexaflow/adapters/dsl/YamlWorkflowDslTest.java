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
                app: {name: chat, mode: advanced-chat}
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
                                "app.mode is 'advanced-chat'; Hexaflow runs workflow apps only",
                                "node b (Beam me): unknown node type 'teleport'",
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

    @Test
    void theCorpusIsThereWhenTheSharedFolderIs() throws IOException {
        List<Path> files = corpus().toList();
        assertThat(files).hasSizeGreaterThanOrEqualTo(12);
    }
}
