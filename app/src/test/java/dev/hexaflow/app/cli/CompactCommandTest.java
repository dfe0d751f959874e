package dev.hexaflow.app.cli;

import static dev.hexaflow.app.TestServer.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.app.Main;
import dev.hexaflow.app.TestServer;
import dev.hexaflow.app.api.ServiceApi;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hexaflow compact}: the stopped server's database rewritten whole, so that its file shrinks to what it
 * holds; refused where there is no database (and, in {@code JarLaunchIT}, while a server process runs on it:
 * in one JVM, H2 would share the open database instead).
 */
class CompactCommandTest {

    @TempDir
    Path dir;

    private record Outcome(int exit, String out, String err) {
    }

    private Outcome compact(Path dataDir) {
        return compact(dataDir, Map.of());
    }

    private Outcome compact(Path dataDir, Map<String, String> env) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.run(new String[] {"compact", "--data-dir", dataDir.toString()}, env,
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Outcome(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aCompactedDatabaseIsSmallerAndKeepsEveryRunAndARunningServerOrNoDatabaseIsRefused() throws Exception {
        Path data = dir.resolve("data");
        String key;
        List<String> runIds = new ArrayList<>();
        try (TestServer server = TestServer.start(data)) {
            key = server.importApp("echo.yml").get("api_key").asText();
            ServiceApi api = server.api(key);
            ExecutorService clients = Executors.newFixedThreadPool(8);
            try {
                List<CompletableFuture<JsonNode>> runs = new ArrayList<>();
                for (int i = 0; i < 400; i++) {
                    int n = i;
                    runs.add(CompletableFuture.supplyAsync(() -> json(api.postJson("/v1/workflows/run", Map.of(
                            "inputs", Map.of("query", "run " + n), "response_mode", "blocking", "user", "u" + n % 8))),
                            clients));
                }
                runs.forEach(run -> runIds.add(run.join().get("workflow_run_id").asText()));
            } finally {
                clients.shutdownNow();
            }
        }
        long before = Files.size(data.resolve("hexaflow.mv.db"));

        Outcome compacted = compact(data);

        long after = Files.size(data.resolve("hexaflow.mv.db"));
        assertThat(compacted.exit()).as(compacted.err()).isZero();
        assertThat(compacted.out()).startsWith("Compacted the database in " + data + ": ");
        assertThat(after).as("%d bytes before", before).isLessThan(before);
        try (TestServer server = TestServer.start(data)) {
            ServiceApi api = server.api(key);
            assertThat(json(api.get("/v1/workflows/logs?limit=1")).get("total").asLong()).isEqualTo(400);
            JsonNode last = json(api.get("/v1/workflows/run/" + runIds.get(399)));
            assertThat(last.get("status").asText()).isEqualTo("succeeded");
            assertThat(api.postJson("/v1/workflows/run", Map.of("inputs", Map.of("query", "after"),
                    "response_mode", "blocking", "user", "u")).statusCode()).isEqualTo(200);
        }
        Outcome none = compact(dir.resolve("empty"));
        assertThat(none.exit()).isEqualTo(Main.USAGE);
        assertThat(none.err()).contains("no database in");
        Outcome postgres = compact(data, Map.of("HEXAFLOW_DATABASE_URL", "jdbc:postgresql://127.0.0.1:9/none"));
        assertThat(postgres.exit()).isEqualTo(Main.FAILED);
        assertThat(postgres.err()).contains("PostgreSQL", "VACUUM");
    }
}
