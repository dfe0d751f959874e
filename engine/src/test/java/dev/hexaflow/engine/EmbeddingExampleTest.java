package dev.hexaflow.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.adapters.dsl.YamlWorkflowDslReader;
import dev.hexaflow.adapters.nodes.code.CodeLimits;
import dev.hexaflow.adapters.nodes.code.GraalJsCodeRunner;
import dev.hexaflow.adapters.nodes.http.JdkHttpRequester;
import dev.hexaflow.adapters.nodes.template.JinjavaTemplateRenderer;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.domain.workflow.WorkflowRun;
import dev.hexaflow.workflow.engine.PreparedWorkflow;
import dev.hexaflow.workflow.engine.RunRequest;
import dev.hexaflow.workflow.engine.WorkflowEngine;
import dev.hexaflow.workflow.nodes.StandardNodes;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An engine built by hand from the adapters a program picks, as the README's embedding section describes for those
 * who leave hexaflow-engine aside: no HTTP, no database, no model.
 */
class EmbeddingExampleTest {

    private static final String HELLO = """
            app: {name: hello, mode: workflow}
            workflow:
              graph:
                nodes:
                  - {id: start, data: {type: start, title: Start, variables: [{variable: name, type: text-input}]}}
                  - {id: greet, data: {type: template-transform, title: Greet, template: 'Hello, {{ who }}!',
                      variables: [{variable: who, value_selector: [start, name]}]}}
                  - {id: end, data: {type: end, title: End, outputs: [{variable: text, value_selector: [greet, output]}]}}
                edges:
                  - {source: start, target: greet}
                  - {source: greet, target: end}
            """;

    @Test
    void anEngineOfChosenAdaptersRunsAWorkflowInsideTheJvm() {
        List<RunEvent> events = new ArrayList<>();

        Workflow workflow = new YamlWorkflowDslReader().read(HELLO.getBytes(StandardCharsets.UTF_8));
        WorkflowEngine engine = new WorkflowEngine(StandardNodes.catalogue(StandardNodes.Services.none()
                .withTemplates(new JinjavaTemplateRenderer())            // template-transform, jinja2 prompts
                .withCodeRunners(List.of(new GraalJsCodeRunner(CodeLimits.DEFAULTS)))  // javascript code nodes
                .withHttp(new JdkHttpRequester())));                     // http-request; no model, no file store
        PreparedWorkflow prepared = engine.prepare(workflow);           // checks everything once
        WorkflowRun run = engine.run(prepared, RunRequest.of(workflow, "user-1", Map.of("name", "Ada")),
                events::add);                                            // Dify's events, in order

        assertThat(run.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(run.outputs()).isEqualTo(Map.of("text", "Hello, Ada!"));
        assertThat(events.get(0)).isInstanceOf(RunEvent.WorkflowStarted.class);
        assertThat(events.get(events.size() - 1)).isInstanceOf(RunEvent.WorkflowFinished.class);
    }
}
