package dev.hexaflow.app.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.app.EngineConfiguration;
import dev.hexaflow.app.Engines;
import dev.hexaflow.application.workflow.engine.RunListener;
import dev.hexaflow.application.workflow.engine.RunRequest;
import dev.hexaflow.application.workflow.engine.WorkflowEngine;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** template-transform through Jinjava, printing values as Jinja2 does. */
class TemplateNodeTest {

    static final WorkflowEngine ENGINE = Engines.standard(EngineConfiguration.fromEnvironment(Map.of()));

    private static WorkflowRun render(String template, Map<String, Object> inputs) {
        Workflow workflow = Dsl.workflow("""
                - {id: start, data: {type: start, title: Start, variables: [{variable: a, type: json_object}]}}
                - id: t
                  data:
                    type: template-transform
                    title: T
                    variables: [{variable: a, value_selector: [start, a]}]
                    template: %s
                - {id: end, data: {type: end, title: End, outputs: [{variable: out, value_selector: [t, output]}]}}
                """.formatted(quoted(template)), """
                - {source: start, target: t}
                - {source: t, target: end}
                """);
        return ENGINE.run(ENGINE.prepare(workflow), RunRequest.of(workflow, "u", inputs), RunListener.NONE);
    }

    private static String quoted(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
    }

    @Test
    void valuesPrintAsJinja2PrintsThemAndLoopsAndFiltersWork() {
        WorkflowRun run = render("{{ a.items }}|{{ a.items|length }}|{% for i in a.items %}{{ loop.index }}:{{ i }} "
                + "{% endfor %}|{{ a.name|upper }}\n", Map.of("a", Map.of("items", java.util.List.of("x", "y"),
                "name", "ada")));

        assertThat(run.status()).as(run.error()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(run.outputs()).containsEntry("out", "['x', 'y']|2|1:x 2:y |ADA");
    }

    @Test
    void aBrokenTemplateFailsTheNodeNamingTheLine() {
        WorkflowRun run = render("ok\n{% if %}", Map.of("a", Map.of()));

        assertThat(run.status()).isEqualTo(RunStatus.FAILED);
        assertThat(run.error()).contains("line 2");
    }

    @Test
    void outputOverTheCapFailsTheNode() {
        String big = "x".repeat(150_000);

        WorkflowRun run = render("{{ a.t }}{{ a.t }}{{ a.t }}", Map.of("a", Map.of("t", big)));

        assertThat(run.status()).isEqualTo(RunStatus.FAILED);
        assertThat(run.error()).isEqualTo("Output length exceeds 400000 characters");
    }
}
