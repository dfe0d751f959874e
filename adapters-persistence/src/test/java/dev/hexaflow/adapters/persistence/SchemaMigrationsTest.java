package dev.hexaflow.adapters.persistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.h2.jdbcx.JdbcConnectionPool;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A database at the newest schema is left as it is, without Flyway; any other goes to Flyway, which migrates it
 * or says why it cannot. The newest version the code knows is that of the newest script of either store.
 */
class SchemaMigrationsTest {

    private static final Pattern SCRIPT = Pattern.compile("V(\\d+)__.*\\.sql");

    private final JdbcConnectionPool pool = JdbcConnectionPool.create("jdbc:h2:mem:schema-"
            + System.nanoTime(), "sa", "");

    /** The database is gone with the pool's last connection. */
    @AfterEach
    void close() {
        pool.dispose();
    }

    @Test
    void theNewestVersionIsThatOfTheNewestScriptAndEachStoreHasEveryVersionUpToIt() throws Exception {
        Set<Integer> h2 = versions("db/migration", "db/common");
        Set<Integer> postgres = versions("db/postgresql", "db/common");

        assertThat(h2).as("H2's scripts").containsExactlyElementsOf(postgres);
        assertThat(((TreeSet<Integer>) h2).last()).isEqualTo(SchemaMigrations.NEWEST);
        assertThat(h2).hasSize(SchemaMigrations.NEWEST);
    }

    @Test
    void anEmptyDatabaseIsMigratedAndThenFoundCurrent() {
        assertThat(SchemaMigrations.isCurrent(pool)).isFalse();

        SchemaMigrations.bringUpToDate(pool, H2Database.MIGRATIONS);

        assertThat(SchemaMigrations.isCurrent(pool)).isTrue();
        assertThat(history("SELECT COUNT(*) FROM \"flyway_schema_history\" WHERE \"success\" AND \"version\" IS NOT NULL")).isEqualTo(
                SchemaMigrations.NEWEST);
    }

    @Test
    void aCurrentDatabaseIsNotHandedToFlyway() {
        SchemaMigrations.bringUpToDate(pool, H2Database.MIGRATIONS);
        // A checksum Flyway's own check would refuse: only a start that skips Flyway goes through.
        Jdbi.create(pool).useHandle(handle -> handle.execute(
                "UPDATE \"flyway_schema_history\" SET \"checksum\" = 1 WHERE \"version\" = '1'"));
        assertThatThrownBy(() -> Flyway.configure().dataSource(pool).locations(H2Database.MIGRATIONS).load()
                .validate()).isInstanceOf(FlywayException.class);

        SchemaMigrations.bringUpToDate(pool, H2Database.MIGRATIONS);

        assertThat(SchemaMigrations.isCurrent(pool)).isTrue();
    }

    @Test
    void aDatabaseOfAnOlderVersionGetsTheScriptsItLacks() {
        Flyway.configure().dataSource(pool).locations(H2Database.MIGRATIONS)
                .target(String.valueOf(SchemaMigrations.NEWEST - 1)).load().migrate();
        assertThat(SchemaMigrations.isCurrent(pool)).isFalse();

        SchemaMigrations.bringUpToDate(pool, H2Database.MIGRATIONS);

        assertThat(SchemaMigrations.isCurrent(pool)).isTrue();
    }

    @Test
    void aFailedScriptOrAVersionOfANewerBuildIsLeftToFlyway() {
        SchemaMigrations.bringUpToDate(pool, H2Database.MIGRATIONS);
        Jdbi jdbi = Jdbi.create(pool);
        jdbi.useHandle(handle -> handle.execute("INSERT INTO \"flyway_schema_history\" (\"installed_rank\", "
                + "\"version\", \"description\", \"type\", \"script\", \"installed_by\", \"execution_time\", "
                + "\"success\") VALUES (1000, '" + (SchemaMigrations.NEWEST + 1) + "', 'newer', 'SQL', "
                + "'V99__newer.sql', 'sa', 1, TRUE)"));
        assertThat(SchemaMigrations.isCurrent(pool)).as("a database of a newer build").isFalse();
        SchemaMigrations.bringUpToDate(pool, H2Database.MIGRATIONS); // which Flyway accepts as it is

        jdbi.useHandle(handle -> handle.execute("DELETE FROM \"flyway_schema_history\" WHERE \"installed_rank\" "
                + "= 1000"));
        jdbi.useHandle(handle -> handle.execute("UPDATE \"flyway_schema_history\" SET \"success\" = FALSE "
                + "WHERE \"version\" = '" + SchemaMigrations.NEWEST + "'"));
        assertThat(SchemaMigrations.isCurrent(pool)).as("a failed script").isFalse();
        assertThatThrownBy(() -> SchemaMigrations.bringUpToDate(pool, H2Database.MIGRATIONS))
                .as("Flyway says why").isInstanceOf(FlywayException.class).hasMessageContaining("failed");
    }

    @Test
    void aMigratedPostgresqlDatabaseIsCurrent() {
        try (Database database = PostgresCluster.get().emptyDatabase()) {
            assertThat(SchemaMigrations.isCurrent(database.dataSource())).isTrue();
        }
    }

    private long history(String sql) {
        return Jdbi.create(pool).withHandle(handle -> handle.createQuery(sql).mapTo(Long.class).one());
    }

    private static Set<Integer> versions(String... folders) throws IOException, URISyntaxException {
        Set<Integer> versions = new TreeSet<>();
        for (String folder : folders) {
            Path path = Path.of(Objects.requireNonNull(SchemaMigrationsTest.class.getClassLoader()
                    .getResource(folder), folder).toURI());
            try (Stream<Path> scripts = Files.list(path)) {
                scripts.forEach(script -> {
                    Matcher name = SCRIPT.matcher(script.getFileName().toString());
                    assertThat(name.matches()).as(script.getFileName().toString()).isTrue();
                    assertThat(versions.add(Integer.parseInt(name.group(1)))).as("one script per version: "
                            + script.getFileName()).isTrue();
                });
            }
        }
        return versions;
    }
}
