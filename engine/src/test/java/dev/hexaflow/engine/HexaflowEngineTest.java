package dev.hexaflow.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.workflow.engine.RunHandle;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedder's entry point on the standard adapters: DSL in three forms, a blocking run, events, a stop, a model. */
class HexaflowEngineTest {

    static final String HELLO = """
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

    static final String FOREVER = """
            app: {name: forever, mode: workflow}
            workflow:
              graph:
                nodes:
                  - {id: start, data: {type: start, title: Start, variables: []}}
                  - {id: spin, data: {type: code, title: Spin, code_language: javascript, variables: [],
                      code: 'function main() { while (true) {} }', outputs: {}}}
                  - {id: end, data: {type: end, title: End, outputs: []}}
                edges:
                  - {source: start, target: spin}
                  - {source: spin, target: end}
            """;

    static final String ASK = """
            app: {name: ask, mode: workflow}
            workflow:
              graph:
                nodes:
                  - {id: start, data: {type: start, title: Start, variables: [{variable: question, type: paragraph}]}}
                  - id: llm
                    data:
                      type: llm
                      title: LLM
                      model: {provider: openai, name: gpt-4o-mini, mode: chat, completion_params: {}}
                      context: {enabled: false}
                      prompt_template:
                        - {role: user, text: '{{#start.question#}}'}
                  - {id: end, data: {type: end, title: End, outputs: [{variable: answer, value_selector: [llm, text]}]}}
                edges:
                  - {source: start, target: llm}
                  - {source: llm, target: end}
            """;

    static final FakeModelServer MODEL = new FakeModelServer();

    @AfterAll
    static void closeModel() {
        MODEL.close();
    }

    @Test
    void aDslGivenAsBytesAPathOrAReaderRunsToTheSameOutputs(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("hello.yml"), HELLO);

        try (HexaflowEngine engine = HexaflowEngine.standard(EngineConfiguration.fromEnvironment(Map.of()))) {
            List<Workflow> read = List.of(engine.read(HELLO.getBytes(StandardCharsets.UTF_8)), engine.read(file),
                    engine.read(new StringReader(HELLO)));

            for (Workflow workflow : read) {
                WorkflowRun run = engine.run(workflow, Map.of("name", "Ada"));
                assertThat(run.status()).as(run.error()).isEqualTo(RunStatus.SUCCEEDED);
                assertThat(run.outputs()).isEqualTo(Map.of("text", "Hello, Ada!"));
            }
        }
    }

    @Test
    void aListenerIsToldDifysEventsInOrderFromTheStartToTheFinish() {
        List<RunEvent> events = new CopyOnWriteArrayList<>();

        try (HexaflowEngine engine = HexaflowEngine.standard(EngineConfiguration.fromEnvironment(Map.of()))) {
            WorkflowRun run = engine.run(engine.read(HELLO.getBytes(StandardCharsets.UTF_8)), Map.of("name", "Ada"),
                    events::add);

            assertThat(run.status()).isEqualTo(RunStatus.SUCCEEDED);
        }
        assertThat(events.get(0)).isInstanceOf(RunEvent.WorkflowStarted.class);
        assertThat(events).filteredOn(RunEvent.NodeFinished.class::isInstance).hasSize(3);
        assertThat(events.get(events.size() - 1)).isInstanceOf(RunEvent.WorkflowFinished.class);
    }

    @Test
    void aStartedRunThatNeverEndsOnItsOwnEndsStoppedWithinASecondOfAStop() throws Exception {
        try (HexaflowEngine engine = HexaflowEngine.standard(EngineConfiguration.fromEnvironment(Map.of()))) {
            RunHandle handle = engine.start(engine.read(FOREVER.getBytes(StandardCharsets.UTF_8)), Map.of(),
                    event -> { });
            Thread.sleep(300);

            handle.stop();

            WorkflowRun run = handle.await(Duration.ofSeconds(1));
            assertThat(run.status()).isEqualTo(RunStatus.STOPPED);
        }
    }

    @Test
    void anLlmNodeAsksTheModelEndpointOfTheSettings() {
        MODEL.answer(FakeModelServer.Script.text("Forty two", 5, 2));
        EngineConfiguration settings = EngineConfiguration.fromEnvironment(Map.of()).withLlm(MODEL.baseUrl(), "sk-t");

        try (HexaflowEngine engine = HexaflowEngine.standard(settings)) {
            WorkflowRun run = engine.run(engine.read(ASK.getBytes(StandardCharsets.UTF_8)),
                    Map.of("question", "What is six times seven?"));

            assertThat(run.status()).as(run.error()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(run.outputs()).isEqualTo(Map.of("answer", "Forty two"));
        }
    }
}
