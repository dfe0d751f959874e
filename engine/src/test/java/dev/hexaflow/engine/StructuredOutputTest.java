package dev.hexaflow.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.domain.workflow.InvalidWorkflowException;
import dev.hexaflow.domain.workflow.NodeExecution;
import dev.hexaflow.domain.workflow.NodeStatus;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.domain.workflow.WorkflowRun;
import dev.hexaflow.workflow.engine.RunRequest;
import dev.hexaflow.workflow.engine.WorkflowEngine;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * An LLM node's structured output through the engine and the OpenAI-compatible adapter, against a model server on
 * loopback that records each request: the schema as the response format of a model that takes one, else in the
 * system prompt; the answer read (fenced, after reasoning) and checked; its failures and limits.
 */
class StructuredOutputTest {

    static final FakeModelServer MODEL = new FakeModelServer();
    static final WorkflowEngine NATIVE = Engines.standard(EngineConfiguration.fromEnvironment(
            Map.of("HEXAFLOW_LLM_JSON_SCHEMA", "openai/gpt-4o")).withLlm(MODEL.baseUrl(), "sk-t"));
    static final WorkflowEngine PROMPTED = Engines.standard(EngineConfiguration.fromEnvironment(Map.of())
            .withLlm(MODEL.baseUrl(), "sk-t"));

    static final String SCHEMA = "{type: object, properties: {name: {type: string}, age: {type: integer}, "
            + "mood: {type: string, enum: [calm, cross]}, tags: {type: array, items: {type: string}}}, "
            + "required: [name, age], additionalProperties: false}";

    private final List<RunEvent> events = new CopyOnWriteArrayList<>();

    @AfterAll
    static void stop() {
        MODEL.close();
    }

    /** start → llm (structured output) → end showing the answer's name and the whole object. */
    static Workflow workflow(String schema, String extra) {
        return Dsl.workflow("""
                - {id: start, data: {type: start, title: Start, variables: []}}
                - id: llm
                  data:
                    type: llm
                    title: Reader
                    model: {provider: openai, name: gpt-4o, mode: chat, completion_params: {temperature: 0.1}}
                    prompt_template:
                      - {role: system, text: 'You read people.'}
                      - {role: user, text: 'Ann is 30.'}
                    context: {enabled: false}
                    structured_output_enabled: true
                    structured_output: {schema: %s}
                    %s
                - {id: end, data: {type: end, title: End, outputs: [{variable: name, value_selector: [llm, structured_output, name]}, {variable: all, value_selector: [llm, structured_output]}]}}
                """.formatted(schema, extra), """
                - {source: start, target: llm}
                - {source: llm, target: end}
                """);
    }

    private WorkflowRun run(WorkflowEngine engine, Workflow workflow) {
        return engine.run(engine.prepare(workflow), RunRequest.of(workflow, "u", Map.of()), events::add);
    }

    private JsonNode lastRequest() {
        return MODEL.requests().get(MODEL.requests().size() - 1);
    }

    private NodeExecution llm() {
        return events.stream().filter(e -> e instanceof RunEvent.NodeFinished)
                .map(e -> ((RunEvent.NodeFinished) e).execution()).filter(e -> e.nodeId().equals("llm"))
                .findFirst().orElseThrow();
    }

