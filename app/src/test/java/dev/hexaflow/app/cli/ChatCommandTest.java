package dev.hexaflow.app.cli;

import static dev.hexaflow.app.TestServer.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.app.Main;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hexaflow chat FILE.yml} and {@code hexaflow run FILE.yml --query}: chatflows from the command line, with
 * no server, lines piped in as a person would type them, the model a fake OpenAI-compatible server on loopback.
 */
class ChatCommandTest {

    static final FakeModelServer MODEL = new FakeModelServer();

    /**
     * A chatflow that remembers the last two turns, keeps the previous query in a conversation variable and
     * answers with it, the dialogue count and the model's text.
     */
    static final String MEMORY_CHATFLOW = """
            app: {name: memo, mode: advanced-chat}
            kind: app
            version: 0.5.0
            workflow:
              features:
                opening_statement: Hello, I remember what you said.
              conversation_variables:
                - {id: v1, name: previous, value_type: string, value: nothing}
              graph:
                nodes:
                  - {id: start, data: {type: start, title: Start, variables: []}}
                  - id: llm
                    data:
                      type: llm
                      title: LLM
                      model: {provider: openai, name: m, mode: chat, completion_params: {}}
                      prompt_template: [{role: system, text: 'Be brief.'}]
                      memory: {window: {enabled: true, size: 2}, query_prompt_template: '{{#sys.query#}}'}
                      context: {enabled: false}
                      vision: {enabled: false}
                  - id: answer
                    data:
                      type: answer
                      title: Answer
                      answer: '[{{#sys.dialogue_count#}} after {{#conversation.previous#}}] {{#llm.text#}}'
                  - id: keep
                    data:
                      type: assigner
                      title: Keep
                      version: '2'
                      items:
                        - {input_type: variable, operation: over-write, value: [sys, query], variable_selector: [conversation, previous], write_mode: over-write}
                edges:
                  - {source: start, target: llm}
                  - {source: llm, target: answer}
                  - {source: answer, target: keep}
            """;

    @TempDir
    Path dir;

    private record Outcome(int exit, String out, String err) {
    }

    @AfterAll
    static void stopModel() {
        MODEL.close();
    }

    private static Map<String, String> modelEnvironment() {
        return Map.of("HEXAFLOW_LLM_BASE_URL", MODEL.baseUrl().toString(), "HEXAFLOW_LLM_API_KEY", "test-key");
    }

