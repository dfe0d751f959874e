package dev.hexaflow.app.cli;

import static dev.hexaflow.app.TestServer.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.nodes.tool.mcp.LoopbackMcpServer;
import dev.hexaflow.adapters.nodes.tool.mcp.McpTestTools;
import dev.hexaflow.app.Main;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hexaflow run} runs what the server runs: knowledge-retrieval over a stopped server's bases
 * ({@code --data-dir}) or over none with a warning, tool files kept in a temporary folder, and refusals that name
 * what to do next.
 */
class LocalRunTest {

    private static final String DATASET = "6f1c2d4e-9a8b-4c7d-8e6f-5a4b3c2d1e0f";
    private static final String RETRIEVAL = """
            app: {name: Handbook, mode: workflow}
            kind: app
            version: 0.3.1
            workflow:
              graph:
                nodes:
                  - {id: start, data: {type: start, title: Start, variables: [{variable: query, label: Q, type: paragraph, required: true}]}}
                  - id: kr
                    data:
                      type: knowledge-retrieval
                      title: Handbook search
                      query_variable_selector: [start, query]
                      dataset_ids: [%s]
                      retrieval_mode: multiple
                      multiple_retrieval_config: {top_k: 2, reranking_enable: false}
                  - {id: end, data: {type: end, title: End, outputs: [{variable: sources, value_selector: [kr, result]}]}}
                edges:
                  - {source: start, target: kr}
                  - {source: kr, target: end}
            """;

    @TempDir
    Path dir;

    private record Outcome(int exit, String out, String err) {
    }

