package dev.hexaflow.adapters.persistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The build's new database file holds what the migration scripts make and nothing an installation could share, a
 * first start copies it where no database is, and never over one, nor when the settings ask H2 to make the file.
 */
class NewDatabaseFileTest {

    /** Before this test's JVM started is before any database it migrates itself. */
    private static final Instant STARTED = Instant.now();

    @TempDir
    Path dir;

    @Test
    void theFileHoldsTheSchemaTheScriptsMake() {
        H2Database migrated = H2Database.migratedWithoutNewFile(dir.resolve("migrated"));
        assertThat(NewDatabaseFile.placeIn(dir.resolve("copied"))).isTrue();
        H2Database copied = H2Database.openFile(dir.resolve("copied"));
        try {
            List<String> fromScripts = schema(migrated.jdbi());
            assertThat(fromScripts).as("the schema the scripts make").hasSizeGreaterThan(100);
            assertThat(schema(copied.jdbi())).isEqualTo(fromScripts);
            assertThat(migratedBeforeThisTest(copied.jdbi())).as("made by the build").isTrue();
            assertThat(migratedBeforeThisTest(migrated.jdbi())).as("made now").isFalse();
        } finally {
            migrated.close();
            copied.close();
        }
    }

    @Test
    void theFileHoldsNoRowButFlywaysHistory() {
        assertThat(NewDatabaseFile.placeIn(dir)).isTrue();
        H2Database database = H2Database.openFile(dir);
        try {
            Jdbi jdbi = database.jdbi();
            List<String> tables = jdbi.withHandle(handle -> handle.createQuery("SELECT TABLE_NAME FROM "
                    + "INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = 'PUBLIC' AND TABLE_NAME <> "
                    + "'flyway_schema_history'").mapTo(String.class).list());
            assertThat(tables).as("the schema's tables").hasSizeGreaterThan(30);
            for (String table : tables) {
                long rows = jdbi.withHandle(handle -> handle.createQuery("SELECT COUNT(*) FROM \"" + table + "\"")
                        .mapTo(Long.class).one());
                assertThat(rows).as(table).isZero();
            }
            assertThat(SchemaMigrations.isCurrent(database.dataSource())).isTrue();
        } finally {
            database.close();
        }
    }

    @Test
    void aDatabaseFileInPlaceIsNeverReplaced() throws Exception {
        Path file = dir.resolve(NewDatabaseFile.FILE_NAME);
        Files.writeString(file, "not to be lost");

        assertThat(NewDatabaseFile.placeIn(dir)).isFalse();

        assertThat(Files.readString(file)).isEqualTo("not to be lost");
    }

    @Test
    void aCopyLeftHalfWayByAnEarlierStartIsCopiedOver() throws Exception {
        Path partial = dir.resolve(NewDatabaseFile.FILE_NAME + ".new");
        Files.writeString(partial, "half a file");

        assertThat(NewDatabaseFile.placeIn(dir)).isTrue();

        assertThat(partial).doesNotExist();
        H2Database database = H2Database.openFile(dir);
        try {
            assertThat(SchemaMigrations.isCurrent(database.dataSource())).isTrue();
        } finally {
            database.close();
        }
    }

    @Test
    void aPlaceThatCannotTakeTheFileLeavesTheDatabaseToH2() throws Exception {
        Path notAFolder = dir.resolve("data");
        Files.writeString(notAFolder, "a file where the data directory would be");

        assertThat(NewDatabaseFile.placeIn(notAFolder)).isFalse();

        assertThat(dir.resolve("data." + NewDatabaseFile.FILE_NAME)).doesNotExist();
    }

    @Test
    void aStartWithRunningSettingsCopiesTheFile() {
        H2Database database = H2Database.connectFile(dir, "CACHE_SIZE=8192;WRITE_DELAY=500");
        try {
            database.migrate(dir);
            assertThat(migratedBeforeThisTest(database.jdbi())).isTrue();
        } finally {
            database.close();
        }
    }

    @Test
    void settingsThatSayHowToMakeTheFileLeaveItToH2() {
        H2Database mustExist = H2Database.connectFile(dir, "IFEXISTS=TRUE");
        assertThatThrownBy(() -> mustExist.migrate(dir)).as("H2 refuses a database that is not there")
                .hasMessageContaining("not found");
        assertThat(dir.resolve(NewDatabaseFile.FILE_NAME)).doesNotExist();

        H2Database compressed = H2Database.connectFile(dir, "COMPRESS=TRUE");
        try {
            compressed.migrate(dir);
            assertThat(migratedBeforeThisTest(compressed.jdbi())).as("migrated by Flyway, now").isFalse();
        } finally {
            compressed.close();
        }
    }

    /** H2's own account of the schema, without the user's salt and hash (random for each database). */
    private static List<String> schema(Jdbi jdbi) {
        return jdbi.withHandle(handle -> handle.createQuery("SCRIPT NODATA").mapTo(String.class).list()).stream()
                .filter(statement -> !statement.startsWith("CREATE USER")).toList();
    }

    private static boolean migratedBeforeThisTest(Jdbi jdbi) {
        Timestamp newest = jdbi.withHandle(handle -> handle.createQuery("SELECT MAX(\"installed_on\") FROM "
                + "\"flyway_schema_history\"").mapTo(Timestamp.class).one());
        return newest.toInstant().isBefore(STARTED);
    }
}
