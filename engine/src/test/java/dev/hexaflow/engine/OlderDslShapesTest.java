package dev.hexaflow.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.adapters.dsl.YamlWorkflowDslReader;
import dev.hexaflow.adapters.nodes.fakes.FakeHttpTarget;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.domain.workflow.FileValue;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.domain.workflow.WorkflowRun;
import dev.hexaflow.workflow.engine.ChatTurn;
import dev.hexaflow.workflow.engine.RunListener;
import dev.hexaflow.workflow.engine.RunRequest;
import dev.hexaflow.workflow.engine.WorkflowEngine;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The older DSL shapes Dify's import still reads, each a small file in {@code olddsl/}, imported and run. Each
 * file's comment names the Dify source that reads its shape.
 */
class OlderDslShapesTest {

    static final FakeModelServer MODEL = new FakeModelServer();
    static final FakeHttpTarget TARGET = new FakeHttpTarget();
    /** The target is on loopback, which the operator allows here as an operator would. */
    static final WorkflowEngine ENGINE = Engines.standard(EngineConfiguration.fromEnvironment(
            Map.of("HEXAFLOW_OUTBOUND_ALLOW", "127.0.0.1")).withLlm(MODEL.baseUrl(), null));

    static final EngineConfiguration CONFIG = EngineConfiguration.fromEnvironment(Map.of())
            .withLlm(MODEL.baseUrl(), null);
    /** With two small knowledge bases (AgentKnowledgeToolTest's), for the knowledge-retrieval files. */
    static final WorkflowEngine WITH_KNOWLEDGE = Engines.standard(CONFIG, null, CONFIG::outbound, owned -> { },
            services -> services.withKnowledge(new AgentKnowledgeToolTest.WordsRetriever()));

    private final List<RunEvent> events = new ArrayList<>();

    @AfterAll
    static void stop() {
        MODEL.close();
        TARGET.close();
    }

