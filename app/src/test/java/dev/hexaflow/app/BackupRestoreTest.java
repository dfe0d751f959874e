package dev.hexaflow.app;

import dev.hexaflow.adapters.persistence.H2Database;
import static dev.hexaflow.app.TestServer.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.app.api.ServiceApi;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The online backup and the restore, on the real server in-process and the real command line: a backup taken while
 * runs and uploads go on restores into a server that answers as the first did; a damaged or foreign file is
 * refused with one line and writes nothing.
 */
class BackupRestoreTest {

    private static final String CSV = "name,age\nAda,36\n";
    private static final String TABLE = "| name | age |\n| --- | --- |\n| Ada | 36 |";

    @TempDir
    Path work;

    record Outcome(int exit, String out, String err) {
    }

    static Outcome cli(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.run(args, Map.of(), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Outcome(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aBackupTakenWhileRunsAndUploadsGoOnRestoresIntoAServerThatAnswersEveryRunLogUploadAndKeyAsTheFirstDid()
            throws Exception {
        Path first = work.resolve("first");
        Path second = work.resolve("second");
        Path zip = work.resolve("backup.zip");
        Map<String, JsonNode> runsBefore = new LinkedHashMap<>();
        Map<String, String> uploadsBefore = new LinkedHashMap<>();
        Map<String, String> runsDuring = new ConcurrentHashMap<>();
        List<String> uploadsDuring = Collections.synchronizedList(new ArrayList<>());
        String echoKey;
        String readerKey;
        String extraKey;
        String campusKey;
        JsonNode quietLogs;
        long campusRequests;
        try (TestServer server = TestServer.start(first)) {
            campusKey = server.campusKey();
            echoKey = server.importApp("echo.yml").get("api_key").asText();
            JsonNode reader = server.importApp("reader.yml");
            readerKey = reader.get("api_key").asText();
            extraKey = json(server.admin("POST", "/admin/apps/" + reader.get("app_id").asText() + "/keys", null,
                    null)).get("api_key").asText();
            ServiceApi echo = server.api(echoKey);
            ServiceApi readerApi = server.api(readerKey);
            for (int i = 0; i < 5; i++) {
                JsonNode run = ServiceApi.json(echo.postJson("/v1/workflows/run",
                        ServiceApi.run(Map.of("query", "quiet " + i), "blocking", "quiet")));
                runsBefore.put(run.get("workflow_run_id").asText(), null);
            }
            for (int i = 0; i < 3; i++) {
                String id = readerApi.upload("ada", "people-" + i + ".csv", "text/csv",
                        CSV.getBytes(StandardCharsets.UTF_8));
                uploadsBefore.put(id, readRun(readerApi, id).get("data").get("outputs").get("text").asText());
            }
            for (int i = 0; i < 3; i++) {
                campusRequests = json(server.get("/v2/events/holidays.json?key=" + campusKey)).get("meta")
                        .get("requests").asLong();
            }
            for (String id : List.copyOf(runsBefore.keySet())) {
                runsBefore.put(id, json(echo.get("/v1/workflows/run/" + id)));
            }
            quietLogs = json(echo.get("/v1/workflows/logs?created_by_end_user_session_id=quiet&limit=100"));
            campusRequests = json(server.get("/v2/events/holidays.json?key=" + campusKey)).get("meta")
                    .get("requests").asLong();

            AtomicBoolean going = new AtomicBoolean(true);
            List<Thread> clients = new ArrayList<>();
            for (int c = 0; c < 3; c++) {
                int client = c;
                Thread thread = new Thread(() -> {
                    int n = 0;
                    while (going.get()) {
                        if (n++ % 2 == 0) {
                            HttpResponse<String> response = echo.postJson("/v1/workflows/run",
                                    ServiceApi.run(Map.of("query", "busy " + n), "blocking", "busy-" + client));
                            if (response.statusCode() == 200) {
                                runsDuring.put(ServiceApi.json(response).get("workflow_run_id").asText(), "");
                            }
                        } else {
                            uploadsDuring.add(readerApi.upload("ada", "busy.csv", "text/csv",
                                    CSV.getBytes(StandardCharsets.UTF_8)));
                        }
                    }
                });
                thread.start();
                clients.add(thread);
            }
            Thread.sleep(300);
            HttpResponse<byte[]> backup = server.getBytesAsAdmin("/admin/backup");
            going.set(false);
            for (Thread thread : clients) {
                thread.join(10_000);
            }
            assertThat(backup.statusCode()).isEqualTo(200);
            assertThat(backup.headers().firstValue("Content-Type")).hasValue("application/zip");
            Files.write(zip, backup.body());
            assertThat(runsDuring).as("runs went on while the backup was taken").isNotEmpty();
            assertThat(uploadsDuring).as("uploads went on while the backup was taken").isNotEmpty();
            for (String id : runsDuring.keySet()) {
                runsDuring.put(id, json(echo.get("/v1/workflows/run/" + id)).toString());
            }
        }

        Outcome restored = cli("restore", zip.toString(), "--data-dir", second.toString());

        assertThat(restored.exit()).as(restored.err()).isZero();
        assertThat(restored.out()).contains("Restored", "4 apps");
        assertOwnerOnly(second);
        try (TestServer server = TestServer.start(second)) {
            ServiceApi echo = server.api(echoKey);
            ServiceApi readerApi = server.api(readerKey);
            for (Map.Entry<String, JsonNode> run : runsBefore.entrySet()) {
                assertThat(json(echo.get("/v1/workflows/run/" + run.getKey()))).isEqualTo(run.getValue());
            }
            assertThat(json(echo.get("/v1/workflows/logs?created_by_end_user_session_id=quiet&limit=100")))
                    .isEqualTo(quietLogs);
            for (Map.Entry<String, String> upload : uploadsBefore.entrySet()) {
                assertThat(readRun(readerApi, upload.getKey()).get("data").get("outputs").get("text").asText())
                        .isEqualTo(upload.getValue()).isEqualTo(TABLE);
            }
            assertThat(server.api(extraKey).get("/v1/parameters").statusCode()).isEqualTo(200);
            assertThat(json(server.get("/v2/events/holidays.json?key=" + campusKey)).get("meta").get("requests")
                    .asLong()).as("every usage count answered before the backup is kept")
                    .isEqualTo(campusRequests + 1);
            assertThat(json(echo.get("/v1/workflows/logs?status=running")).get("total").asInt())
                    .as("a run is in the backup whole or not at all: none is left running").isZero();
            int kept = 0;
            for (Map.Entry<String, String> run : runsDuring.entrySet()) {
                HttpResponse<String> detail = echo.get("/v1/workflows/run/" + run.getKey());
                if (detail.statusCode() == 200) {
                    kept++;
                    JsonNode restoredRun = json(detail);
                    if (!restoredRun.toString().equals(run.getValue())) {
                        assertThat(restoredRun.get("status").asText()).isEqualTo("failed");
                        assertThat(restoredRun.get("error").asText()).contains("server stopped");
                    }
                } else {
                    assertThat(detail.statusCode()).isEqualTo(404);
                }
            }
            assertThat(kept).as("the runs answered before the backup was asked for are in it")
                    .isLessThanOrEqualTo(runsDuring.size());
            for (String upload : uploadsDuring) {
                HttpResponse<String> run = readerApi.postJson("/v1/workflows/run", ServiceApi.run(Map.of("doc",
                        Map.of("type", "document", "transfer_method", "local_file", "upload_file_id", upload)),
                        "blocking", "ada"));
                if (run.statusCode() == 200) {
                    assertThat(ServiceApi.json(run).get("data").get("outputs").get("text").asText())
                            .as("an upload in the backup has its file").isEqualTo(TABLE);
                } else {
                    assertThat(run.statusCode()).as(run.body()).isEqualTo(400);
                }
            }
        }
    }

    private static JsonNode readRun(ServiceApi reader, String upload) {
        return ServiceApi.json(reader.postJson("/v1/workflows/run", ServiceApi.run(Map.of("doc", Map.of("type",
                "document", "transfer_method", "local_file", "upload_file_id", upload)), "blocking", "ada")));
    }

    private static void assertOwnerOnly(Path dir) throws IOException {
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir))).isEqualTo("rwx------");
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path path : files.toList()) {
                assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(path))).as(path.toString())
                        .isEqualTo(Files.isDirectory(path) ? "rwx------" : "rw-------");
            }
        }
    }

    /** A small real backup: one app, one run, one upload. */
    private Path takeBackup() throws IOException {
        Path zip = work.resolve("good.zip");
        try (TestServer server = TestServer.start(work.resolve("source"))) {
            ServiceApi reader = server.api(server.importApp("reader.yml").get("api_key").asText());
            readRun(reader, reader.upload("ada", "people.csv", "text/csv", CSV.getBytes(StandardCharsets.UTF_8)));
            Files.write(zip, server.getBytesAsAdmin("/admin/backup").body());
        }
        return zip;
    }

    @Test
    void aTruncatedZipAForeignZipAndADamagedEntryAreRefusedWithOneLineAndNothingIsWritten() throws Exception {
        Path good = takeBackup();
        byte[] bytes = Files.readAllBytes(good);
        Path truncated = work.resolve("truncated.zip");
        Files.write(truncated, java.util.Arrays.copyOf(bytes, bytes.length / 2));
        Path foreign = work.resolve("foreign.zip");
        writeZip(foreign, Map.of("README.txt", "hello".getBytes(StandardCharsets.UTF_8)));
        Path noManifest = work.resolve("no-manifest.zip");
        writeZip(noManifest, Map.of("hexaflow.mv.db", readZip(good).get("hexaflow.mv.db")));
        Path foreignManifest = work.resolve("foreign-manifest.zip");
        writeZip(foreignManifest, Map.of("manifest.json", "{\"name\":\"something\"}".getBytes(StandardCharsets.UTF_8)));
        Path notZip = work.resolve("notes.zip");
        Files.writeString(notZip, "just some text");
        Path damaged = work.resolve("damaged.zip");
        Map<String, byte[]> entries = readZip(good);
        byte[] db = entries.get("hexaflow.mv.db");
        db[db.length / 2] ^= 0x5A;
        writeZip(damaged, entries);
        Path escaping = work.resolve("escaping.zip");
        Map<String, byte[]> escapingEntries = readZip(good);
        escapingEntries.put("../outside", "x".getBytes(StandardCharsets.UTF_8));
        writeZip(escaping, escapingEntries);

        Path newer = work.resolve("newer.zip");
        writeZip(newer, withManifest(good, manifest -> manifest.put("schema_version", 99)));
        Path miscounted = work.resolve("miscounted.zip");
        writeZip(miscounted, withManifest(good, manifest -> ((com.fasterxml.jackson.databind.node.ObjectNode)
                manifest.get("counts")).put("workflow_run", 1000)));
        Path otherFormat = work.resolve("format.zip");
        writeZip(otherFormat, withManifest(good, manifest -> manifest.put("format_version", 2)));

        Map<Path, String> expected = new LinkedHashMap<>();
        expected.put(newer, "database schema 99, newer than this Hexaflow's");
        expected.put(miscounted, "the database holds 1 rows in workflow_run where the manifest says 1000");
        expected.put(otherFormat, "it is backup format 2");
        expected.put(truncated, "not a complete zip file");
        expected.put(foreign, "README.txt, which is no file of a Hexaflow data directory");
        expected.put(noManifest, "no manifest.json");
        expected.put(foreignManifest, "is not a Hexaflow backup's");
        expected.put(notZip, "not a complete zip file");
        expected.put(damaged, "hexaflow.mv.db does not match its checksum");
        expected.put(escaping, "../outside, which is no file of a Hexaflow data directory");
        for (Map.Entry<Path, String> refused : expected.entrySet()) {
            Path target = work.resolve("restored-" + refused.getKey().getFileName());

            Outcome outcome = cli("restore", refused.getKey().toString(), "--data-dir", target.toString());

            assertThat(outcome.exit()).as(outcome.err()).isEqualTo(1);
            assertThat(outcome.out()).isEmpty();
            assertThat(outcome.err().strip()).doesNotContain("\n").contains(refused.getValue())
                    .endsWith("nothing was written");
            assertThat(target).as("nothing is written for " + refused.getKey().getFileName()).doesNotExist();
        }
        assertThat(work.resolve("outside")).doesNotExist();
        Outcome ok = cli("restore", good.toString(), "--data-dir", work.resolve("restored-good").toString());
        assertThat(ok.exit()).as(ok.err()).isZero();
    }

    @Test
    void aRestoreIntoADirectoryThatHoldsAnythingIsRefusedAndLeavesItAsItWas() throws Exception {
        Path good = takeBackup();
        Path target = work.resolve("busy");
        Files.createDirectories(target);
        Files.writeString(target.resolve("notes.txt"), "mine");

        Outcome outcome = cli("restore", good.toString(), "--data-dir", target.toString());

        assertThat(outcome.exit()).isEqualTo(1);
        assertThat(outcome.err().strip()).doesNotContain("\n").contains("is not empty");
        try (Stream<Path> files = Files.list(target)) {
            assertThat(files.map(path -> path.getFileName().toString()).toList()).containsExactly("notes.txt");
        }
        assertThat(cli("restore", work.resolve("absent.zip").toString(), "--data-dir",
                work.resolve("x").toString()).exit()).as("no such file is bad usage").isEqualTo(2);
        assertThat(cli("restore", "--data-dir", work.resolve("x").toString()).exit()).isEqualTo(2);
    }

    @Test
    void theBackupCommandKeepsAWholeVerifiedFileAndLeavesNoFileWhenTheServerRefuses() throws Exception {
        try (TestServer server = TestServer.start(work.resolve("source"))) {
            server.importApp("echo.yml");
            Path file = work.resolve("out").resolve("nightly.zip");
            Files.createDirectories(file.getParent());

            Outcome refused = cli("backup", file.toString(), "--url", server.hexaflow.baseUrl(), "--token",
                    "wrong-token-0123456789");
            assertThat(refused.exit()).isEqualTo(1);
            assertThat(refused.err().strip()).doesNotContain("\n").contains("401");
            try (Stream<Path> files = Files.list(file.getParent())) {
                assertThat(files.toList()).as("no file, not even a partial one").isEmpty();
            }
            assertThat(server.get("/admin/backup").statusCode()).isEqualTo(401);

            Outcome taken = cli("backup", file.toString(), "--url", server.hexaflow.baseUrl() + "/", "--token",
                    TestServer.ADMIN_TOKEN);

            assertThat(taken.exit()).as(taken.err()).isZero();
            assertThat(taken.out()).contains("nightly.zip", "3 apps");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
            try (Stream<Path> files = Files.list(file.getParent())) {
                assertThat(files.toList()).containsExactly(file);
            }
            assertThat(readZip(file).keySet()).contains("hexaflow.mv.db", "manifest.json");
        }
        assertThat(cli("backup", work.resolve("b.zip").toString()).exit()).as("--url is needed").isEqualTo(2);
        assertThat(cli("backup", work.resolve("b.zip").toString(), "--url", "http://127.0.0.1:1").exit())
                .as("a token is needed").isEqualTo(2);
    }

    private static Map<String, byte[]> withManifest(Path zip,
            java.util.function.Consumer<com.fasterxml.jackson.databind.node.ObjectNode> change) throws IOException {
        Map<String, byte[]> entries = readZip(zip);
        com.fasterxml.jackson.databind.node.ObjectNode manifest = (com.fasterxml.jackson.databind.node.ObjectNode)
                json(new String(entries.get("manifest.json"), StandardCharsets.UTF_8));
        change.accept(manifest);
        entries.put("manifest.json", manifest.toString().getBytes(StandardCharsets.UTF_8));
        return entries;
    }

    @Test
    void aBackupOfAnOlderSchemaIsRestoredAndMigratedWhenTheServerStarts() throws Exception {
        Path old = work.resolve("old");
        Files.createDirectories(old);
        String key = "an-old-campus-key-0123456789";
        Path zip = work.resolve("old.zip");
        String url = "jdbc:h2:file:" + old.toAbsolutePath().resolve("hexaflow");
        org.h2.jdbcx.JdbcConnectionPool pool = org.h2.jdbcx.JdbcConnectionPool.create(url, "sa", "");
        try {
            org.flywaydb.core.Flyway.configure().dataSource(pool).locations(H2Database.MIGRATIONS).target("4")
                    .load().migrate();
            try (var db = pool.getConnection(); var statement = db.createStatement()) {
                statement.execute("INSERT INTO campus_key (key_hash, requests) VALUES ('"
                        + dev.hexaflow.domain.secret.SecretHash.of(key).hex() + "', 41)");
            }
            try (var out = Files.newOutputStream(zip)) {
                var manifest = new dev.hexaflow.application.backup.service.TakeBackupService(
                        dev.hexaflow.application.backup.port.out.AcknowledgedWrites.NONE,
                        new dev.hexaflow.adapters.persistence.backup.H2DatabaseSnapshots(pool, old),
                        new dev.hexaflow.adapters.persistence.backup.ZipBackupArchive(),
                        new dev.hexaflow.adapters.persistence.backup.FileSystemDataDirectoryFiles(old), "0.0.9",
                        java.time.Clock.systemUTC()).backup(
                                new dev.hexaflow.application.backup.port.in.TakeBackupCommand(out));
                assertThat(manifest.schemaVersion()).isEqualTo(4);
            }
        } finally {
            try (var db = pool.getConnection(); var statement = db.createStatement()) {
                statement.execute("SHUTDOWN");
            }
            pool.dispose();
        }
        Path restoredDir = work.resolve("restored");

        Outcome restored = cli("restore", zip.toString(), "--data-dir", restoredDir.toString());

        assertThat(restored.exit()).as(restored.err()).isZero();
        assertThat(restored.out()).contains("Hexaflow 0.0.9, schema 4");
        try (TestServer server = TestServer.start(restoredDir)) {
            assertThat(json(server.get("/v2/events/holidays.json?key=" + key)).get("meta").get("requests").asLong())
                    .isEqualTo(42);
            assertThat(server.importApp("echo.yml").get("site_code").asText())
                    .as("migration 5 (web app sites) ran at start").isNotBlank();
        }
    }

    static Map<String, byte[]> readZip(Path file) throws IOException {
        Map<String, byte[]> entries = new LinkedHashMap<>();
        try (ZipFile zip = new ZipFile(file.toFile())) {
            Enumeration<? extends ZipEntry> all = zip.entries();
            while (all.hasMoreElements()) {
                ZipEntry entry = all.nextElement();
                entries.put(entry.getName(), zip.getInputStream(entry).readAllBytes());
            }
        }
        return entries;
    }

    static void writeZip(Path file, Map<String, byte[]> entries) throws IOException {
        try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(file))) {
            for (Map.Entry<String, byte[]> entry : entries.entrySet()) {
                zip.putNextEntry(new ZipEntry(entry.getKey()));
                zip.write(entry.getValue());
                zip.closeEntry();
            }
        }
    }
}
