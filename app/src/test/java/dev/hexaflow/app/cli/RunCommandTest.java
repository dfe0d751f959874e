package dev.hexaflow.app.cli;

import static dev.hexaflow.app.TestServer.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.app.Main;
import dev.hexaflow.app.wiring.AppsModule;
import dev.hexaflow.testing.SharedFolder;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code hexaflow run FILE.yml}: one run of a DSL file, no server, no database. */
class RunCommandTest {

    @TempDir
    Path dir;

    private record Outcome(int exit, String out, String err) {
    }

    private static Outcome run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.run(args, Map.of(), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Outcome(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static String corpus(String file) {
        return SharedFolder.require("conformance/dify-dsl/" + file).toString();
    }

    @Test
    void aBlockingRunPrintsTheCompletionJsonAloneAndExits0() {
        Outcome outcome = run("run", corpus("conditional_hello_branching_workflow.yml"), "--inputs",
                "{\"query\": \"hello there\"}", "--user", "ada");

        assertThat(outcome.exit()).isZero();
        JsonNode body = json(outcome.out());
        assertThat(body.get("workflow_run_id").asText()).isEqualTo(body.get("data").get("id").asText());
        assertThat(body.get("task_id").asText()).isNotBlank();
        assertThat(body.get("data").get("status").asText()).isEqualTo("succeeded");
        assertThat(body.get("data").get("outputs").get("true").asText()).isEqualTo("hello there");
        assertThat(outcome.out().strip()).doesNotContain("\n");
        assertThat(outcome.err()).isEmpty();
    }

    @Test
    void aStreamPrintsServerSentFramesFromStartedToFinishedWithTheSameIds() {
        Outcome outcome = run("run", corpus("increment_loop_with_break_condition_workflow.yml"), "--stream");

        assertThat(outcome.exit()).isZero();
        List<JsonNode> frames = new ArrayList<>();
        for (String frame : outcome.out().split("\n\n")) {
            assertThat(frame).startsWith("data: ");
            frames.add(json(frame.substring(6)));
        }
        assertThat(frames.get(0).get("event").asText()).isEqualTo("workflow_started");
        assertThat(frames.get(frames.size() - 1).get("event").asText()).isEqualTo("workflow_finished");
        assertThat(frames.get(frames.size() - 1).get("data").get("outputs").get("num").asDouble()).isEqualTo(5.0);
        assertThat(frames).extracting(f -> f.get("event").asText()).contains("node_started", "node_finished",
                "loop_started", "loop_next", "loop_completed", "text_chunk");
        assertThat(frames).extracting(f -> f.get("workflow_run_id").asText()).containsOnly(
                frames.get(0).get("workflow_run_id").asText());
    }

    @Test
    void aRunOfADslWithDifysTimeToolsPrintsWhatTheToolsAnswer() throws Exception {
        Path file = dir.resolve("time-tool.yml");
        try (java.io.InputStream in = RunCommandTest.class.getResourceAsStream("/apps/time-tool.yml")) {
            Files.write(file, in.readAllBytes());
        }

        Outcome outcome = run("run", file.toString(), "--inputs", "{\"day\": 1}");

        assertThat(outcome.exit()).as(outcome.err()).isZero();
        JsonNode outputs = json(outcome.out()).get("data").get("outputs");
        assertThat(outputs.get("year").asText()).matches("\\d{4}");
        assertThat(outputs.get("weekday").asText()).isEqualTo("February 1, 2024 is Thursday.");
    }

    @Test
    void theDemoAppRunsWithNoServerOnTheHolidaysBundledInTheJar() throws Exception {
        Path file = dir.resolve("holiday-counter.yml");
        try (java.io.InputStream in = RunCommandTest.class.getResourceAsStream(AppsModule.DEMO_DSL)) {
            Files.write(file, in.readAllBytes());
        }

        Outcome outcome = run("run", file.toString(), "--inputs", "{\"year\": \"2026\"}");

        assertThat(outcome.exit()).as(outcome.err()).isZero();
        JsonNode outputs = json(outcome.out()).get("data").get("outputs");
        assertThat(outputs.get("count").asInt()).isEqualTo(7);
        assertThat(outputs.get("answer").asText()).startsWith("2026 has 7 university holidays: New Year");
    }

    @Test
    void aRunThatFailsExits1() throws Exception {
        Path file = Files.writeString(dir.resolve("fails.yml"), """
                app: {name: f, mode: workflow}
                workflow:
                  graph:
                    nodes:
                      - {id: s, data: {type: start, title: S, variables: []}}
                      - id: c
                        data:
                          type: code
                          title: C
                          code_language: javascript
                          code: "function main() { throw new Error('nope'); }"
                          outputs: {}
                    edges:
                      - {source: s, target: c}
                """);

        Outcome outcome = run("run", file.toString());

        assertThat(outcome.exit()).isEqualTo(1);
        assertThat(json(outcome.out()).get("data").get("status").asText()).isEqualTo("failed");
        assertThat(outcome.err()).contains("nope");
    }

    @Test
    void aBadFileOrBadInputsExit2WithTheProblemsListed() throws Exception {
        Path broken = Files.writeString(dir.resolve("broken.yml"), """
                app: {name: b, mode: workflow}
                workflow:
                  graph:
                    nodes:
                      - {id: s, data: {type: start, title: S, variables: [{variable: n, type: number, required: true}]}}
                      - {id: e, data: {type: end, title: E, outputs: [{variable: x, value_selector: [s, missing]}]}}
                      - {id: k, data: {type: answer, title: K, answer: hi}}
                    edges:
                      - {source: s, target: e}
                """);
        Path good = Files.writeString(dir.resolve("good.yml"), """
                app: {name: g, mode: workflow}
                workflow:
                  graph:
                    nodes:
                      - {id: s, data: {type: start, title: S, variables: [{variable: n, type: number, required: true}]}}
                      - {id: e, data: {type: end, title: E, outputs: [{variable: x, value_selector: [s, n]}]}}
                    edges:
                      - {source: s, target: e}
                """);

        Outcome problems = run("run", broken.toString());
        Outcome missing = run("run", good.toString());
        Outcome notJson = run("run", good.toString(), "--inputs", "[1]");

        assertThat(problems.exit()).isEqualTo(2);
        assertThat(problems.err()).contains("2 problems", "refers to [s, missing]", "a workflow app ends with an end node");
        assertThat(problems.out()).isEmpty();
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err()).contains("n is required in input form", "give the inputs with --inputs JSON");
        assertThat(notJson.exit()).isEqualTo(2);
        assertThat(notJson.err()).contains("--inputs must be a JSON object");
    }

    @Test
    void aModelWorkflowWithoutAModelEndpointSaysProviderNotInitialize() {
        Outcome outcome = run("run", corpus("basic_llm_chat_workflow.yml"), "--inputs", "{\"query\": \"x\"}");

        assertThat(outcome.exit()).isEqualTo(1);
        assertThat(outcome.err()).contains("provider_not_initialize");
        assertThat(outcome.out()).isEmpty();
    }
}
