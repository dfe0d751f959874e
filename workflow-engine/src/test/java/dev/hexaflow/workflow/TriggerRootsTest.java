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
import dev.hexaflow.domain.workflow.WorkflowRun;
import dev.hexaflow.workflow.engine.EngineSettings;
import dev.hexaflow.workflow.engine.InvalidInputsException;
import dev.hexaflow.workflow.engine.PreparedWorkflow;
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
 * Triggers as a workflow's roots, as Dify's graph takes them: a run starts from one trigger, whose node answers what
 * started it and the system variables; the other triggers' branches are skipped, a node both reach runs once; the
 * rules of roots are checked when the workflow is prepared.
 */
class TriggerRootsTest {

    private final WorkflowEngine engine = new WorkflowEngine(StandardNodes.catalogue(StandardNodes.Services.none()),
            EngineSettings.DEFAULTS, Clock.systemUTC(), () -> UUID.randomUUID().toString());
    private final List<RunEvent> events = new CopyOnWriteArrayList<>();

    private static Workflow twoTriggers() {
        return workflow()
                .node("hook", NodeType.TRIGGER_WEBHOOK, Map.of("method", "POST", "body",
                        List.of(Map.of("name", "item", "type", "string", "required", true))))
                .node("github", NodeType.TRIGGER_PLUGIN, Map.of("plugin_id", "langgenius/github", "event_name",
                        "issues"))
                .node("join", NodeType.VARIABLE_AGGREGATOR, Map.of("variables", List.of(List.of("hook", "item"),
                        List.of("github", "title"))))
                .end("end", Map.of("value", List.of("join", "output"), "user", List.of("hook", "sys.user_id")))
                .end("plugin-end", Map.of("title", List.of("github", "title")))
                .edge("hook", "join").edge("github", "join").edge("join", "end").edge("github", "plugin-end")
                .build();
    }

    private WorkflowRun run(Workflow workflow, String root, Map<String, Object> inputs) {
        PreparedWorkflow prepared = engine.prepare(workflow);
        return engine.run(prepared, RunRequest.of(workflow, "webhook-trigger", inputs).fromTrigger(root),
                events::add);
    }

    private List<String> ran() {
        return events.stream().filter(e -> e instanceof RunEvent.NodeFinished)
                .map(e -> ((RunEvent.NodeFinished) e).execution()).map(NodeExecution::nodeId).toList();
    }

    @Test
    void aRunStartsFromTheTriggerItNamesAndSkipsTheOthersBranches() {
        Map<String, Object> request = Map.of("method", "POST", "headers", Map.of(), "query_params", Map.of(), "body",
                Map.of("item", "tea"), "files", Map.of());
        WorkflowRun run = run(twoTriggers(), "hook", Map.of("webhook_data", request));

        assertThat(run.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(run.outputs()).containsEntry("value", "tea").containsEntry("user", "webhook-trigger");
        assertThat(ran()).containsExactly("hook", "join", "end");
    }

    @Test
    void aPluginTriggersEventIsItsOutputs() {
        WorkflowRun run = run(twoTriggers(), "github", Map.of("title", "Crash"));

        assertThat(run.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(run.outputs()).containsEntry("title", "Crash").containsEntry("value", "Crash");
        assertThat(ran()).containsExactlyInAnyOrder("github", "join", "end", "plugin-end");
    }

    @Test
    void aWorkflowOnlyItsTriggersStartRefusesARunByRequestAndATriggerItLacks() {
        Workflow workflow = twoTriggers();
        PreparedWorkflow prepared = engine.prepare(workflow);
        assertThatThrownBy(() -> engine.run(prepared, RunRequest.of(workflow, "ada", Map.of()), events::add))
                .isInstanceOf(InvalidInputsException.class).hasMessageContaining("starts from its triggers");
        assertThatThrownBy(() -> engine.run(prepared, RunRequest.of(workflow, "ada", Map.of()).fromTrigger("join"),
                events::add)).isInstanceOf(InvalidInputsException.class).hasMessageContaining("no trigger join");
    }

    @Test
    void theRulesOfRootsAreCheckedWhenTheWorkflowIsPrepared() {
        Workflow both = workflow().start().node("tick", NodeType.TRIGGER_SCHEDULE, Map.of("mode", "cron",
                "cron_expression", "* * * * *")).end("end", Map.of()).edge("start", "end").edge("tick", "end")
                .build();
        assertThatThrownBy(() -> engine.prepare(both)).isInstanceOf(InvalidWorkflowException.class)
                .hasMessageContaining("Start node and trigger nodes cannot coexist in the same workflow");

        Workflow twoSchedules = workflow().node("a", NodeType.TRIGGER_SCHEDULE, Map.of())
                .node("b", NodeType.TRIGGER_SCHEDULE, Map.of()).end("end", Map.of()).edge("a", "end")
                .edge("b", "end").build();
        assertThatThrownBy(() -> engine.prepare(twoSchedules)).isInstanceOf(InvalidWorkflowException.class)
                .hasMessageContaining("at most one schedule trigger");

        Workflow intoATrigger = workflow().node("a", NodeType.TRIGGER_SCHEDULE, Map.of())
                .node("b", NodeType.TRIGGER_PLUGIN, Map.of()).end("end", Map.of()).edge("a", "b").edge("b", "end")
                .build();
        assertThatThrownBy(() -> engine.prepare(intoATrigger)).isInstanceOf(InvalidWorkflowException.class)
                .hasMessageContaining("no edge may lead to it");
    }
}
