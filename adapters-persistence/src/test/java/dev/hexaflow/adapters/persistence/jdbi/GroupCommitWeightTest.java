package dev.hexaflow.adapters.persistence.jdbi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.adapters.persistence.H2Database;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Heavy changes waiting together are not written in one transaction: each batch stops at the writer's weight, so
 * that a burst of runs with long texts cannot make one commit too large for the store, and every change is kept.
 */
class GroupCommitWeightTest {

    @Test
    void heavyChangesWaitingTogetherAreWrittenInBatchesNoHeavierThanTheLimitAndAllKept() throws Exception {
        H2Database database = H2Database.openInMemory("weights-" + UUID.randomUUID());
        database.jdbi().useHandle(handle -> handle.execute("CREATE TABLE probe (n INT PRIMARY KEY, text CLOB)"));
        CountDownLatch firstWritten = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<Long> batchWeights = new CopyOnWriteArrayList<>();
        String heavy = "x".repeat(1_500_000);
        GroupCommitWriter<Integer> writer = new GroupCommitWriter<>(database.jdbi(), WriteGate.OPEN, "weights",
                (statements, numbers) -> {
                    if (numbers.contains(0)) {
                        firstWritten.countDown();
                        await(release);
                    }
                    batchWeights.add(numbers.stream().mapToLong(n -> n == 0 ? 1 : heavy.length()).sum());
                    PreparedStatement insert = statements.prepared("INSERT INTO probe (n, text) VALUES (?, ?)");
                    for (int n : numbers) {
                        insert.setInt(1, n);
                        insert.setString(2, n == 0 ? "" : heavy);
                        insert.addBatch();
                    }
                    insert.executeBatch();
                }, n -> n == 0 ? 1 : heavy.length());
        try {
            CompletableFuture<Void> first = writer.submit(0);
            assertThat(firstWritten.await(10, TimeUnit.SECONDS)).isTrue();
            List<CompletableFuture<Void>> waiting = new ArrayList<>();
            for (int n = 1; n <= 8; n++) {
                waiting.add(writer.submit(n));
            }
            release.countDown();
            first.get(10, TimeUnit.SECONDS);
            for (CompletableFuture<Void> kept : waiting) {
                kept.get(30, TimeUnit.SECONDS);
            }

            assertThat(batchWeights.subList(1, batchWeights.size()))
                    .allSatisfy(weight -> assertThat(weight).isLessThanOrEqualTo(GroupCommitWriter.MAX_BATCH_WEIGHT));
            assertThat(batchWeights).hasSizeGreaterThanOrEqualTo(1 + 8 * heavy.length()
                    / (int) GroupCommitWriter.MAX_BATCH_WEIGHT);
            int kept = database.jdbi().withHandle(handle -> handle.createQuery("SELECT COUNT(*) FROM probe")
                    .mapTo(Integer.class).one());
            assertThat(kept).isEqualTo(9);
        } finally {
            writer.close();
            database.close();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