    private static Outcome main(String input, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.run(args, modelEnvironment(), new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)),
                false, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Outcome(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private Path file(String name, String dsl) throws Exception {
        return Files.writeString(dir.resolve(name), dsl);
    }

    private static List<String> sentMessages(int request) {
        List<String> flat = new ArrayList<>();
        MODEL.requests().get(request).get("messages").forEach(m -> flat.add(m.get("role").asText() + ": "
                + m.get("content").asText()));
        return flat;
    }

    @Test
    void aTwoTurnChatRemembersTheFirstTurnAndCarriesTheConversationVariable() throws Exception {
        MODEL.answer(FakeModelServer.Script.text("noted", 1, 1));
        Path chatflow = file("memo.yml", MEMORY_CHATFLOW);
        int before = MODEL.requests().size();

        Outcome outcome = main("my name is Ada\nwhat is my name?\n", "chat", chatflow.toString());

        assertThat(outcome.exit()).as(outcome.err()).isZero();
        assertThat(outcome.out()).isEqualTo("""
                Hello, I remember what you said.
                [1 after nothing] noted
                [2 after my name is Ada] noted
                """);
        assertThat(MODEL.requests()).hasSize(before + 2);
        assertThat(sentMessages(before)).containsExactly("system: Be brief.", "user: my name is Ada");
        assertThat(sentMessages(before + 1)).containsExactly("system: Be brief.", "user: my name is Ada",
                "assistant: [1 after nothing] noted", "user: what is my name?");
    }

    @Test
    void slashNewStartsAConversationWithNoMemoryAndTheDefaultsAgain() throws Exception {
        MODEL.answer(FakeModelServer.Script.text("ok", 1, 1));
        Path chatflow = file("memo.yml", MEMORY_CHATFLOW);
        int before = MODEL.requests().size();

        Outcome outcome = main("first\n/new\nsecond\n/quit\nnever asked\n", "chat", chatflow.toString());

        assertThat(outcome.exit()).as(outcome.err()).isZero();
        assertThat(outcome.out()).isEqualTo("""
                Hello, I remember what you said.
                [1 after nothing] ok
                Hello, I remember what you said.
                [1 after nothing] ok
                """);
        assertThat(outcome.err()).contains("a new conversation");
        assertThat(MODEL.requests()).hasSize(before + 2);
        assertThat(sentMessages(before + 1)).containsExactly("system: Be brief.", "user: second");
    }

    @Test
    void aFailedTurnPrintsItsErrorAndTheChatGoesOnAsIfItHadNotHappened() throws Exception {
        Path chatflow = file("memo.yml", MEMORY_CHATFLOW);
        MODEL.answerInTurn(FakeModelServer.Script.failure(500, "the model fell over"),
                FakeModelServer.Script.text("back", 1, 1));
        int before = MODEL.requests().size();

        Outcome outcome = main("lost\nagain\n", "chat", chatflow.toString());

        assertThat(outcome.exit()).isZero();
        assertThat(outcome.err()).contains("the turn failed").contains("the model fell over");
        assertThat(outcome.out()).endsWith("[1 after nothing] back\n");
        assertThat(sentMessages(before + 1)).containsExactly("system: Be brief.", "user: again");
    }

    @Test
    void chatRefusesAWorkflowAppAndNamesTheRunCommand() throws Exception {
        Path workflow = file("wf.yml", """
                app: {name: w, mode: workflow}
                workflow:
                  graph:
                    nodes:
                      - {id: s, data: {type: start, title: S, variables: []}}
                      - {id: e, data: {type: end, title: E, outputs: []}}
                    edges:
                      - {source: s, target: e}
                """);

        Outcome chat = main("hi\n", "chat", workflow.toString());
        Outcome query = main("", "run", workflow.toString(), "--query", "hi");

        assertThat(chat.exit()).isEqualTo(2);
        assertThat(chat.err()).contains("is a workflow app", "not a chatflow", "hexaflow run");
        assertThat(chat.out()).isEmpty();
        assertThat(query.exit()).isEqualTo(2);
        assertThat(query.err()).contains("--query goes with a chatflow", "is a workflow app");
        assertThat(query.out()).isEmpty();
    }

    @Test
    void runWithAQueryPrintsTheAnswerAsItStreamsThenTheResultJson() throws Exception {
        MODEL.answer(FakeModelServer.Script.text("one two three", 1, 1));
        Path chatflow = file("memo.yml", MEMORY_CHATFLOW);
        int before = MODEL.requests().size();

        Outcome outcome = main("", "run", chatflow.toString(), "--query", "count");

        assertThat(outcome.exit()).as(outcome.err()).isZero();
        String[] lines = outcome.out().split("\n");
        assertThat(lines).hasSize(2);
        assertThat(lines[0]).isEqualTo("[1 after nothing] one two three");
        JsonNode result = json(lines[1]);
        assertThat(result.get("data").get("status").asText()).isEqualTo("succeeded");
        assertThat(result.get("data").get("outputs").get("answer").asText())
                .isEqualTo("[1 after nothing] one two three");
        assertThat(sentMessages(before)).containsExactly("system: Be brief.", "user: count");
    }

    @Test
    void runWithAQueryAndStreamPrintsTheFramesWithTheAnswerInTextChunks() throws Exception {
        MODEL.answer(FakeModelServer.Script.text("streamed words", 1, 1));
        Path chatflow = file("memo.yml", MEMORY_CHATFLOW);

        Outcome outcome = main("", "run", chatflow.toString(), "--query", "go", "--stream");

        assertThat(outcome.exit()).as(outcome.err()).isZero();
        StringBuilder text = new StringBuilder();
        for (String frame : outcome.out().split("\n\n")) {
            JsonNode event = json(frame.substring("data: ".length()));
            if (event.get("event").asText().equals("text_chunk")) {
                text.append(event.get("data").get("text").asText());
            }
        }
        assertThat(text.toString()).isEqualTo("[1 after nothing] streamed words");
    }

    @Test
    void aChatflowRunWithoutAQueryRunsWithAnEmptyOneAndSaysSo() throws Exception {
        Path chatflow = file("echo.yml", """
                app: {name: echo, mode: advanced-chat}
                workflow:
                  graph:
                    nodes:
                      - {id: start, data: {type: start, title: Start, variables: []}}
                      - {id: answer, data: {type: answer, title: Answer, answer: 'query=[{{#sys.query#}}]'}}
                    edges:
                      - {source: start, target: answer}
                """);

        Outcome outcome = main("", "run", chatflow.toString());

        assertThat(outcome.exit()).as(outcome.err()).isZero();
        assertThat(outcome.out()).startsWith("query=[]\n");
        assertThat(outcome.err()).contains("runs with an empty query", "--query TEXT");
    }
}
