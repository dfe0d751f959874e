package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static dev.hexaflow.app.api.ServiceApi.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.persistence.PostgresCluster;
import dev.hexaflow.app.api.ServiceApi.Part;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.app.config.Configuration;
import dev.hexaflow.app.config.DatabaseServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real server in-process on a real PostgreSQL 15 ({@link PostgresCluster}) instead of H2: runs blocking and
 * streamed, their detail and logs, an upload read by a run, the campus feed with its usage, all of it kept across a
 * restart on the same database; a NUL character (which PostgreSQL's text cannot hold) kept, not a failure; a backup
 * refused with the way to take one; and a database that is not PostgreSQL,
 * cannot be reached or refuses the login, each said in one line with exit code 1.
 */
class PostgresServerHttpTest {

    @TempDir
    Path dataDir;

    private Configuration onPostgres(String database) {
        PostgresCluster cluster = PostgresCluster.get();
        return TestServer.config(dataDir).withDatabase(new DatabaseServer(cluster.url(database),
                PostgresCluster.USER, PostgresCluster.PASSWORD));
    }

    @Test
    void runsUploadsAndCampusUsageAreKeptInPostgresqlAcrossARestart() throws IOException {
        Configuration config = onPostgres(PostgresCluster.get().createDatabase());
        String blockingRun;
        String streamedRun;
        String readerRun;
        String upload;
        String echoKey;
        String readerKey;
        String campusKey;
        try (TestServer server = TestServer.start(config)) {
            campusKey = server.campusKey();
            assertThat(server.hexaflow.report().databaseUrl()).contains(config.database().orElseThrow().url());
            echoKey = server.importApp("echo.yml").get("api_key").asText();
            readerKey = server.importApp("reader.yml").get("api_key").asText();
            ServiceApi echo = server.api(echoKey);
            ServiceApi reader = server.api(readerKey);

            JsonNode blocking = json(echo.postJson("/v1/workflows/run", run(Map.of("query", "kept"), "blocking",
                    "ada")));
            assertThat(blocking.get("data").get("outputs").get("answer").asText()).isEqualTo("You said: kept (calm)");
            blockingRun = blocking.get("workflow_run_id").asText();

            // PostgreSQL's text holds no NUL: one in the user is kept as U+FFFD, not a failed request.
            HttpResponse<String> nul = echo.postJson("/v1/workflows/run", run(Map.of("query", "a\u0000b"), "blocking",
                    "nul\u0000user"));
            assertThat(nul.statusCode()).isEqualTo(200);
            assertThat(json(nul).get("data").get("status").asText()).isEqualTo("succeeded");

            List<JsonNode> events = frames(echo.postStreaming("/v1/workflows/run", run(Map.of("query", "streamed"),
                    "streaming", "bob")));
            assertThat(events.get(events.size() - 1).get("event").asText()).isEqualTo("workflow_finished");
            assertThat(events.get(events.size() - 1).get("data").get("status").asText()).isEqualTo("succeeded");
            streamedRun = events.get(0).get("workflow_run_id").asText();

            HttpResponse<String> uploaded = reader.multipart("/v1/files/upload", List.of(Part.field("user", "ada"),
                    Part.file("people.csv", "text/csv", "name,age\nAda,36\n".getBytes(StandardCharsets.UTF_8))));
            assertThat(uploaded.statusCode()).isEqualTo(201);
            upload = json(uploaded).get("id").asText();
            JsonNode read = json(reader.postJson("/v1/workflows/run", run(Map.of("doc", Map.of("type", "document",
                    "transfer_method", "local_file", "upload_file_id", upload)), "blocking", "ada")));
            assertThat(read.get("data").get("outputs").get("text").asText())
                    .isEqualTo("| name | age |\n| --- | --- |\n| Ada | 36 |");
            readerRun = read.get("workflow_run_id").asText();

            JsonNode detail = json(echo.get("/v1/workflows/run/" + streamedRun));
            assertThat(detail.get("status").asText()).isEqualTo("succeeded");
            assertThat(detail.get("outputs").get("answer").asText()).isEqualTo("You said: streamed (calm)");
            JsonNode logs = json(echo.get("/v1/workflows/logs?keyword=STREAMED"));
            assertThat(logs.get("total").asInt()).isEqualTo(1);
            assertThat(logs.get("data").get(0).get("workflow_run").get("id").asText()).isEqualTo(streamedRun);

            JsonNode holidays = json(server.get("/v2/events/holidays.json?key=" + campusKey));
            assertThat(holidays.get("meta").get("requests").asLong()).isEqualTo(1);
            assertThat(holidays.get("data").size()).isPositive();
        }

        try (TestServer again = TestServer.start(config)) {
            ServiceApi echo = again.api(echoKey);
            ServiceApi reader = again.api(readerKey);

            assertThat(again.hexaflow.report().newCampusKey()).as("not a first start again").isEmpty();
            assertThat(json(echo.get("/v1/workflows/run/" + blockingRun)).get("outputs").get("answer").asText())
                    .isEqualTo("You said: kept (calm)");
            assertThat(json(echo.get("/v1/workflows/run/" + streamedRun)).get("status").asText())
                    .isEqualTo("succeeded");
            assertThat(json(reader.get("/v1/workflows/run/" + readerRun)).get("status").asText())
                    .isEqualTo("succeeded");
            JsonNode logs = json(echo.get("/v1/workflows/logs"));
            assertThat(logs.get("total").asInt()).isEqualTo(3);
            assertThat(logs.get("data")).extracting(entry -> entry.get("workflow_run").get("id").asText())
                    .containsSubsequence(streamedRun, blockingRun);
            JsonNode nodes = json(echo.get("/v1/workflows/run/" + blockingRun + "/node-executions"));
            assertThat(nodes.toString()).contains("You said: kept (calm)");

            JsonNode readAgain = json(reader.postJson("/v1/workflows/run", run(Map.of("doc", Map.of("type",
                    "document", "transfer_method", "local_file", "upload_file_id", upload)), "blocking", "ada")));
            assertThat(readAgain.get("data").get("outputs").get("text").asText()).contains("| Ada | 36 |");

            JsonNode holidays = json(again.get("/v2/events/holidays.json?key=" + campusKey));
            assertThat(holidays.get("meta").get("requests").asLong()).as("the usage counted before the restart")
                    .isEqualTo(2);
        }

        DatabaseServer database = config.database().orElseThrow();
        Outcome apps = main(Map.of("HEXAFLOW_DATABASE_URL", database.url(), "HEXAFLOW_DATABASE_USER", database.user(),
                "HEXAFLOW_DATABASE_PASSWORD", database.password()), "apps", "list", "--data-dir", dataDir.toString());
        assertThat(apps.exit()).as(apps.err()).isEqualTo(Main.OK);
        assertThat(apps.out()).as("a command reads the same database").contains("Echo").contains("Reader");
    }

    @Test
    void aBackupOfAPostgresqlStoreIsRefusedWithTheWayToTakeOne() {
        try (TestServer server = TestServer.start(onPostgres(PostgresCluster.get().createDatabase()))) {
            HttpResponse<String> response = server.admin("GET", "/admin/backup", null, null);

            assertThat(response.statusCode()).isEqualTo(409);
            assertThat(json(response).get("message").asText()).contains("pg_dump").contains("pg_restore");
            assertThat(response.headers().firstValue("Content-Disposition")).isEmpty();
        }
    }

    @Test
    void aRestoreIntoAPostgresqlStoreIsRefusedWithTheWayToDoIt() throws IOException {
        Path backup = Files.writeString(dataDir.resolve("backup.zip"), "not read");
        Map<String, String> environment = Map.of("HEXAFLOW_DATABASE_URL", "jdbc:postgresql://127.0.0.1:5432/x");

        Outcome outcome = main(environment, "restore", backup.toString(), "--data-dir", dataDir.resolve("d")
                .toString());

        assertThat(outcome.exit()).isEqualTo(Main.FAILED);
        assertThat(outcome.err()).contains("pg_restore").doesNotContain("Exception").hasLineCount(1);
        assertThat(dataDir.resolve("d")).doesNotExist();
    }

    @Test
    void aDatabaseUrlThatIsNotPostgresqlEndsTheStartInOneLine() {
        Outcome outcome = main(Map.of(), "serve", "--port", "0", "--data-dir", dataDir.toString(),
                "--database-url", "jdbc:mysql://127.0.0.1/hexaflow");

        assertThat(outcome.exit()).isEqualTo(Main.FAILED);
        assertThat(outcome.err()).contains("jdbc:postgresql://HOST:PORT/DATABASE").contains("jdbc:mysql")
                .hasLineCount(1);
    }

    @Test
    void aDatabaseThatCannotBeReachedEndsTheStartInOneLine() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }

        Outcome outcome = main(Map.of("HEXAFLOW_DATABASE_URL", "jdbc:postgresql://127.0.0.1:" + closedPort
                + "/hexaflow"), "serve", "--port", "0", "--data-dir", dataDir.toString());

        assertThat(outcome.exit()).isEqualTo(Main.FAILED);
        assertThat(outcome.err()).startsWith("hexaflow: Cannot connect to the PostgreSQL database at jdbc:postgresql://127.0.0.1:"
                + closedPort + "/hexaflow").hasLineCount(1);
    }

    @Test
    void aDatabaseThatRefusesThePasswordEndsTheStartInOneLineWithoutThePassword() {
        PostgresCluster cluster = PostgresCluster.get();
        String database = cluster.createDatabase();

        Outcome outcome = main(Map.of("HEXAFLOW_DATABASE_URL", cluster.url(database), "HEXAFLOW_DATABASE_USER",
                PostgresCluster.USER, "HEXAFLOW_DATABASE_PASSWORD", "wrong-password"), "serve", "--port", "0",
                "--data-dir", dataDir.toString());

        assertThat(outcome.exit()).isEqualTo(Main.FAILED);
        assertThat(outcome.err()).contains("password authentication failed").doesNotContain("wrong-password")
                .hasLineCount(1);
    }

    @Test
    void aPasswordInTheDatabaseUrlIsNeverPrinted() {
        Outcome inParameters = main(Map.of("HEXAFLOW_DATABASE_URL", "jdbc:postgresql://127.0.0.1:54x2/hexaflow"
                + "?user=ada&password=s3cret-in-query"), "serve", "--port", "0", "--data-dir", dataDir.toString());
        Outcome beforeHost = main(Map.of("HEXAFLOW_DATABASE_URL",
                "jdbc:postgresql://ada:s3cret-in-authority@127.0.0.1:5432/hexaflow"), "serve", "--port", "0",
                "--data-dir", dataDir.toString());

        assertThat(inParameters.exit()).isEqualTo(Main.FAILED);
        assertThat(inParameters.err()).contains("jdbc:postgresql://127.0.0.1:54x2/hexaflow")
                .doesNotContain("s3cret").hasLineCount(1);
        assertThat(beforeHost.exit()).isEqualTo(Main.FAILED);
        assertThat(beforeHost.err()).contains("HEXAFLOW_DATABASE_PASSWORD").doesNotContain("s3cret")
                .hasLineCount(1);
    }

    private record Outcome(int exit, String out, String err) {
    }

    private static Outcome main(Map<String, String> environment, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.run(args, environment, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Outcome(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static List<JsonNode> frames(HttpResponse<InputStream> response) throws IOException {
        assertThat(response.statusCode()).isEqualTo(200);
        String body = new String(response.body().readAllBytes(), StandardCharsets.UTF_8);
        List<JsonNode> events = new ArrayList<>();
        for (String frame : body.split("\n\n")) {
            if (frame.startsWith("data: ")) {
                events.add(TestServer.json(frame.substring("data: ".length())));
            }
        }
        return events;
    }
}
