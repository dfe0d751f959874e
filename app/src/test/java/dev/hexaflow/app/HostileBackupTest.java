package dev.hexaflow.app;

import static dev.hexaflow.app.BackupRestoreTest.cli;
import static dev.hexaflow.app.BackupRestoreTest.readZip;
import static dev.hexaflow.app.BackupRestoreTest.writeZip;
import static dev.hexaflow.app.TestServer.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import dev.hexaflow.adapters.persistence.backup.ZipBombs;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.app.cli.CommandLine;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.h2.util.JdbcUtils;
import org.h2.util.Utils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Backups made to harm what reads them, through the commands that read them ({@code hexaflow restore} and the check
 * {@code hexaflow backup} makes of what it receives). A database crafted to run code: H2 runs what a database
 * defines when it opens it (a trigger's class is loaded and made, a trigger's or an alias's Java source is compiled
 * and run), so the check must not open such a database at all; each crafted piece leaves a file behind if it ever
 * runs. A zip bomb: 2 MB that unpack to 2 GB.
 */
class HostileBackupTest {

    private static final String TRIGGER_CLASS = "dev.hexaflow.app.MarkingTrigger";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path work;

    private Path marks;

    @BeforeEach
    void markHere() throws IOException {
        marks = Files.createDirectories(work.resolve("marks"));
        MarkingTrigger.Markers.folder = marks;
    }

    @AfterEach
    void stopMarking() {
        MarkingTrigger.Markers.folder = null;
    }

    @Test
    void aBackupWhoseDatabaseDefinesTriggersAndJavaAliasesIsRefusedWithoutRunningAnyOfThemAndNothingIsWritten()
            throws Exception {
        Path hostile = craft(takeBackup(), List.of(
                // FORCE: kept even where this JVM refuses to load the class (Hexaflow sets h2.allowedClasses).
                "CREATE FORCE TRIGGER \"CLASS_MARK\" BEFORE INSERT ON \"APP\" FOR EACH ROW CALL '" + TRIGGER_CLASS
                        + "'",
                "CREATE TRIGGER \"SOURCE_MARK\" BEFORE INSERT ON \"APP\" AS $$org.h2.api.Trigger create() throws "
                        + "Exception { " + writeMark("source-trigger-ran") + " return new org.h2.tools"
                        + ".TriggerAdapter() { public void fire(java.sql.Connection c, java.sql.ResultSet o, "
                        + "java.sql.ResultSet n) { } }; }$$",
                "CREATE ALIAS \"WRITE_MARK\" AS $$String writeMark() throws Exception { " + writeMark("alias-ran")
                        + " return \"18\"; }$$",
                // The check reads the schema's version from this table: as a view, reading it calls the alias.
                "DROP TABLE \"flyway_schema_history\"",
                "CREATE VIEW \"flyway_schema_history\" AS SELECT WRITE_MARK() AS \"version\", TRUE AS \"success\""));
        Path target = work.resolve("restored");

        BackupRestoreTest.Outcome outcome = cli("restore", hostile.toString(), "--data-dir", target.toString());

        assertThat(marks()).as("nothing the database defines ran").isEmpty();
        assertThat(outcome.exit()).as(outcome.err()).isEqualTo(1);
        assertThat(outcome.err().strip()).doesNotContain("\n")
                .contains("trigger \"PUBLIC\".\"CLASS_MARK\"", "trigger \"PUBLIC\".\"SOURCE_MARK\"",
                        "alias \"PUBLIC\".\"WRITE_MARK\"")
                .endsWith("nothing was written");
        assertThat(target).doesNotExist();
    }

