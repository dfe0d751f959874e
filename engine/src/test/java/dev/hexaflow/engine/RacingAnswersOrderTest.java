package dev.hexaflow.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.adapters.dsl.YamlWorkflowDslReader;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.domain.workflow.WorkflowRun;
import dev.hexaflow.engine.EngineConfiguration;
import dev.hexaflow.engine.Engines;
import dev.hexaflow.testing.SharedFolder;
import dev.hexaflow.workflow.engine.ChatTurn;
import dev.hexaflow.workflow.engine.PreparedWorkflow;
import dev.hexaflow.workflow.engine.RunRequest;
import dev.hexaflow.workflow.engine.WorkflowEngine;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Which answer streams first when two answer nodes race, as Dify's response coordinator orders them
 * ({@code graph_engine/response_coordinator/coordinator.py}): each answer node's session starts once every path
 * to it has no branch left to decide; sessions start in the order their paths become certain and wait in line
 * behind the one streaming. In {@code test_complex_branch.yml} on "hello world", Answer 2 ({{#llm.text#}}) is
 * certain as soon as Start's edge is taken (its path through the LLM crosses no branch), Answer 1 ("contains
 * 'hello'") only once the IF/ELSE takes its true branch; so Answer 2 streams first, the LLM's text whole, then
 * Answer 1, whether the model answers at once (the LLM may finish before the IF/ELSE) or slowly (Answer 1 waits
 * for the LLM's last chunk). The run's {@code outputs.answer} is another thing: Dify joins the answers in the order
 * their nodes succeed, so there "contains 'hello'" comes first. Dify's own test asserts only that output.
 */
class RacingAnswersOrderTest {

    static final FakeModelServer MODEL = new FakeModelServer();
    static final WorkflowEngine ENGINE = Engines.standard(EngineConfiguration.fromEnvironment(Map.of())
            .withLlm(MODEL.baseUrl(), "test-key"));
    static final String LLM_TEXT = "This is a mocked LLM response for hello world";

    @AfterAll
    static void stopModel() {
        MODEL.close();
    }

    @ParameterizedTest(name = "a model pausing {0} ms between chunks")
    @ValueSource(longs = {0, 150})
    void theAnswerCertainFirstStreamsFirstWhileOutputsJoinTheAnswersInTheOrderTheyFinished(long pause)
            throws Exception {
        PreparedWorkflow workflow = ENGINE.prepare(new YamlWorkflowDslReader().read(Files.readAllBytes(
                SharedFolder.require(ChatflowConformanceTest.CORPUS + "test_complex_branch.yml"))));
        MODEL.answer(FakeModelServer.Script.text(LLM_TEXT, 10, 5).pausing(pause));
        List<RunEvent> events = new CopyOnWriteArrayList<>();

        WorkflowRun run = ENGINE.run(workflow, RunRequest.of(workflow.workflow(), "order", Map.of())
                .withChat(ChatTurn.first("hello world", "c-1")), events::add);

        String streamed = events.stream().filter(RunEvent.TextChunk.class::isInstance)
                .map(event -> ((RunEvent.TextChunk) event).text()).reduce("", String::concat);
        assertThat(run.status().wireName()).as(run.error()).isEqualTo("succeeded");
        assertThat(streamed).isEqualTo(LLM_TEXT + "contains 'hello'");
        assertThat(run.outputs().get("answer")).isEqualTo("contains 'hello'" + LLM_TEXT);
    }
}
