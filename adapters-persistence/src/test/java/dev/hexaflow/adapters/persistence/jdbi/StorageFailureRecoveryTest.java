package dev.hexaflow.adapters.persistence.jdbi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.persistence.H2Database;
import dev.hexaflow.adapters.persistence.H2StorageHealth;
import dev.hexaflow.application.common.StorageUnavailableException;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * H2 closes a database whose write failed (a full disk); here it is closed the same way, by SHUTDOWN IMMEDIATELY,
 * on a real file: the writer's changes are refused at once with the store's reason, never hang, the database is
 * opened again by the watch, and writes resume, with one log line per change of state.
 */
class StorageFailureRecoveryTest {

    @TempDir
    Path dir;

    @Test
    void aDatabaseThatClosedItselfRefusesWritesAtOnceThenIsOpenedAgainAndWritesResume() throws Exception {
        H2Database database = H2Database.openFile(dir);
        database.jdbi().useHandle(handle -> handle.execute("CREATE TABLE probe (n INT PRIMARY KEY)"));
        List<String> log = new CopyOnWriteArrayList<>();
        List<String> recoveries = new CopyOnWriteArrayList<>();
        // Looked at each second: the refusals below come before the watch reopens the database.
        try (H2StorageHealth health = new H2StorageHealth(dir, database, 0, Duration.ofMillis(1000), log::add)) {
            health.onRecovered(recoveries::add);
            GroupCommitWriter<Integer> writer = new GroupCommitWriter<>(database.jdbi(), health, "probe-writer",
                    StorageFailureRecoveryTest::insert, number -> 1);
            writer.submit(1).join();

            shutDownImmediately(database);
            CompletableFuture<Void> failed = writer.submit(2);
            long asked = System.nanoTime();
            CompletableFuture<Void> refused = writer.submit(3);

            assertThatThrownBy(failed::join).hasCauseInstanceOf(StorageUnavailableException.class);
            assertThatThrownBy(refused::join).hasCauseInstanceOf(StorageUnavailableException.class);
            assertThat(Duration.ofNanos(System.nanoTime() - asked)).isLessThan(Duration.ofSeconds(1));
            long began = System.nanoTime();
            // Writes are taken again first, then what the failure left running is ended (the recovery's action).
            while (health.problem().isPresent() || recoveries.isEmpty()) {
                assertThat(Duration.ofNanos(System.nanoTime() - began)).isLessThan(Duration.ofSeconds(5));
                Thread.sleep(20);
            }
            writer.submit(4).get();
            writer.close();
            List<Integer> kept = database.jdbi().withHandle(handle -> handle.createQuery(
                    "SELECT n FROM probe ORDER BY n").mapTo(Integer.class).list());
            assertThat(kept).containsExactly(1, 4);
            assertThat(recoveries).hasSize(1);
            assertThat(log).hasSize(2);
            assertThat(log.get(0)).startsWith("Writes are failing");
            assertThat(log.get(1)).startsWith("Recovered");
        } finally {
            database.close();
        }
    }

    @Test
    void aDatabaseThatClosedItselfIsFoundByARequestThatOnlyReadsAndOpenedAgain() throws Exception {
        H2Database database = H2Database.openFile(dir);
        database.jdbi().useHandle(handle -> handle.execute("CREATE TABLE probe (n INT PRIMARY KEY)"));
        List<String> log = new CopyOnWriteArrayList<>();
        try (H2StorageHealth health = new H2StorageHealth(dir, database, 0, Duration.ofMillis(100), log::add)) {
            shutDownImmediately(database);

            assertThatThrownBy(() -> database.jdbi().withHandle(handle -> handle.createQuery(
                    "SELECT COUNT(*) FROM probe").mapTo(Integer.class).one())).isNotNull();

            assertThat(log).isNotEmpty();
            assertThat(log.get(0)).startsWith("Writes are failing");
            long began = System.nanoTime();
            while (health.problem().isPresent()) {
                assertThat(Duration.ofNanos(System.nanoTime() - began)).isLessThan(Duration.ofSeconds(5));
                Thread.sleep(20);
            }
            int count = database.jdbi().withHandle(handle -> handle.createQuery("SELECT COUNT(*) FROM probe")
                    .mapTo(Integer.class).one());
            assertThat(count).isZero();
        } finally {
            database.close();
        }
    }

    private static void shutDownImmediately(H2Database database) {
        try {
            database.jdbi().useHandle(handle -> handle.execute("SHUTDOWN IMMEDIATELY"));
        } catch (RuntimeException closedUnderIt) {
            // The statement's own connection is closed with the database.
        }
    }

    private static void insert(GroupCommitWriter.Statements statements, List<Integer> numbers)
            throws java.sql.SQLException {
        PreparedStatement insert = statements.prepared("INSERT INTO probe (n) VALUES (?)");
        for (int n : numbers) {
            insert.setInt(1, n);
            insert.addBatch();
        }
        insert.executeBatch();
    }
}
