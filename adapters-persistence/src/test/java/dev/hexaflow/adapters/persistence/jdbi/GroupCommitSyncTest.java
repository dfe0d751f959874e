package dev.hexaflow.adapters.persistence.jdbi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.persistence.Durability;
import dev.hexaflow.adapters.persistence.H2Database;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The synced durability mode: a group-commit writer forces each of its commits to the disk once, after the commit
 * and before its waiters hear of it; a sync that fails fails its batch and writes nothing twice. H2's statement is
 * {@code CHECKPOINT SYNC}; here a probe stands in for it, so that what a sync sees is counted.
 */
class GroupCommitSyncTest {

    /** The rows committed as each sync ran, on the writer's connection. */
    private static final List<Integer> SEEN = new CopyOnWriteArrayList<>();
    private static final AtomicBoolean FAIL = new AtomicBoolean();

    /** Stands in for the sync: counts the rows committed so far, or fails when told to. */
    private static void syncProbe(Connection connection) throws SQLException {
        if (FAIL.get()) {
            throw new SQLException("the disk could not be flushed");
        }
        try (PreparedStatement count = connection.prepareStatement("SELECT COUNT(*) FROM probe");
                ResultSet rows = count.executeQuery()) {
            rows.next();
            SEEN.add(rows.getInt(1));
        }
    }

    @Test
    void eachGroupCommitIsSyncedOnceAfterItsCommitAndBeforeItsWaitersHear() throws Exception {
        SEEN.clear();
        FAIL.set(false);
        H2Database database = probed();
        CountDownLatch firstWriting = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        GroupCommitWriter<Integer> writer = new GroupCommitWriter<>(database.jdbi(), "synced", (statements, numbers) -> {
            if (numbers.contains(0)) {
                firstWriting.countDown();
                await(release);
            }
            insert(statements, numbers);
        });
        try {
            CompletableFuture<Void> first = writer.submit(0);
            assertThat(firstWriting.await(10, TimeUnit.SECONDS)).isTrue();
            List<CompletableFuture<Void>> waiting = new ArrayList<>();
            for (int n = 1; n <= 8; n++) {
                waiting.add(writer.submit(n));
            }
            release.countDown();
            first.get(10, TimeUnit.SECONDS);
            for (CompletableFuture<Void> kept : waiting) {
                kept.get(10, TimeUnit.SECONDS);
            }

            // Two group commits (the first change alone, then the eight that waited together): two syncs, each
            // seeing its commit's rows.
            assertThat(SEEN).containsExactly(1, 9);
        } finally {
            writer.close();
            database.close();
        }
    }

    @Test
    void aSyncThatFailsFailsItsBatchAndWritesNothingTwice() throws Exception {
        SEEN.clear();
        FAIL.set(true);
        H2Database database = probed();
        AtomicInteger writes = new AtomicInteger();
        GroupCommitWriter<Integer> writer = new GroupCommitWriter<>(database.jdbi(), "synced", (statements, numbers) -> {
            writes.incrementAndGet();
            insert(statements, numbers);
        });
        try {
            assertThatThrownBy(() -> writer.submit(1).get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).hasMessageContaining("could not be flushed");
            FAIL.set(false);
            writer.submit(2).get(10, TimeUnit.SECONDS);

            assertThat(writes).hasValue(2);
            assertThat(SEEN).containsExactly(2);
        } finally {
            FAIL.set(false);
            writer.close();
            database.close();
        }
    }

    @Test
    void aFileDatabaseSyncsItsGroupCommitsInTheSyncedModeOnlyAndKeepsWhatTheyWrote(@TempDir Path dir)
            throws Exception {
        H2Database written = H2Database.connectFile(dir.resolve("written"), "", Durability.WRITTEN);
        assertThat(CommitSync.of(written.jdbi())).isNull();
        written.close();

        H2Database synced = H2Database.connectFile(dir.resolve("synced"), "", Durability.SYNCED);
        assertThat(CommitSync.of(synced.jdbi())).isSameAs(CommitSync.H2);
        synced.jdbi().useHandle(handle -> handle.execute("CREATE TABLE probe (n INT PRIMARY KEY)"));
        GroupCommitWriter<Integer> writer = new GroupCommitWriter<>(synced.jdbi(), "synced", GroupCommitSyncTest::insert);
        writer.submit(1).get(10, TimeUnit.SECONDS);
        writer.submit(2).get(10, TimeUnit.SECONDS);
        writer.close();
        synced.close();

        H2Database reopened = H2Database.connectFile(dir.resolve("synced"), "", Durability.WRITTEN);
        try {
            int kept = reopened.jdbi().withHandle(handle -> handle.createQuery("SELECT COUNT(*) FROM probe")
                    .mapTo(Integer.class).one());
            assertThat(kept).isEqualTo(2);
        } finally {
            reopened.close();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static H2Database probed() {
        H2Database database = H2Database.openInMemory("synced-" + UUID.randomUUID());
        Jdbi jdbi = database.jdbi();
        jdbi.useHandle(handle -> handle.execute("CREATE TABLE probe (n INT PRIMARY KEY)"));
        CommitSync.applyTo(jdbi, GroupCommitSyncTest::syncProbe);
        return database;
    }

    private static void insert(GroupCommitWriter.Statements statements, List<Integer> numbers) throws SQLException {
        PreparedStatement insert = statements.prepared("INSERT INTO probe (n) VALUES (?)");
        for (int n : numbers) {
            insert.setInt(1, n);
            insert.addBatch();
        }
        insert.executeBatch();
    }
}