    static Workflow file(String name) {
        try (InputStream in = OlderDslShapesTest.class.getResourceAsStream("/olddsl/" + name)) {
            return new YamlWorkflowDslReader().read(in.readAllBytes());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private WorkflowRun run(String name, Map<String, Object> inputs) {
        Workflow workflow = file(name);
        WorkflowRun run = ENGINE.run(ENGINE.prepare(workflow), RunRequest.of(workflow, "u", inputs), events::add);
        assertThat(run.status()).as(run.error()).isEqualTo(RunStatus.SUCCEEDED);
        return run;
    }

    private WorkflowRun chat(String name, String query) {
        Workflow workflow = file(name);
        WorkflowRun run = ENGINE.run(ENGINE.prepare(workflow), RunRequest.of(workflow, "u", Map.of())
                .withChat(ChatTurn.first(query, "c1")), events::add);
        assertThat(run.status()).as(run.error()).isEqualTo(RunStatus.SUCCEEDED);
        return run;
    }

    private String lastModelRequest() {
        return MODEL.requests().get(MODEL.requests().size() - 1).toString();
    }

    @Test
    void aVersionZeroOneFileWithoutKindRunsTheLegacyIfElseAsOneCaseNamedTrue() {
        assertThat(file("legacy-if-else-v0.1.0.yml").dslVersion()).isEqualTo("0.1.0");

        assertThat(run("legacy-if-else-v0.1.0.yml", Map.of("n", 9)).outputs()).isEqualTo(Map.of("size", true));
        assertThat(run("legacy-if-else-v0.1.0.yml", Map.of("n", 2)).outputs()).isEqualTo(Map.of("small", 2L));
    }

    @Test
    void aFileWithoutVersionOrWithAnEmptyOneIsReadAsZeroOneZero() {
        assertThat(file("no-version-template.yml").dslVersion()).isEqualTo("0.1.0");
        assertThat(Dsl.read("app: {name: t, mode: workflow}\nversion: ''\nkind: other\n"
                + "workflow: {graph: {nodes: [], edges: []}}").dslVersion()).isEqualTo("0.1.0");

        assertThat(run("no-version-template.yml", Map.of("who", "Ada")).outputs())
                .isEqualTo(Map.of("text", "Hello Ada!"));
    }

    @Test
    void theAggregatorUnderItsOldNameGivesTheFirstVariableThatHasAValue() {
        assertThat(run("aggregator-old-name.yml", Map.of("b", "second")).outputs())
                .isEqualTo(Map.of("chosen", "second"));
    }

    @Test
    void aStringBodyIsOneTextItemAndTheOldAuthorizationShapesAreRead() {
        WorkflowRun run = run("http-string-body.yml", Map.of("q", "cats", "url", TARGET.url("/old")));

        assertThat(run.outputs()).isEqualTo(Map.of("status", 200L, "second", 200L));
        List<FakeHttpTarget.Seen> seen = TARGET.seen().subList(TARGET.seen().size() - 2, TARGET.seen().size());
        assertThat(seen.get(0).body()).isEqualTo("{\"q\": \"cats\"}");
        assertThat(seen.get(0).uri()).isEqualTo("/old?page=1");
        assertThat(seen.get(0).headers()).containsEntry("authorization", "Bearer the-key")
                .containsEntry("x-old", "yes").containsEntry("content-type", "application/json");
        assertThat(seen.get(1).body()).isEqualTo("plain cats");
        assertThat(seen.get(1).headers()).doesNotContainKey("authorization");
    }

    @Test
    void plainToolConfigurationsAreTheToolsArgumentsBesideTypedParameters() {
        assertThat(run("tool-plain-configurations.yml", Map.of("d", 1)).outputs().get("text").toString())
                .contains("January 1, 2024", "Monday");
    }

    @Test
    void anIterationWithoutAStartNodeRunsFromItsStartNodeIdOverTheNodesThatNameIt() {
        assertThat(run("iteration-without-start-node.yml", Map.of()).outputs())
                .isEqualTo(Map.of("all", List.of("a!", "b!")));
    }

    @Test
    void aListOperatorWithoutExtractByFiltersAndOrders() {
        assertThat(run("list-operator-without-extract-by.yml", Map.of()).outputs())
                .isEqualTo(Map.of("kept", List.of(3L, 2L)));
    }

    @Test
    void aLoopRunsTheNodesThatNameItByLoopIdAndNeedsNoLoopVariables() {
        assertThat(run("loop-children-by-loop-id.yml", Map.of("x", "same")).outputs())
                .isEqualTo(Map.of("x", "same"));
        assertThat(events).filteredOn(RunEvent.NodeStarted.class::isInstance)
                .extracting(event -> ((RunEvent.NodeStarted) event).execution().nodeId())
                .filteredOn("say"::equals).hasSize(2);
    }

    @Test
    void systemVariablesUnderTheStartNodesIdAreReadInConditionsPromptsAndAnswers() {
        MODEL.answer(FakeModelServer.Script.text("Hello!", 3, 2));

        WorkflowRun run = chat("chatflow-sys-under-start.yml", "hi there");

        assertThat(run.outputs()).containsEntry("answer", "Hello! / hi there");
        assertThat(lastModelRequest()).contains("Q: hi there");
        events.clear();
        assertThat(chat("chatflow-sys-under-start.yml", "bye").outputs())
                .containsEntry("answer", "no greeting in bye");
    }

    @Test
    void theFirstAssignerOverwritesAndAppendsConversationVariables() {
        chat("assigner-v1.yml", "remember me");

        Map<String, Object> variables = events.stream().filter(RunEvent.ConversationVariables.class::isInstance)
                .map(event -> ((RunEvent.ConversationVariables) event).values()).findFirst().orElseThrow();
        assertThat(variables).containsEntry("last", "remember me").containsEntry("seen", List.of("remember me"));
    }

    @Test
    void theClassifierSendsItsInstructionAndIgnoresANullMemory() {
        MODEL.answer(FakeModelServer.Script.text("{\"category_id\": \"2\", \"category_name\": \"outages\"}", 5, 5));

        assertThat(run("classifier-instruction.yml", Map.of("q", "the server is down")).outputs())
                .isEqualTo(Map.of("route", "outages"));
        assertThat(lastModelRequest()).contains("Outages are about servers.");
    }

    @Test
    void anExtractorWithoutReasoningModeCallsAFunction() {
        MODEL.answer(FakeModelServer.Script.toolCall("extract_parameters", "{\"city\": \"Oslo\"}"));

        assertThat(run("extractor-without-reasoning-mode.yml", Map.of("q", "weather in Oslo")).outputs())
                .isEqualTo(Map.of("city", "Oslo"));
        assertThat(lastModelRequest()).contains("extract_parameters");
    }

    @Test
    void anOldLlmNodePutsItsContextInThePromptAndNeedsNoVisionConfigs() {
        MODEL.answer(FakeModelServer.Script.text("42", 4, 1));

        assertThat(run("llm-context-old.yml", Map.of("doc", "the answer is 42", "q", "what?")).outputs())
                .isEqualTo(Map.of("text", "42"));
        assertThat(lastModelRequest()).contains("Use this: the answer is 42", "what?");
    }

    @Test
    void visionThatSaysOnlyEnabledShowsTheModelTheRunsFiles() {
        MODEL.answer(FakeModelServer.Script.text("A cat.", 9, 2));
        Workflow workflow = file("llm-vision-enabled-only.yml");
        String url = "https://images.example/cat.png";
        FileValue image = new FileValue("f1", "image", "remote_url", url, null, "cat.png", ".png", "image/png", 10,
                url);

        WorkflowRun run = ENGINE.run(ENGINE.prepare(workflow), new RunRequest(workflow, null, null, "u", Map.of(),
                List.of(image), null, null), RunListener.NONE);

        assertThat(run.outputs()).as(run.error()).isEqualTo(Map.of("text", "A cat."));
        assertThat(lastModelRequest()).contains(url);
    }

    @Test
    void knowledgeRetrievalInSingleModeAsksTheRoutingModelWhichBaseToSearch() {
        MODEL.answer(FakeModelServer.Script.toolCall(AgentKnowledgeToolTest.BASE, "{}"));

        Object found = knowledge("knowledge-single-mode.yml").outputs().get("found");

        assertThat(found.toString()).contains("25 days of paid leave");
        assertThat(lastModelRequest()).contains(AgentKnowledgeToolTest.BASE);
    }

    @Test
    void knowledgeRetrievalInMultipleModeReadsANullScoreThresholdAndNoRerankSettings() {
        assertThat(knowledge("knowledge-multiple-old.yml").outputs().get("found").toString())
                .contains("25 days of paid leave");
    }

    private static WorkflowRun knowledge(String name) {
        Workflow workflow = file(name);
        WorkflowRun run = WITH_KNOWLEDGE.run(WITH_KNOWLEDGE.prepare(workflow), RunRequest.of(workflow, "u",
                Map.of("q", "how much paid leave?")), RunListener.NONE);
        assertThat(run.status()).as(run.error()).isEqualTo(RunStatus.SUCCEEDED);
        return run;
    }
}