    private static Outcome main(Map<String, String> env, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.run(args, env, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Outcome(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static Outcome main(String... args) {
        return main(Map.of(), args);
    }

    private Path retrieval(String datasetId) throws Exception {
        return Files.writeString(dir.resolve("retrieval-" + datasetId + ".yml"), RETRIEVAL.formatted(datasetId));
    }

    @Test
    void withoutADataDirAKnowledgeNodeFindsNothingTheRunGoesOnAndOneLineSaysHowToSearchBases() throws Exception {
        Outcome ran = main("run", retrieval(DATASET).toString(), "--inputs", "{\"query\": \"paid leave\"}");

        assertThat(ran.exit()).as(ran.err()).isZero();
        JsonNode data = json(ran.out()).get("data");
        assertThat(data.get("status").asText()).isEqualTo("succeeded");
        assertThat(data.get("outputs").get("sources")).isEmpty();
        assertThat(ran.err().strip().lines()).anySatisfy(line -> assertThat(line)
                .contains("Handbook search (kr)", "knowledge-retrieval", "finds nothing", "--data-dir DIR"));
        assertThat(ran.err()).contains("warning: The knowledge base " + DATASET + " is not in Hexaflow");
    }

    @Test
    void withADataDirAKnowledgeNodeSearchesThatServersBasesAndOneItHasNotIsPassedOverWithAWarning()
            throws Exception {
        Path data = Files.createDirectory(dir.resolve("data"));
        Path handbook = Files.writeString(dir.resolve("leave.txt"), "Staff get 25 days of paid leave a year.");
        assertThat(main("knowledge", "create", "Handbook", "--id", DATASET, "--data-dir", data.toString()).exit())
                .isZero();
        assertThat(main("knowledge", "add", "Handbook", handbook.toString(), "--data-dir", data.toString()).exit())
                .isZero();

        Outcome found = main("run", retrieval(DATASET).toString(), "--inputs", "{\"query\": \"paid leave\"}",
                "--data-dir", data.toString());
        Outcome missing = main("run", retrieval("gone-base").toString(), "--inputs",
                "{\"query\": \"paid leave\"}", "--data-dir", data.toString());

        assertThat(found.exit()).as(found.err()).isZero();
        JsonNode hit = json(found.out()).get("data").get("outputs").get("sources").get(0);
        assertThat(hit.get("content").asText()).isEqualTo("Staff get 25 days of paid leave a year.");
        assertThat(hit.get("metadata").get("dataset_id").asText()).isEqualTo(DATASET);
        assertThat(hit.get("title").asText()).isEqualTo("leave.txt");
        assertThat(found.err()).isEmpty();
        assertThat(missing.exit()).as(missing.err()).isZero();
        assertThat(json(missing.out()).get("data").get("outputs").get("sources")).isEmpty();
        assertThat(missing.err()).contains("warning: The knowledge base gone-base is not in Hexaflow",
                "finds nothing in it", "hexaflow knowledge bind gone-base BASE");
    }

    @Test
    void aDataDirThatIsNoDirectoryIsRefusedNamingWhatToGive() throws Exception {
        Outcome refused = main("run", retrieval(DATASET).toString(), "--data-dir", dir.resolve("nope").toString());

        assertThat(refused.exit()).isEqualTo(Main.USAGE);
        assertThat(refused.err()).contains("is not a directory", "data dir of a stopped server",
                "hexaflow knowledge list --data-dir DIR");
        assertThat(refused.out()).isEmpty();
    }

    @Test
    void aToolThatAnswersAFileHasItKeptInATemporaryFolderSaidOnceAndNamedByItsPath() throws Exception {
        Path workflow = dir.resolve("mcp-picture.yml");
        try (InputStream in = LocalRunTest.class.getResourceAsStream("/apps/mcp-picture.yml")) {
            Files.write(workflow, in.readAllBytes());
        }
        try (LoopbackMcpServer painter = new LoopbackMcpServer("key-1")) {
            Path tools = Files.writeString(dir.resolve("tools.yml"), """
                    servers:
                      painter: {url: "%s", headers: {X-Api-Key: key-1}}
                    bindings:
                      - {provider: acme/painter/painter, tool: draw, mcp: {server: painter, tool: picture}}
                    """.formatted(painter.url()));

            Outcome ran = main(Map.of("HEXAFLOW_OUTBOUND_ALLOW", "127.0.0.1"), "run", workflow.toString(),
                    "--tools", tools.toString());

            assertThat(ran.exit()).as(ran.err()).isZero();
            JsonNode outputs = json(ran.out()).get("data").get("outputs");
            assertThat(outputs.get("text").asText()).isEqualTo("a picture");
            JsonNode file = outputs.get("files").get(0);
            assertThat(file.get("transfer_method").asText()).isEqualTo("tool_file");
            assertThat(file.get("mime_type").asText()).isEqualTo("image/png");
            assertThat(file.get("extension").asText()).isEqualTo(".png");
            Path kept = Path.of(file.get("url").asText());
            assertThat(kept).isAbsolute();
            assertThat(kept.getFileName().toString()).doesNotContain("/");
            assertThat(Files.readAllBytes(kept)).isEqualTo(McpTestTools.PICTURE);
            assertThat(ran.err().strip().lines()).singleElement().asString()
                    .contains("the files tools make are kept in " + kept.getParent());
            assertThat(kept.getParent().getFileName().toString()).startsWith("hexaflow-tool-files");
            Files.delete(kept);
            Files.delete(kept.getParent());
        }
    }

    @Test
    void refusalsNameWhatToDoNextAToolNothingRunsAModelWithNoEndpointANodeTypeHexaflowDoesNotRun()
            throws Exception {
        Path workflow = dir.resolve("mcp-picture.yml");
        try (InputStream in = LocalRunTest.class.getResourceAsStream("/apps/mcp-picture.yml")) {
            Files.write(workflow, in.readAllBytes());
        }
        Outcome unbound = main("run", workflow.toString());
        Path llm = Files.writeString(dir.resolve("llm.yml"), """
                app: {name: Ask, mode: workflow}
                kind: app
                version: 0.3.1
                workflow:
                  graph:
                    nodes:
                      - {id: start, data: {type: start, title: Start, variables: []}}
                      - id: llm
                        data:
                          type: llm
                          title: LLM
                          model: {provider: langgenius/openai/openai, name: gpt-4o-mini, mode: chat}
                          prompt_template: [{role: user, text: hello}]
                      - {id: end, data: {type: end, title: End, outputs: [{variable: a, value_selector: [llm, text]}]}}
                    edges:
                      - {source: start, target: llm}
                      - {source: llm, target: end}
                """);
        Outcome noModel = main("run", llm.toString());
        Outcome unknownType = main("run", Files.writeString(dir.resolve("v2.yml"), RETRIEVAL.formatted(DATASET)
                .replace("type: knowledge-retrieval", "type: knowledge-retrieval-v2")).toString());

        assertThat(unbound.exit()).isEqualTo(Main.FAILED);
        assertThat(unbound.err()).contains("acme/painter/painter/draw", "--tools BINDINGS.yml");
        assertThat(noModel.exit()).isEqualTo(Main.FAILED);
        assertThat(noModel.err()).contains("provider_not_initialize", "Set HEXAFLOW_LLM_BASE_URL");
        assertThat(unknownType.exit()).isEqualTo(Main.USAGE);
        assertThat(unknownType.err()).contains("unknown node type 'knowledge-retrieval-v2'; remove the node or "
                + "replace it with one of the types docs/command-line.md lists");
    }
}
