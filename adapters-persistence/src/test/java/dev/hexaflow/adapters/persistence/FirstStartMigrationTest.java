package dev.hexaflow.adapters.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.flywaydb.core.Flyway;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A database whose first start was claimed before the first start was marked done apart has had it: the upgrade
 * marks it done, so that no start makes it again. Where instances share the store, the claim of one that died
 * (its lease lapsed) is taken over, never a live one's, and never once the first start is done.
 */
class FirstStartMigrationTest {

    @TempDir
    Path dataDir;

    @Test
    void aFirstStartClaimedBeforeTheUpgradeIsDoneAfterIt() {
        String url = "jdbc:h2:" + dataDir.resolve("hexaflow").toAbsolutePath();
        Flyway.configure().dataSource(url, "sa", "").locations(H2Database.MIGRATIONS).target("17").load()
                .migrate();
        Jdbi.create(url, "sa", "").useHandle(handle -> handle.execute(
                "INSERT INTO server_state (name, claimed_at) VALUES ('first_start', 1700000000)"));

        try (H2Database database = H2Database.openFile(dataDir)) {
            assertThat(database.claimed("first_start_done")).isTrue();
            assertThat(database.claimFor("first_start", "first_start_done", "a", 1, 0)).as("taken by no one")
                    .isFalse();
        }
    }

    @Test
    void aClaimIsTakenOverOnlyFromAnInstanceWhoseLeaseLapsedAndOnlyUntilItIsDone() {
        try (H2Database database = H2Database.openFile(dataDir)) {
            assertThat(database.claimed("first_start_done")).as("a new database has its first start to make")
                    .isFalse();
            assertThat(database.claimFor("first_start", "first_start_done", "a", 1, 0)).isTrue();
            database.jdbi().useHandle(handle -> handle.execute("INSERT INTO instance_lease (id, started_at, "
                    + "renewed_at) VALUES ('a', 1000, 1000)"));

            assertThat(database.claimFor("first_start", "first_start_done", "b", 1, 500)).as("a lives").isFalse();
            assertThat(database.claimFor("first_start", "first_start_done", "b", 1, 1500)).as("a's lease lapsed")
                    .isTrue();
            assertThat(database.claimFor("first_start", "first_start_done", "c", 1, 1500)).as("b holds no lease")
                    .isTrue();
            database.unclaim("first_start", "b");
            assertThat(database.claimed("first_start")).as("given back by its claimant alone").isTrue();
            assertThat(database.claimOnce("first_start_done", 2)).isTrue();
            assertThat(database.claimFor("first_start", "first_start_done", "d", 2, 1500)).as("done").isFalse();
            database.unclaim("first_start", "c");
            assertThat(database.claimed("first_start")).isFalse();
        }
    }
}
