package dev.hexaflow.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.domain.workflow.FormAnswer;
import dev.hexaflow.domain.workflow.HumanInputForm;
import dev.hexaflow.domain.workflow.InvalidWorkflowException;
import dev.hexaflow.domain.workflow.NodeStatus;
import dev.hexaflow.domain.workflow.PausedRun;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * A run that waits for a person: it pauses at a human-input node with its form sent, holds no thread, and goes on
 * from a paused run kept as plain data (here through JSON, as a store keeps it) down the branch the answer chose.
 */
class HumanInputEngineTest {

    private static final HexaflowEngine ENGINE = HexaflowEngine.standard(EngineConfiguration.fromEnvironment(Map.of()));
    private static final ObjectMapper JSON = new ObjectMapper();

    static final String NODES = """
            - {id: start, data: {type: start, title: Start, variables: [{variable: draft, type: paragraph}]}}
            - id: review
              data:
                type: human-input
                title: Review
                form_content: "Please review: {{#start.draft#}}\\n\\nFeedback: {{#$output.feedback#}}"
                inputs:
                  - {type: paragraph, output_variable_name: feedback, default: {type: variable, selector: [start, draft], value: ''}}
                user_actions:
                  - {id: approve, title: Approve, button_style: primary}
                  - {id: reject, title: Reject}
                delivery_methods: [{id: web, type: webapp, enabled: true, config: {}}]
                timeout: 2
                timeout_unit: day
            - {id: ok, data: {type: end, title: OK, outputs: [{variable: said, value_selector: [review, feedback]}, {variable: action, value_selector: [review, __action_value]}]}}
            - {id: no, data: {type: end, title: No, outputs: [{variable: shown, value_selector: [review, __rendered_content]}]}}
            - {id: late, data: {type: end, title: Late, outputs: [{variable: action, value_selector: [review, __action_id]}]}}
            """;
    static final String EDGES = """
            - {source: start, target: review}
            - {source: review, sourceHandle: approve, target: ok}
            - {source: review, sourceHandle: reject, target: no}
            - {source: review, sourceHandle: __timeout, target: late}
            """;

    @AfterAll
    static void close() {
        ENGINE.close();
    }