    @Test
    void theBackupCommandRefusesToKeepABackupWhoseDatabaseDefinesCodeWithoutRunningIt() throws Exception {
        byte[] hostile = Files.readAllBytes(craft(takeBackup(), List.of(
                "CREATE FORCE TRIGGER \"CLASS_MARK\" BEFORE INSERT ON \"APP\" FOR EACH ROW CALL '" + TRIGGER_CLASS
                        + "'")));
        // A server (or whatever answers at its address) that sends the crafted archive as its backup.
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/admin/backup", exchange -> {
            exchange.sendResponseHeaders(200, hostile.length);
            try (OutputStream body = exchange.getResponseBody()) {
                body.write(hostile);
            }
        });
        server.start();
        Path kept = Files.createDirectories(work.resolve("kept")).resolve("nightly.zip");
        try {
            BackupRestoreTest.Outcome outcome = cli("backup", kept.toString(), "--url", "http://127.0.0.1:"
                    + server.getAddress().getPort(), "--token", TestServer.ADMIN_TOKEN);

            assertThat(marks()).as("nothing the database defines ran").isEmpty();
            assertThat(outcome.exit()).as(outcome.err()).isEqualTo(1);
            assertThat(outcome.err().strip()).doesNotContain("\n").contains("is not kept",
                    "trigger \"PUBLIC\".\"CLASS_MARK\"");
            try (Stream<Path> files = Files.list(kept.getParent())) {
                assertThat(files.toList()).as("no file, not even a partial one").isEmpty();
            }
        } finally {
            server.stop(0);
        }
    }

    @Test
    void aZipBombIsRefusedAfterUnpackingAFewHundredMegabytesWithNothingWrittenToTheTemporaryFolderOrTheTarget()
            throws Exception {
        long twoGigabytes = 2048L << 20;
        ObjectNode manifest = JSON.createObjectNode().put("format", "hexaflow-backup").put("format_version", 1)
                .put("hexaflow_version", "0.1.0").put("schema_version", 1).put("created_at", 1);
        manifest.putObject("counts");
        // The manifest is true to the entry (2 GB of zeros and their SHA-256): only what it unpacks to can tell.
        manifest.putArray("entries").addObject().put("name", "hexaflow.mv.db").put("size", twoGigabytes)
                .put("sha256", "a7c744c13cc101ed66c29f672f92455547889cc586ce6d44fe76ae824958ea51");
        Path bomb = work.resolve("bomb.zip");
        ZipBombs.write(bomb, ZipBombs.Entry.zeros("hexaflow.mv.db", 2048),
                ZipBombs.Entry.of("manifest.json", JSON.writeValueAsBytes(manifest)));
        assertThat(Files.size(bomb)).isLessThan(3 << 20);
        Path target = work.resolve("restored");
        TemporaryFolderWatch watch = new TemporaryFolderWatch();
        long began = System.nanoTime();

        BackupRestoreTest.Outcome outcome;
        try (watch) {
            outcome = cli("restore", bomb.toString(), "--data-dir", target.toString());
        }

        assertThat(outcome.exit()).as(outcome.err()).isEqualTo(1);
        assertThat(outcome.err().strip()).doesNotContain("\n").contains("it unpacks to more than",
                "100 times its own").endsWith("nothing was written");
        assertThat(System.nanoTime() - began).as("refused after some 270 MB unpacked in memory, not 2 GB")
                .isLessThan(15_000_000_000L);
        assertThat(watch.largest()).as("the restore's check copied nothing of it to the temporary folder")
                .isLessThan(16 << 20);
        assertThat(target).doesNotExist();
    }

    @Test
    void theBoundOnWhatABackupMayUnpackToIsASettingAndATypoInItIsBadUsage() {
        Map<String, String> typo = Map.of("HEXAFLOW_BACKUP_MAX_RATIO", "lots");
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();

        int exit = Main.run(new String[] {"restore", work.resolve("any.zip").toString(), "--data-dir",
            work.resolve("x").toString()}, typo, new java.io.PrintStream(java.io.OutputStream.nullOutputStream()),
                new java.io.PrintStream(err, true, StandardCharsets.UTF_8));

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("HEXAFLOW_BACKUP_MAX_RATIO", "'lots'");
        assertThat(CommandLine.HELP).contains("HEXAFLOW_BACKUP_MAX_RATIO");
    }

    /**
     * The largest the restore check's copies in the temporary folder grew while it was open, looked at every few
     * milliseconds (any restore check's: the other test JVM's copies are of small real backups).
     */
    private static final class TemporaryFolderWatch implements AutoCloseable {
        private final Path folder = Path.of(System.getProperty("java.io.tmpdir"));
        private final AtomicLong largest = new AtomicLong();
        private final AtomicBoolean watching = new AtomicBoolean(true);
        private final Thread thread = new Thread(this::watch, "temporary-folder-watch");

        TemporaryFolderWatch() {
            thread.setDaemon(true);
            thread.start();
        }

        private void watch() {
            while (watching.get()) {
                long size = 0;
                try (Stream<Path> copies = Files.list(folder)) {
                    for (Path copy : copies.filter(path -> path.getFileName().toString()
                            .startsWith("hexaflow-restore-check-")).toList()) {
                        try (Stream<Path> files = Files.walk(copy)) {
                            for (Path file : files.filter(Files::isRegularFile).toList()) {
                                size += Files.size(file);
                            }
                        } catch (IOException | java.io.UncheckedIOException e) {
                            // Deleted while looked at.
                        }
                    }
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
                largest.accumulateAndGet(size, Math::max);
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        long largest() {
            return largest.get();
        }

        @Override
        public void close() throws InterruptedException {
            watching.set(false);
            thread.join();
        }
    }

    private List<String> marks() throws IOException {
        try (Stream<Path> files = Files.list(marks)) {
            return files.map(path -> path.getFileName().toString()).sorted().toList();
        }
    }

    private String writeMark(String name) {
        String file = marks.resolve(name).toAbsolutePath().toString().replace("\\", "\\\\");
        return "java.nio.file.Files.writeString(java.nio.file.Path.of(\"" + file + "\"), \"ran\");";
    }

    /** A small real backup of a server with one app. */
    private Path takeBackup() throws IOException {
        Path zip = work.resolve("good.zip");
        try (TestServer server = TestServer.start(work.resolve("source"))) {
            ServiceApi api = server.api(server.importApp("echo.yml").get("api_key").asText());
            assertThat(api.get("/v1/parameters").statusCode()).isEqualTo(200);
            Files.write(zip, server.getBytesAsAdmin("/admin/backup").body());
        }
        return zip;
    }

    /**
     * The backup with its database changed by {@code statements} and its manifest made to match, as an attacker
     * who has the format would make it. The trigger class is not loaded while the statements run (H2 asks the
     * class factory first), so that this JVM sees the first time anything loads it.
     */
    private Path craft(Path backup, List<String> statements) throws Exception {
        Map<String, byte[]> entries = readZip(backup);
        Path dir = Files.createDirectories(work.resolve("crafting"));
        Files.write(dir.resolve("hexaflow.mv.db"), entries.get("hexaflow.mv.db"));
        Utils.ClassFactory inert = new Utils.ClassFactory() {
            @Override
            public boolean match(String name) {
                return name.equals(TRIGGER_CLASS);
            }

            @Override
            public Class<?> loadClass(String name) {
                return InertTrigger.class;
            }
        };
        JdbcUtils.addClassFactory(inert);
        try (Connection db = DriverManager.getConnection("jdbc:h2:file:" + dir.toAbsolutePath().resolve("hexaflow"),
                "sa", ""); Statement statement = db.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
            statement.execute("SHUTDOWN");
        } finally {
            JdbcUtils.removeClassFactory(inert);
        }
        try (Stream<Path> files = Files.list(marks)) {
            for (Path mark : files.toList()) {
                // Made while crafting, in this trusted JVM: only what runs after counts.
                Files.delete(mark);
            }
        }
        byte[] database = Files.readAllBytes(dir.resolve("hexaflow.mv.db"));
        entries.put("hexaflow.mv.db", database);
        ObjectNode manifest = (ObjectNode) json(new String(entries.get("manifest.json"), StandardCharsets.UTF_8));
        for (var entry : manifest.get("entries")) {
            if (entry.get("name").asText().equals("hexaflow.mv.db")) {
                ((ObjectNode) entry).put("size", database.length).put("sha256", HexFormat.of().formatHex(
                        MessageDigest.getInstance("SHA-256").digest(database)));
            }
        }
        entries.put("manifest.json", manifest.toString().getBytes(StandardCharsets.UTF_8));
        Path crafted = work.resolve("crafted.zip");
        writeZip(crafted, entries);
        return crafted;
    }

    /** Stands in for the marking trigger while the database is crafted. */
    public static final class InertTrigger extends org.h2.tools.TriggerAdapter {
        @Override
        public void fire(Connection conn, java.sql.ResultSet oldRow, java.sql.ResultSet newRow) {
        }
    }
}
