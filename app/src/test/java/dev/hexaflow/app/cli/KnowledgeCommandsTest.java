package dev.hexaflow.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.app.Main;
import dev.hexaflow.app.TestServer;
import dev.hexaflow.app.api.ServiceApi;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hexaflow knowledge ...} on the data dir of a stopped server: a base made under a Dify dataset id, files
 * added with progress, a file added again left as it is, and what was loaded served by the Knowledge API after.
 */
class KnowledgeCommandsTest {

    static final String DATASET = "6f1c2d4e-9a8b-4c7d-8e6f-5a4b3c2d1e0f";

    @TempDir
    Path dir;

    private record Outcome(int exit, String out, String err) {
    }

    private Outcome knowledge(Map<String, String> env, String... args) {
        List<String> all = new ArrayList<>(List.of("knowledge"));
        all.addAll(Arrays.asList(args));
        all.addAll(List.of("--data-dir", dir.resolve("data").toString()));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.run(all.toArray(String[]::new), env, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Outcome(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private Path file(String name, String text) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(file, text);
        return file;
    }

    @Test
    void filesAreLoadedOnceWithProgressAndServedByTheKnowledgeApiAfter() throws Exception {
        try (FakeModelServer model = new FakeModelServer()) {
            Map<String, String> env = Map.of("HEXAFLOW_LLM_BASE_URL", model.baseUrl().toString(),
                    "HEXAFLOW_LLM_API_KEY", "sk-t", "HEXAFLOW_EMBEDDING_MODEL", "embed-test");
            String leave = file("leave.md", "Paid leave: every employee has 25 days of paid leave a year.")
                    .toString();
            String parking = file("parking.txt", "Parking: bikes park in the basement, cars on the roof.")
                    .toString();

            Outcome created = knowledge(env, "create", "Handbook", "--id", DATASET);
            Outcome added = knowledge(env, "add", "Handbook", leave, parking);
            Outcome again = knowledge(env, "add", DATASET, leave);
            Outcome listed = knowledge(env, "list");
            Outcome key = knowledge(env, "keys", "create");

            assertThat(created.exit()).as(created.err()).isZero();
            assertThat(created.out()).contains(DATASET, "semantic_search", "embedded with embed-test");
            assertThat(added.exit()).as(added.err()).isZero();
            assertThat(added.err()).contains("2/2 documents", "2 chunks", "embeddings/s");
            assertThat(added.out()).contains("2 added, 0 unchanged, 0 failed; 2 chunks into Handbook");
            assertThat(again.out()).contains("0 added, 1 unchanged, 0 failed");
            assertThat(listed.out()).contains(DATASET).containsPattern(DATASET + "\\s+2\\s+2\\s+semantic_search");
            assertThat(key.out().strip()).matches("dataset-[A-Za-z0-9]{24}");

            try (TestServer server = TestServer.start(TestServer.config(dir.resolve("data")).withEngine(
                    dev.hexaflow.engine.EngineConfiguration.fromEnvironment(env)))) {
                ServiceApi api = server.api(key.out().strip());
                JsonNode found = ServiceApi.json(api.postJson("/v1/datasets/" + DATASET + "/retrieve",
                        Map.of("query", "paid leave", "retrieval_model", Map.of("search_method", "semantic_search",
                                "top_k", 1))));
                assertThat(found.get("records")).hasSize(1);
                assertThat(found.get("records").get(0).get("segment").get("document").get("name").asText())
                        .isEqualTo("leave.md");
            }
        }
    }

    @Test
    void aDatasetIdBoundFromTheCommandLineServesTheKnowledgeApiAndAnAppUntilUnbound() throws Exception {
        String leave = file("leave.md", "Paid leave: every employee has 25 days of paid leave a year.").toString();
        knowledge(Map.of(), "create", "Handbook", "--id", "handbook");
        knowledge(Map.of(), "add", "handbook", leave);

        Outcome bound = knowledge(Map.of(), "bind", DATASET, "Handbook");
        Outcome noBase = knowledge(Map.of(), "bind", DATASET, "nope");
        Outcome tooLong = knowledge(Map.of(), "bind", "x".repeat(65), "handbook");
        Outcome ownId = knowledge(Map.of(), "bind", "handbook", "handbook");
        Outcome key = knowledge(Map.of(), "keys", "create");

        assertThat(bound.exit()).as(bound.err()).isZero();
        assertThat(bound.out()).contains(DATASET + " -> handbook");
        assertThat(noBase.exit()).isEqualTo(Main.FAILED);
        assertThat(noBase.err()).contains("no knowledge base nope");
        assertThat(tooLong.exit()).isEqualTo(Main.FAILED);
        assertThat(tooLong.err()).contains("1 to 64 characters");
        assertThat(ownId.exit()).isEqualTo(Main.FAILED);
        try (TestServer server = TestServer.start(dir.resolve("data"))) {
            JsonNode read = ServiceApi.json(server.api(key.out().strip()).get("/v1/datasets/" + DATASET));
            JsonNode imported = server.importApp("knowledge.yml");
            assertThat(read.get("id").asText()).isEqualTo("handbook");
            assertThat(read.get("name").asText()).isEqualTo("Handbook");
            assertThat(imported.get("warnings")).isEmpty();
        }

        Outcome unbound = knowledge(Map.of(), "unbind", DATASET);
        Outcome again = knowledge(Map.of(), "unbind", DATASET);

        assertThat(unbound.exit()).as(unbound.err()).isZero();
        assertThat(again.exit()).isEqualTo(Main.FAILED);
        assertThat(again.err()).contains("bound to no knowledge base");
        try (TestServer server = TestServer.start(dir.resolve("data"))) {
            assertThat(server.importApp("knowledge.yml").get("warnings").toString()).contains(DATASET);
        }
    }

    @Test
    void aMissingBaseOrFileAndWrongUsageAreRefused() throws Exception {
        String leave = file("leave.md", "Paid leave.").toString();

        Outcome noBase = knowledge(Map.of(), "add", "nope", leave);
        Outcome noFile = knowledge(Map.of(), "add", "nope", dir.resolve("absent.md").toString());
        Outcome idOnAdd = knowledge(Map.of(), "add", "nope", leave, "--id", "x");
        Outcome unknown = knowledge(Map.of(), "remove", "x");
        Outcome keywordOnly = knowledge(Map.of(), "create", "Plain");

        assertThat(noBase.exit()).isEqualTo(Main.FAILED);
        assertThat(noBase.err()).contains("no knowledge base nope");
        assertThat(noFile.exit()).isEqualTo(Main.USAGE);
        assertThat(idOnAdd.exit()).isEqualTo(Main.USAGE);
        assertThat(idOnAdd.err()).contains("--id goes with the knowledge create command");
        assertThat(unknown.exit()).isEqualTo(Main.USAGE);
        assertThat(unknown.err()).contains("knowledge create NAME [--id ID]");
        assertThat(keywordOnly.out()).contains("keyword_search", "keyword-only");
    }
}
