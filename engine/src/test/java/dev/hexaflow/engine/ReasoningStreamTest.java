package dev.hexaflow.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
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
 * An LLM node's reasoning with {@code reasoning_format: separated}, against a streaming model server on loopback:
 * the {@code <think>} block a model writes, or the {@code reasoning_content} an endpoint sends apart, leaves the
 * text and streams as reasoning events; {@code tagged} keeps it in the text, as Dify does.
 */
class ReasoningStreamTest {

    static final FakeModelServer MODEL = new FakeModelServer();
    static final WorkflowEngine ENGINE = Engines.standard(EngineConfiguration.fromEnvironment(Map.of())
            .withLlm(MODEL.baseUrl(), "sk-t"));

    private final List<RunEvent> events = new CopyOnWriteArrayList<>();

    @AfterAll
    static void stop() {
        MODEL.close();
    }

    /** start → llm → end, whose outputs are {@code outputs} (YAML list items). */
    static Workflow workflow(String format, String outputs) {
        return Dsl.workflow("""
                - {id: start, data: {type: start, title: Start, variables: []}}
                - id: llm
                  data:
                    type: llm
                    title: Thinker
                    model: {provider: deepseek, name: deepseek-r1, mode: chat}
                    prompt_template: [{role: user, text: 'Say hello'}]
                    context: {enabled: false}
                    reasoning_format: %s
                - {id: end, data: {type: end, title: End, outputs: %s}}
                """.formatted(format, outputs), "- {source: start, target: llm}\n- {source: llm, target: end}");
    }

    static final String SHOWS_TEXT = "[{variable: text, value_selector: [llm, text]}]";

    private WorkflowRun run(Workflow workflow) {
        return ENGINE.run(ENGINE.prepare(workflow), RunRequest.of(workflow, "u", Map.of()), events::add);
    }

    private List<RunEvent.ReasoningChunk> reasoning() {
        return events.stream().filter(RunEvent.ReasoningChunk.class::isInstance)
                .map(RunEvent.ReasoningChunk.class::cast).toList();
    }

    private String text() {
        return String.join("", events.stream().filter(RunEvent.TextChunk.class::isInstance)
                .map(e -> ((RunEvent.TextChunk) e).text()).toList());
    }

    private Map<String, Object> llmOutputs() {
        return events.stream().filter(RunEvent.NodeFinished.class::isInstance)
                .map(e -> ((RunEvent.NodeFinished) e).execution()).filter(e -> e.nodeId().equals("llm"))
                .findFirst().orElseThrow().outputs();
    }

    @Test
    void separatedReasoningWrittenInThinkTagsStreamsApartAndEndsWithAnEmptyFinalChunk() {
        MODEL.answer(FakeModelServer.Script.text("<think mode=\"deep\">I should greet</think>\n\nHello there", 4, 6));

        WorkflowRun run = run(workflow("separated", SHOWS_TEXT));

        assertThat(run.status()).as(run.error()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(run.outputs()).isEqualTo(Map.of("text", "Hello there"));
        assertThat(text()).isEqualTo("Hello there");
        List<RunEvent.ReasoningChunk> reasoning = reasoning();
        assertThat(String.join("", reasoning.stream().map(RunEvent.ReasoningChunk::reasoning).toList()))
                .isEqualTo("I should greet");
        assertThat(reasoning).allMatch(chunk -> chunk.nodeId().equals("llm"));
        assertThat(reasoning.get(reasoning.size() - 1)).isEqualTo(new RunEvent.ReasoningChunk("llm", "", true));
        assertThat(reasoning.subList(0, reasoning.size() - 1)).noneMatch(RunEvent.ReasoningChunk::isFinal);
        assertThat(llmOutputs()).containsEntry("text", "Hello there").containsEntry("reasoning_content",
                "I should greet");
        int firstText = events.indexOf(events.stream().filter(RunEvent.TextChunk.class::isInstance).findFirst()
                .orElseThrow());
        assertThat(events.indexOf(reasoning.get(0))).isLessThan(firstText);
    }

    @Test
    void reasoningTheEndpointSendsApartIsReasoningToo() {
        MODEL.answer(FakeModelServer.Script.reasoning("Greeting is polite", "Hello"));

        WorkflowRun run = run(workflow("separated", SHOWS_TEXT));

        assertThat(run.outputs()).as(run.error()).isEqualTo(Map.of("text", "Hello"));
        assertThat(String.join("", reasoning().stream().map(RunEvent.ReasoningChunk::reasoning).toList()))
                .isEqualTo("\nGreeting is polite\n");
        assertThat(llmOutputs()).containsEntry("reasoning_content", "Greeting is polite");
    }

    @Test
    void taggedTheDefaultKeepsTheReasoningInTheTextAndSendsNoReasoningEvents() {
        MODEL.answer(FakeModelServer.Script.reasoning("Greeting is polite", "Hello"));

        WorkflowRun run = run(workflow("tagged", SHOWS_TEXT));

        assertThat(run.outputs()).as(run.error()).isEqualTo(Map.of("text", "<think>\nGreeting is polite\n</think>Hello"));
        assertThat(text()).isEqualTo("<think>\nGreeting is polite\n</think>Hello");
        assertThat(reasoning()).isEmpty();
        assertThat(llmOutputs()).containsEntry("reasoning_content", "");
    }

    @Test
    void reasoningStreamsOnlyWhereAResponseShowsTheNodesTextOrReasoning() {
        MODEL.answer(FakeModelServer.Script.text("<think>hidden</think>Hi", 1, 1));
        run(workflow("separated", "[{variable: n, value_selector: [llm, finish_reason]}]"));
        List<RunEvent.ReasoningChunk> unshown = reasoning();
        events.clear();
        run(workflow("separated", "[{variable: why, value_selector: [llm, reasoning_content]}]"));

        assertThat(unshown).isEmpty();
        assertThat(reasoning()).extracting(RunEvent.ReasoningChunk::reasoning).contains("hidden");
    }

    @Test
    void aThinkBlockCutOffByTheEndOfTheAnswerIsAllReasoning() {
        MODEL.answer(FakeModelServer.Script.text("Sure. <think>still thinking about", 1, 1));

        WorkflowRun run = run(workflow("separated", SHOWS_TEXT));

        assertThat(run.outputs()).as(run.error()).isEqualTo(Map.of("text", "Sure."));
        assertThat(llmOutputs()).containsEntry("reasoning_content", "still thinking about");
        assertThat(reasoning().get(reasoning().size() - 1).isFinal()).isTrue();
    }
}
