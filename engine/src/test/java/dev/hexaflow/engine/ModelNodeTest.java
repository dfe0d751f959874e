package dev.hexaflow.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.dsl.YamlWorkflowDslReader;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.domain.workflow.NodeExecution;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.domain.workflow.WorkflowRun;
import dev.hexaflow.engine.EngineConfiguration;
import dev.hexaflow.engine.Engines;
import dev.hexaflow.testing.SharedFolder;
import dev.hexaflow.workflow.engine.PreparedWorkflow;
import dev.hexaflow.workflow.engine.RunHandle;
import dev.hexaflow.workflow.engine.RunRequest;
import dev.hexaflow.workflow.engine.WorkflowEngine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The llm node of a conformance fixture through the engine and the OpenAI-compatible adapter, against a real
 * streaming server on loopback: streaming order, the request sent, a stop. How the adapter reports an endpoint's
 * failures is tested in adapters-nodes (OpenAiCompatibleModelProviderTest).
 */
class ModelNodeTest {

    static final FakeModelServer MODEL = new FakeModelServer();
    static final WorkflowEngine ENGINE = Engines.standard(EngineConfiguration.fromEnvironment(
            Map.of("HEXAFLOW_LLM_MODELS", "langgenius/openai/openai=local-model")).withLlm(MODEL.baseUrl(), "sk-t"));

    private final List<RunEvent> events = new CopyOnWriteArrayList<>();

    @AfterAll
    static void stop() {
        MODEL.close();
    }

    private static Workflow fixture() throws Exception {
        Path file = SharedFolder.require("conformance/dify-dsl/conditional_streaming_vs_template_workflow.yml");
        return new YamlWorkflowDslReader().read(Files.readAllBytes(file));
    }

    private WorkflowRun run(Workflow workflow, Map<String, Object> inputs) {
        PreparedWorkflow prepared = ENGINE.prepare(workflow);
        return ENGINE.run(prepared, RunRequest.of(workflow, "u", inputs), events::add);
    }

    private List<String> chunks() {
        return events.stream().filter(e -> e instanceof RunEvent.TextChunk).map(e -> ((RunEvent.TextChunk) e).text())
                .toList();
    }

    @Test
    void aModelsTextStreamsTokenByTokenInTheEndsOrderWhenTheEndShowsItDirectly() throws Exception {
        MODEL.answer(FakeModelServer.Script.text("This is streamed", 7, 3));

        WorkflowRun run = run(fixture(), Map.of("query", "hello", "blocking", 0));

        assertThat(run.status()).as(run.error()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(run.outputs()).isEqualTo(Map.of("query", "hello", "text", "This is streamed"));
        assertThat(chunks()).containsExactly("hello", "\n", "This", " is", " streamed");
        assertThat(run.totalTokens()).isEqualTo(10);
    }

    @Test
    void aModelsTextPassedThroughATemplateArrivesWholeAfterTheRun() throws Exception {
        MODEL.answer(FakeModelServer.Script.text("This is whole", 7, 3));

        WorkflowRun run = run(fixture(), Map.of("query", "hello", "blocking", 1));

        assertThat(run.outputs()).isEqualTo(Map.of("query", "hello", "text", "This is whole"));
        assertThat(chunks()).containsExactly("hello", "\n", "This is whole");
    }

    @Test
    void theEndpointReceivesTheRenderedPromptsTheMappedModelAndTheParameters() throws Exception {
        MODEL.answer(FakeModelServer.Script.text("ok", 1, 1));
        int before = MODEL.requests().size();

        run(fixture(), Map.of("query", "what is up?", "blocking", 0));

        JsonNode request = MODEL.requests().get(before);
        assertThat(request.get("model").asText()).isEqualTo("local-model");
        assertThat(request.get("stream").asBoolean()).isTrue();
        assertThat(request.get("temperature").asDouble()).isEqualTo(0.7);
        assertThat(request.get("messages").get(1).get("role").asText()).isEqualTo("user");
        assertThat(request.get("messages").get(1).get("content").asText()).isEqualTo("what is up?");
        NodeExecution llm = events.stream().filter(e -> e instanceof RunEvent.NodeFinished)
                .map(e -> ((RunEvent.NodeFinished) e).execution()).filter(e -> e.nodeId().equals("17542969329740"))
                .findFirst().orElseThrow();
        assertThat(llm.outputs()).containsEntry("finish_reason", "stop");
        assertThat(((Map<?, ?>) llm.outputs().get("usage")).get("total_tokens")).isEqualTo(2L);
        assertThat(llm.metadata().totalTokens()).isEqualTo(2);
    }

    @Test
    void aStopDuringTheStreamEndsTheRunWithinASecond() throws Exception {
        MODEL.answer(FakeModelServer.Script.text("one two three four five six seven eight", 1, 1).pausing(400));
        Workflow workflow = fixture();
        RunHandle handle = ENGINE.start(ENGINE.prepare(workflow), RunRequest.of(workflow, "u",
                Map.of("query", "q", "blocking", 0)), events::add);
        Thread.sleep(600);

        long asked = System.nanoTime();
        handle.stop();
        WorkflowRun run = handle.await(Duration.ofSeconds(2));

        assertThat((System.nanoTime() - asked) / 1e9).isLessThan(1.0);
        assertThat(run.status()).isEqualTo(RunStatus.STOPPED);
        assertThat(chunks()).contains("one").doesNotContain(" eight");
    }
}
