package dev.hexaflow.app;

import static dev.hexaflow.app.BackupRestoreTest.cli;
import static dev.hexaflow.app.BackupRestoreTest.readZip;
import static dev.hexaflow.app.BackupRestoreTest.writeZip;
import static dev.hexaflow.app.TestServer.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hexaflow.app.api.ServiceApi;
import java.io.IOException;
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
import java.util.stream.Stream;
import org.h2.util.JdbcUtils;
import org.h2.util.Utils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A backup whose database was crafted to run code: H2 runs what a database defines when it opens it (a trigger's
 * class is loaded and made, a trigger's or an alias's Java source is compiled and run), so the restore's check must
 * not open such a database at all. Each crafted piece leaves a file behind if it ever runs.
 */
class HostileBackupTest {

    private static final String TRIGGER_CLASS = "dev.hexaflow.app.MarkingTrigger";

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
                "CREATE FORCE TRIGGER \"CLASS_MARK\" BEFORE INSERT ON \"APP\" FOR EACH ROW CALL '" + TRIGGER_CLASS + "'",
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