    @Test
    void aModelThatTakesASchemaGetsItAsItsResponseFormatAndTheObjectFeedsTheNextNode() {
        MODEL.answer(FakeModelServer.Script.text("{\"name\": \"Ann\", \"age\": 30, \"tags\": [\"a\"]}", 5, 5));

        WorkflowRun run = run(NATIVE, workflow(SCHEMA, ""));

        assertThat(run.status()).as(run.error()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(run.outputs()).containsEntry("name", "Ann");
        assertThat(run.outputs().get("all")).isEqualTo(Map.of("name", "Ann", "age", 30L, "tags", List.of("a")));
        JsonNode format = lastRequest().get("response_format");
        assertThat(format.get("type").asText()).isEqualTo("json_schema");
        assertThat(format.at("/json_schema/name").asText()).isEqualTo("llm_response");
        assertThat(format.at("/json_schema/schema/required/1").asText()).isEqualTo("age");
        assertThat(lastRequest().at("/messages/0/content").asText()).isEqualTo("You read people.");
        assertThat(lastRequest().get("temperature").asDouble()).isEqualTo(0.1);
    }

    @Test
    void anyOtherModelGetsTheSchemaInDifysPromptBeforeTheSystemPromptAndMayAnswerInAFence() {
        MODEL.answer(FakeModelServer.Script.text("Here it is:\n```json\n{\"name\": \"Ann\", \"age\": 30}\n```", 5, 5));

        WorkflowRun run = run(PROMPTED, workflow(SCHEMA, ""));

        assertThat(run.status()).as(run.error()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(run.outputs()).containsEntry("name", "Ann");
        JsonNode request = lastRequest();
        assertThat(request.has("response_format")).isFalse();
        assertThat(request.get("messages")).hasSize(2);
        String system = request.at("/messages/0/content").asText();
        assertThat(request.at("/messages/0/role").asText()).isEqualTo("system");
        assertThat(system).startsWith("You’re a helpful AI assistant. You could answer questions and output in JSON")
                .contains("Here is the JSON schema:\n{\"type\": \"object\", \"properties\": {\"name\": {\"type\": "
                        + "\"string\"}")
                .endsWith("\n\nYou read people.");
        assertThat(request.at("/messages/1/content").asText()).isEqualTo("Ann is 30.");
        assertThat(llm().outputs()).containsKey("structured_output");
    }

    @Test
    void aLeadingThinkBlockIsNoPartOfTheObject() {
        MODEL.answer(FakeModelServer.Script.text("<think>{\"name\": 1}</think>{\"name\": \"Bo\", \"age\": 4}", 5, 5));

        WorkflowRun run = run(NATIVE, workflow(SCHEMA, ""));

        assertThat(run.outputs()).as(run.error()).containsEntry("name", "Bo");
    }

    @Test
    void anAnswerThatIsNoJsonFailsTheNodeNamingItAndWhatTheAnswerWas() {
        MODEL.answer(FakeModelServer.Script.text("Sorry, I cannot do that.", 5, 5));

        WorkflowRun run = run(NATIVE, workflow(SCHEMA, ""));

        assertThat(run.status()).isEqualTo(RunStatus.FAILED);
        assertThat(run.error()).startsWith("Failed to parse structured output (stage=result, path=$): Failed to "
                + "parse structured output: Sorry, I cannot do that.").contains("node \"Reader\" (llm)");
        assertThat(llm().status()).isEqualTo(NodeStatus.FAILED);
        assertThat(llm().error()).isEqualTo(run.error());
    }

    @Test
    void anObjectThatDoesNotFitTheSchemaFailsTheNodeWithThePathAndTheProblem() {
        MODEL.answer(FakeModelServer.Script.text("{\"name\": \"Ann\", \"age\": \"thirty\"}", 5, 5));
        WorkflowRun wrongType = run(NATIVE, workflow(SCHEMA, ""));
        MODEL.answer(FakeModelServer.Script.text("{\"name\": \"Ann\"}", 5, 5));
        WorkflowRun missing = run(NATIVE, workflow(SCHEMA, ""));
        MODEL.answer(FakeModelServer.Script.text("{\"name\": \"Ann\", \"age\": 3, \"mood\": \"glad\"}", 5, 5));
        WorkflowRun notListed = run(NATIVE, workflow(SCHEMA, ""));
        MODEL.answer(FakeModelServer.Script.text("{\"name\": \"Ann\", \"age\": 3, \"tags\": [\"a\", 2]}", 5, 5));
        WorkflowRun badItem = run(NATIVE, workflow(SCHEMA, ""));
        MODEL.answer(FakeModelServer.Script.text("{\"name\": \"Ann\", \"age\": 3, \"extra\": true}", 5, 5));
        WorkflowRun extra = run(NATIVE, workflow(SCHEMA, ""));

        assertThat(wrongType.error()).startsWith("Structured output validation failed (stage=result, path=$.age): "
                + "'thirty' is not of type 'integer'");
        assertThat(missing.error()).startsWith("Structured output validation failed (stage=result, path=$): "
                + "'age' is a required property");
        assertThat(notListed.error()).contains("path=$.mood): 'glad' is not one of ['calm', 'cross']");
        assertThat(badItem.error()).contains("path=$.tags[1]): 2 is not of type 'string'");
        assertThat(extra.error()).contains("Additional properties are not allowed ('extra' was unexpected)")
                .endsWith("in node \"Reader\" (llm)");
    }

    @Test
    void theNodesErrorStrategyAppliesToAnAnswerThatDoesNotFit() {
        MODEL.answer(FakeModelServer.Script.text("{\"name\": 7, \"age\": 3}", 5, 5));

        WorkflowRun run = run(NATIVE, workflow(SCHEMA, """
                error_strategy: default-value
                    default_value: [{key: text, type: string, value: fallback}, {key: structured_output, type: object, value: {name: nobody}}]"""));

        assertThat(run.status()).as(run.error()).isIn(RunStatus.SUCCEEDED, RunStatus.PARTIAL_SUCCEEDED);
        assertThat(run.outputs()).containsEntry("name", "nobody");
    }

    @Test
    void aSchemaThatIsNoObjectFailsTheNodeBeforeTheModelIsAsked() {
        int before = MODEL.requests().size();

        WorkflowRun run = run(NATIVE, workflow("'not a schema'", ""));

        assertThat(run.error()).startsWith("Invalid structured output schema (stage=schema, path=$.schema): expected "
                + "a JSON object");
        assertThat(MODEL.requests()).hasSize(before);
    }

    @Test
    void aSchemaTooLargeOrTooDeepIsRefusedWhenTheWorkflowIsPrepared() {
        String large = "{type: object, description: '" + "x".repeat(70_000) + "'}";
        String deep = "{type: object, properties: {a: ".repeat(20) + "{type: string}" + "}}".repeat(20);

        assertThatThrownBy(() -> NATIVE.prepare(workflow(large, ""))).isInstanceOf(InvalidWorkflowException.class)
                .hasMessageContaining("node llm (Reader): structured_output.schema has 70").hasMessageContaining("65536");
        assertThatThrownBy(() -> NATIVE.prepare(workflow(deep, ""))).isInstanceOf(InvalidWorkflowException.class)
                .hasMessageContaining("nests deeper than 32 levels");
    }

    @Test
    void anAnswerTooLargeOrTooDeepToReadFailsTheNode() {
        MODEL.answer(FakeModelServer.Script.text("{\"name\": \"" + "a".repeat(1024 * 1024) + "\", \"age\": 1}", 5, 5));
        WorkflowRun large = run(NATIVE, workflow(SCHEMA, ""));
        MODEL.answer(FakeModelServer.Script.text("{\"name\": " + "[".repeat(5000) + "]".repeat(5000) + "}", 5, 5));
        WorkflowRun deep = run(NATIVE, workflow(SCHEMA, ""));

        assertThat(large.status()).isEqualTo(RunStatus.FAILED);
        assertThat(large.error()).contains("the answer has 1048").contains("more than the 1048576 read for one");
        assertThat(deep.error()).contains("the answer's JSON nests deeper than 64 levels");
    }

    @Test
    void withStructuredOutputSwitchedOffTheNodeHasNoStructuredOutputAndSendsNoFormat() {
        MODEL.answer(FakeModelServer.Script.text("{\"name\": \"Ann\"}", 5, 5));
        Workflow off = Dsl.workflow("""
                - {id: start, data: {type: start, title: Start, variables: []}}
                - id: llm
                  data:
                    type: llm
                    title: Reader
                    model: {provider: openai, name: gpt-4o, mode: chat}
                    prompt_template: [{role: user, text: hi}]
                    context: {enabled: false}
                    structured_output_switch_on: false
                    structured_output: {schema: %s}
                - {id: end, data: {type: end, title: End, outputs: [{variable: text, value_selector: [llm, text]}]}}
                """.formatted(SCHEMA), "- {source: start, target: llm}\n- {source: llm, target: end}");

        WorkflowRun run = run(NATIVE, off);

        assertThat(run.outputs()).as(run.error()).isEqualTo(Map.of("text", "{\"name\": \"Ann\"}"));
        assertThat(lastRequest().has("response_format")).isFalse();
        assertThat(llm().outputs()).doesNotContainKey("structured_output");
    }
}
