package dev.hexaflow.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.domain.workflow.FileValue;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.domain.workflow.WorkflowRun;
import dev.hexaflow.engine.EngineConfiguration;
import dev.hexaflow.engine.Engines;
import dev.hexaflow.workflow.engine.RunListener;
import dev.hexaflow.workflow.engine.RunRequest;
import dev.hexaflow.workflow.engine.WorkflowEngine;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * question-classifier and parameter-extractor through the engine on a fake model, and the list-operator on files.
 * The document-extractor's reader and file fetcher are tested in adapters-nodes.
 */
class ClassifierExtractorAndListNodesTest {

    static final FakeModelServer MODEL = new FakeModelServer();
    static final WorkflowEngine ENGINE = Engines.standard(EngineConfiguration.fromEnvironment(Map.of())
            .withLlm(MODEL.baseUrl(), null));

    @AfterAll
    static void stop() {
        MODEL.close();
    }

    private static Workflow classifier() {
        return Dsl.workflow("""
                - {id: start, data: {type: start, title: Start, variables: [{variable: q, type: text-input}]}}
                - id: qc
                  data:
                    type: question-classifier
                    title: QC
                    model: {provider: openai, name: gpt-4o-mini, mode: chat}
                    query_variable_selector: [start, q]
                    classes: [{id: '1', name: billing}, {id: '2', name: technical}]
                - {id: e1, data: {type: end, title: E1, outputs: [{variable: route, value_selector: [qc, class_name]}]}}
                - {id: e2, data: {type: end, title: E2, outputs: [{variable: tech, value_selector: [qc, class_id]}]}}
                """, """
                - {source: start, target: qc}
                - {source: qc, sourceHandle: '1', target: e1}
                - {source: qc, sourceHandle: '2', target: e2}
                """);
    }

    @Test
    void theClassifierFollowsTheEdgesOfTheClassTheModelChose() {
        MODEL.answer(FakeModelServer.Script.text("Sure: {\"category_id\": \"2\", \"category_name\": \"technical\"}",
                20, 8));
        Workflow workflow = classifier();

        WorkflowRun run = ENGINE.run(ENGINE.prepare(workflow), RunRequest.of(workflow, "u",
                Map.of("q", "my server is down")), RunListener.NONE);

        assertThat(run.outputs()).isEqualTo(Map.of("tech", "2"));
        assertThat(run.totalTokens()).isEqualTo(28);
        String sent = MODEL.requests().get(MODEL.requests().size() - 1).toString();
        assertThat(sent).contains("billing", "technical", "my server is down");
    }

    @Test
    void anAnswerNamingNoClassTakesTheFirstClass() {
        MODEL.answer(FakeModelServer.Script.text("I cannot tell.", 1, 1));
        Workflow workflow = classifier();

        WorkflowRun run = ENGINE.run(ENGINE.prepare(workflow), RunRequest.of(workflow, "u", Map.of("q", "?")),
                RunListener.NONE);

        assertThat(run.outputs()).isEqualTo(Map.of("route", "billing"));
    }

    private static Workflow extractor(String mode) {
        return Dsl.workflow("""
                - {id: start, data: {type: start, title: Start, variables: [{variable: q, type: paragraph}]}}
                - id: px
                  data:
                    type: parameter-extractor
                    title: PX
                    model: {provider: openai, name: gpt-4o-mini, mode: chat}
                    query: [start, q]
                    reasoning_mode: %s
                    parameters:
                      - {name: city, type: string, description: the city, required: true}
                      - {name: days, type: number, description: how many days, required: false}
                      - {name: unit, type: select, options: [metric, imperial], required: false}
                - id: end
                  data:
                    type: end
                    title: End
                    outputs:
                      - {variable: city, value_selector: [px, city]}
                      - {variable: days, value_selector: [px, days]}
                      - {variable: ok, value_selector: [px, __is_success]}
                      - {variable: why, value_selector: [px, __reason]}
                """.formatted(mode), """
                - {source: start, target: px}
                - {source: px, target: end}
                """);
    }

    @Test
    void theExtractorReadsAToolCallAndChecksTypes() {
        MODEL.answer(FakeModelServer.Script.toolCall("extract_parameters", "{\"city\": \"Oslo\", \"days\": \"3\"}"));
        Workflow workflow = extractor("function_call");

        WorkflowRun run = ENGINE.run(ENGINE.prepare(workflow), RunRequest.of(workflow, "u",
                Map.of("q", "weather in Oslo for 3 days")), RunListener.NONE);

        assertThat(run.outputs()).containsEntry("city", "Oslo").containsEntry("days", 3L).containsEntry("ok", 1L);
        assertThat(MODEL.requests().get(MODEL.requests().size() - 1).get("tools").get(0).get("function")
                .get("name").asText()).isEqualTo("extract_parameters");
    }

    @Test
    void theExtractorInPromptModeReportsAMissingRequiredParameter() {
        MODEL.answer(FakeModelServer.Script.text("```json\n{\"days\": 2, \"unit\": \"kelvin\"}\n```", 1, 1));
        Workflow workflow = extractor("prompt");

        WorkflowRun run = ENGINE.run(ENGINE.prepare(workflow), RunRequest.of(workflow, "u",
                Map.of("q", "two days")), RunListener.NONE);

        assertThat(run.outputs()).containsEntry("city", "").containsEntry("days", 2L).containsEntry("ok", 0L);
        assertThat(run.outputs()).containsEntry("why", "Required parameter city is missing");
        assertThat(MODEL.requests().get(MODEL.requests().size() - 1).has("tools")).isFalse();
    }

    @Test
    void theListOperatorSortsFiltersAndSlicesFilesByAttribute() {
        Workflow workflow = Dsl.workflow("""
                - {id: start, data: {type: start, title: Start, variables: [{variable: docs, type: file-list}]}}
                - id: ops
                  data:
                    type: list-operator
                    title: Ops
                    variable: [start, docs]
                    filter_by: {enabled: true, conditions: [{key: size, comparison_operator: '≥', value: '10'}]}
                    order_by: {enabled: true, key: name, value: desc}
                    limit: {enabled: true, size: 2}
                - {id: end, data: {type: end, title: End, outputs: [{variable: first, value_selector: [ops, first_record, name]}]}}
                """, """
                - {source: start, target: ops}
                - {source: ops, target: end}
                """);
        List<FileValue> files = List.of(file("a.txt", 5), file("b.txt", 10), file("c.txt", 20), file("d.txt", 30));

        WorkflowRun run = ENGINE.run(ENGINE.prepare(workflow), RunRequest.of(workflow, "u", Map.of("docs", files)),
                RunListener.NONE);

        assertThat(run.outputs()).isEqualTo(Map.of("first", "d.txt"));
    }

    private static FileValue file(String name, long size) {
        return new FileValue(name, "document", "remote_url", "http://h/" + name, null, name, ".txt", "text/plain",
                size, null);
    }
}