    @Test
    void aRunPausesAtTheNodeWithItsFormFilledInAndGoesOnDownTheChosenAction() throws Exception {
        Workflow workflow = Dsl.workflow(NODES, EDGES);
        List<RunEvent> events = new CopyOnWriteArrayList<>();
        WorkflowRun paused = ENGINE.run(workflow, Map.of("draft", "the plan"), events::add);

        assertThat(paused.status()).isEqualTo(RunStatus.PAUSED);
        assertThat(paused.finishedAt()).isNull();
        HumanInputForm form = only(events, RunEvent.HumanInputRequired.class).form();
        assertThat(form.formContent()).isEqualTo("Please review: the plan\n\nFeedback: {{#$output.feedback#}}");
        assertThat(form.resolvedDefaultValues()).containsEntry("feedback", "the plan");
        assertThat(form.actions()).extracting(action -> action.get("id")).containsExactly("approve", "reject");
        assertThat(form.formToken()).hasSizeGreaterThanOrEqualTo(32);
        assertThat(form.expirationTime()).isBetween(paused.createdAt() + 2 * 86400 - 5, paused.createdAt() + 2 * 86400 + 5);
        assertThat(events).noneMatch(event -> event instanceof RunEvent.WorkflowFinished);
        RunEvent.WorkflowPaused pause = only(events, RunEvent.WorkflowPaused.class);
        assertThat(pause.paused().waitingNodes()).containsExactly("review");
        RunEvent.NodeFinished waiting = events.stream().filter(RunEvent.NodeFinished.class::isInstance)
                .map(RunEvent.NodeFinished.class::cast).filter(event -> event.execution().nodeId().equals("review"))
                .findFirst().orElseThrow();
        assertThat(waiting.execution().status()).isEqualTo(NodeStatus.PAUSED);

        List<RunEvent> after = new CopyOnWriteArrayList<>();
        WorkflowRun ended = ENGINE.resume(workflow, throughJson(pause.paused()),
                FormAnswer.submitted(form, "approve", Map.of("feedback", "ship it")), after::add).await();

        assertThat(ended.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(ended.outputs()).containsEntry("said", "ship it").containsEntry("action", "Approve");
        assertThat(after.get(0)).isInstanceOf(RunEvent.WorkflowResumed.class);
        RunEvent.HumanInputFormFilled filled = only(after, RunEvent.HumanInputFormFilled.class);
        assertThat(filled.renderedContent()).isEqualTo("Please review: the plan\n\nFeedback: ship it");
        assertThat(filled.actionText()).isEqualTo("Approve");
        // The node runs again under the execution it paused with: one row per node in the run's record.
        String pausedExecution = waiting.execution().id();
        assertThat(after).filteredOn(RunEvent.NodeStarted.class::isInstance).first()
                .extracting(event -> ((RunEvent.NodeStarted) event).execution().id()).isEqualTo(pausedExecution);
        assertThat(ended.totalSteps()).isEqualTo(3);
    }

    @Test
    void anotherActionTakesItsOwnBranch() throws Exception {
        Workflow workflow = Dsl.workflow(NODES, EDGES);
        List<RunEvent> events = new CopyOnWriteArrayList<>();
        ENGINE.run(workflow, Map.of("draft", "v2"), events::add);
        RunEvent.WorkflowPaused pause = only(events, RunEvent.WorkflowPaused.class);

        WorkflowRun ended = ENGINE.resume(workflow, throughJson(pause.paused()), FormAnswer.submitted(
                pause.newForms().get(0), "reject", Map.of("feedback", "not yet")), event -> { }).await();

        assertThat(ended.outputs()).containsOnly(Map.entry("shown", "Please review: v2\n\nFeedback: not yet"));
    }

    @Test
    void anExpiredFormTakesTheTimeoutBranchAndSaysSo() throws Exception {
        Workflow workflow = Dsl.workflow(NODES, EDGES);
        List<RunEvent> events = new CopyOnWriteArrayList<>();
        ENGINE.run(workflow, Map.of("draft", "v3"), events::add);
        RunEvent.WorkflowPaused pause = only(events, RunEvent.WorkflowPaused.class);

        List<RunEvent> after = new CopyOnWriteArrayList<>();
        WorkflowRun ended = ENGINE.resume(workflow, throughJson(pause.paused()),
                FormAnswer.timedOut(pause.newForms().get(0)), after::add).await();

        assertThat(ended.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(ended.outputs()).containsOnly(Map.entry("action", ""));
        assertThat(only(after, RunEvent.HumanInputFormTimeout.class).expirationTime())
                .isEqualTo(pause.newForms().get(0).expirationTime());
    }

    @Test
    void twoFormsInParallelPauseOnceAndTheRunEndsAfterTheSecondAnswer() throws Exception {
        Workflow workflow = Dsl.workflow("""
                - {id: start, data: {type: start, title: Start, variables: []}}
                - {id: a, data: {type: human-input, title: A, form_content: 'A?', inputs: [], user_actions: [{id: yes, title: 'Yes'}]}}
                - {id: b, data: {type: human-input, title: B, form_content: 'B?', inputs: [], user_actions: [{id: yes, title: 'Yes'}]}}
                - {id: end, data: {type: end, title: End, outputs: [{variable: a, value_selector: [a, __action_id]}, {variable: b, value_selector: [b, __action_id]}]}}
                """, """
                - {source: start, target: a}
                - {source: start, target: b}
                - {source: a, sourceHandle: 'yes', target: end}
                - {source: b, sourceHandle: 'yes', target: end}
                """);
        List<RunEvent> events = new CopyOnWriteArrayList<>();
        ENGINE.run(workflow, Map.of(), events::add);
        RunEvent.WorkflowPaused first = only(events, RunEvent.WorkflowPaused.class);
        assertThat(first.paused().waitingNodes()).containsExactlyInAnyOrder("a", "b");
        assertThat(first.newForms()).hasSize(2);
        HumanInputForm formA = first.newForms().stream().filter(form -> form.nodeId().equals("a")).findFirst().orElseThrow();
        HumanInputForm formB = first.newForms().stream().filter(form -> form.nodeId().equals("b")).findFirst().orElseThrow();

        List<RunEvent> second = new CopyOnWriteArrayList<>();
        WorkflowRun stillPaused = ENGINE.resume(workflow, throughJson(first.paused()),
                FormAnswer.submitted(formA, "yes", Map.of()), second::add).await();
        assertThat(stillPaused.status()).isEqualTo(RunStatus.PAUSED);
        RunEvent.WorkflowPaused again = only(second, RunEvent.WorkflowPaused.class);
        assertThat(again.paused().waitingNodes()).containsExactly("b");
        assertThat(again.newForms()).as("no new form: b's form is still out").isEmpty();
        assertThat(again.paused().forms()).containsExactly(formB);

        WorkflowRun ended = ENGINE.resume(workflow, throughJson(again.paused()),
                FormAnswer.submitted(formB, "yes", Map.of()), event -> { }).await();
        assertThat(ended.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(ended.outputs()).containsEntry("a", "yes").containsEntry("b", "yes");
    }

    @Test
    void aFormInsideAnIterationFailsTheRunWithAClearError() {
        Workflow workflow = Dsl.workflow("""
                - {id: start, data: {type: start, title: Start, variables: []}}
                - {id: list, data: {type: code, title: List, code_language: javascript, variables: [],
                    code: 'function main() { return {items: [1]}; }', outputs: {items: {type: 'array[number]'}}}}
                - {id: loop, data: {type: iteration, title: Each, iterator_selector: [list, items], output_selector: [ask, __action_id], start_node_id: loopstart}}
                - {id: loopstart, parentId: loop, data: {type: iteration-start, title: '', isInIteration: true}}
                - {id: ask, parentId: loop, data: {type: human-input, title: Ask, form_content: '?', inputs: [], user_actions: [{id: ok, title: OK}], isInIteration: true}}
                - {id: end, data: {type: end, title: End, outputs: []}}
                """, """
                - {source: start, target: list}
                - {source: list, target: loop}
                - {source: loopstart, target: ask}
                - {source: loop, target: end}
                """);
        WorkflowRun run = ENGINE.run(workflow, Map.of());
        assertThat(run.status()).isEqualTo(RunStatus.FAILED);
        assertThat(run.error()).contains("cannot wait inside an iteration");
    }

    @Test
    void aNodeWithTwoActionsOfOneIdIsRefusedWhenTheWorkflowIsRead() {
        Workflow workflow = Dsl.workflow("""
                - {id: start, data: {type: start, title: Start, variables: []}}
                - {id: ask, data: {type: human-input, title: Ask, inputs: [], user_actions: [{id: ok, title: A}, {id: ok, title: B}]}}
                """, "- {source: start, target: ask}\n");
        assertThatThrownBy(() -> ENGINE.engine().prepare(workflow)).isInstanceOf(InvalidWorkflowException.class)
                .hasMessageContaining("duplicated user action id 'ok'");
    }

    /** The paused run as a store gives it back: written as JSON and read again. */
    private static PausedRun throughJson(PausedRun paused) throws Exception {
        String text = JSON.writeValueAsString(paused);
        return JSON.readValue(text, new TypeReference<PausedRun>() { });
    }

    private static <T extends RunEvent> T only(List<RunEvent> events, Class<T> type) {
        List<T> found = events.stream().filter(type::isInstance).map(type::cast).toList();
        assertThat(found).as(type.getSimpleName()).hasSize(1);
        return found.get(0);
    }
}
