package dev.hexaflow.workflow;

import static dev.hexaflow.workflow.TestWorkflows.workflow;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.domain.workflow.InvalidWorkflowException;
import dev.hexaflow.domain.workflow.NodeExecution;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.domain.workflow.WorkflowProblem;
import dev.hexaflow.domain.workflow.WorkflowRun;
import dev.hexaflow.workflow.engine.ChatTurn;
import dev.hexaflow.workflow.engine.EngineSettings;
import dev.hexaflow.workflow.engine.RunRequest;
import dev.hexaflow.workflow.engine.WorkflowEngine;
import dev.hexaflow.workflow.nodes.StandardNodes;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * {@code [start, "sys.X"]} and {@code {{#start.sys.X#}}}: older DSLs read the system variables under the start
 * node's id, where Dify's start node outputs them; a name that is no system variable is refused at import.
 */
class StartSystemVariablesTest {

    private final List<RunEvent> events = new CopyOnWriteArrayList<>();
    private final WorkflowEngine engine = new WorkflowEngine(StandardNodes.catalogue(StandardNodes.Services.none()),
            EngineSettings.DEFAULTS, Clock.systemUTC(), () -> UUID.randomUUID().toString());

    private WorkflowRun run(Workflow workflow, RunRequest request) {
        return engine.run(engine.prepare(workflow), request, events::add);
    }

    private Map<String, Object> outputsOf(String nodeId) {
        return events.stream().filter(e -> e instanceof RunEvent.NodeFinished)
                .map(e -> ((RunEvent.NodeFinished) e).execution()).filter(n -> n.nodeId().equals(nodeId))
                .map(NodeExecution::outputs).findFirst().orElseThrow();
    }

    @Test
    void aSelectorUnderTheStartNodesIdReadsTheSystemVariable() {
        Workflow workflow = workflow().start("q").end("end", Map.of("who", List.of("start", "sys.user_id"),
                "run", List.of("start", "sys.workflow_run_id"))).edge("start", "end").build();

        WorkflowRun run = run(workflow, RunRequest.of(workflow, "user-7", Map.of("q", "x")));

        assertThat(run.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(run.outputs()).containsEntry("who", "user-7").containsEntry("run", run.id());
        assertThat(outputsOf("start")).as("the start node shows its form's outputs as before").containsOnlyKeys("q");
    }

    @Test
    void aChatflowReadsTheQueryThroughTheStartNodeInSelectorsAndTemplates() {
        Workflow chat = workflow().start()
                .node("same", NodeType.VARIABLE_AGGREGATOR, Map.of("variables",
                        List.of(List.of("start", "sys.query"))))
                .node("answer", NodeType.ANSWER, Map.of("answer",
                        "You asked {{#start.sys.query#}} ({{#same.output#}}), turn {{#start.sys.dialogue_count#}}"))
                .edge("start", "same").edge("same", "answer").buildChat();
        RunRequest request = RunRequest.of(chat, "user-7", Map.of()).withChat(new ChatTurn("where is lunch?",
                "conv-1", 3, Map.of(), List.of()));

        WorkflowRun run = run(chat, request);

        assertThat(run.status()).as(String.valueOf(run.error())).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(outputsOf("answer")).containsEntry("answer",
                "You asked where is lunch? (where is lunch?), turn 3");
    }

    @Test
    void aNameThatIsNoSystemVariableIsRefusedAtImportNamingIt() {
        Workflow typo = workflow().start("q").end("end", Map.of("who", List.of("start", "sys.usr_id")))
                .edge("start", "end").build();

        assertThatThrownBy(() -> engine.prepare(typo)).isInstanceOfSatisfying(InvalidWorkflowException.class,
                e -> assertThat(e.problems()).extracting(WorkflowProblem::toString).containsExactly(
                        "node end (end): refers to [start, sys.usr_id], but Start (start) has no system variable "
                                + "sys.usr_id (there are sys.app_id, sys.conversation_id, sys.dialogue_count, "
                                + "sys.files, sys.invoke_from, sys.query, sys.timestamp, sys.user_id, "
                                + "sys.workflow_id, sys.workflow_run_id)"));
    }

    @Test
    void theTemplateFormOfAMisspelledNameIsRefusedAndAnotherNodeHasNoSystemOutputs() {
        Workflow chat = workflow().start()
                .node("same", NodeType.VARIABLE_AGGREGATOR, Map.of("variables", List.of(List.of("start", "q"))))
                .node("answer", NodeType.ANSWER, Map.of("answer", "{{#start.sys.querry#}} {{#same.sys.query#}}"))
                .edge("start", "same").edge("same", "answer").buildChat();

        assertThatThrownBy(() -> engine.prepare(chat)).isInstanceOfSatisfying(InvalidWorkflowException.class,
                e -> assertThat(e.problems()).extracting(WorkflowProblem::toString).anySatisfy(problem ->
                        assertThat(problem).contains("refers to [start, sys.querry], but Start (start) has no "
                                + "system variable sys.querry")).anySatisfy(problem -> assertThat(problem)
                        .contains("refers to [same, sys.query], but same (same) has no output sys.query")));
    }
}
