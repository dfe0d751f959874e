package dev.hexaflow.adapters.persistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.persistence.jdbi.JdbiCampusDataRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiCampusKeyRepository;
import dev.hexaflow.application.campus.port.out.CampusDataRepository;
import dev.hexaflow.domain.campus.CampusKey;
import dev.hexaflow.domain.campus.FeedMethod;
import dev.hexaflow.domain.campus.Holiday;
import dev.hexaflow.domain.campus.Tutor;
import dev.hexaflow.domain.secret.SecretHash;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the campus Jdbi repositories are held to on H2 alone, besides their ports' contracts (which
 * {@link JdbiRepositoriesTest} runs on every {@link Store}): a use counted is committed by the flushes and by
 * close, a replace that fails halfway keeps the old data set, a file keeps its data when opened again.
 */
class H2RepositoriesTest {

    private final H2Database database = H2Database.openInMemory("contract-" + UUID.randomUUID());

    @AfterEach
    void close() {
        database.close();
    }

    @Test
    void everyUseIsCommittedWithinAFewFlushIntervalsWithNoWriteInTheWayOfTheAnswer() throws Exception {
        SecretHash hash = SecretHash.of("kept-key");
        try (JdbiCampusKeyRepository keys = new JdbiCampusKeyRepository(database.jdbi())) {
            keys.add(CampusKey.issued(hash));
            for (int i = 1; i <= 50; i++) {
                assertThat(keys.recordUse(hash)).isEqualTo(i);
            }
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(5);
            while (storedCount(hash) < 50 && System.nanoTime() < deadline) {
                Thread.sleep(JdbiCampusKeyRepository.FLUSH_INTERVAL.toMillis());
            }
            assertThat(storedCount(hash)).as("committed by the flushes, while the repository stays open")
                    .isEqualTo(50);
        }
    }

    @Test
    void everyUseCountedIsCommittedByClose() {
        SecretHash hash = SecretHash.of("deferred-key");
        try (JdbiCampusKeyRepository keys = new JdbiCampusKeyRepository(database.jdbi())) {
            keys.add(CampusKey.issued(hash));
            for (int i = 0; i < 5_000; i++) {
                keys.recordUse(hash);
            }
        }
        assertThat(storedCount(hash)).isEqualTo(5_000);
        try (JdbiCampusKeyRepository reopened = new JdbiCampusKeyRepository(database.jdbi())) {
            assertThat(reopened.recordUse(hash)).isEqualTo(5_001);
        }
    }

    private long storedCount(SecretHash hash) {
        return database.jdbi().withHandle(handle -> handle
                .createQuery("SELECT requests FROM campus_key WHERE key_hash = :hash")
                .bind("hash", hash.hex()).mapTo(Long.class).one());
    }

    @Test
    void aReplaceThatFailsHalfwayLeavesTheOldDataSet() {
        CampusDataRepository data = new JdbiCampusDataRepository(database.jdbi());
        data.replaceAll(FeedMethod.TUTORS, CampusDataRepositoryContract.TUTORS);
        // A title past the column's width fails the insert of the second record, after the delete ran.
        List<Tutor> broken = List.of(new Tutor("OK", "1", "fine", 1, null),
                new Tutor("BAD", "2", "x".repeat(5000), 1, null));

        assertThatThrownBy(() -> data.replaceAll(FeedMethod.TUTORS, broken)).isInstanceOf(RuntimeException.class);

        assertThat(data.findAll(FeedMethod.TUTORS)).containsExactlyElementsOf(CampusDataRepositoryContract.TUTORS);
    }

    @Test
    void aFileDatabaseKeepsItsDataWhenReopened(@TempDir Path dir) {
        List<Holiday> holidays = List.of(new Holiday("Canada Day", LocalDate.of(2026, 7, 1)));
        try (H2Database file = H2Database.openFile(dir)) {
            new JdbiCampusDataRepository(file.jdbi()).replaceAll(FeedMethod.HOLIDAYS, holidays);
        }

        try (H2Database reopened = H2Database.openFile(dir)) {
            assertThat(new JdbiCampusDataRepository(reopened.jdbi()).findAll(FeedMethod.HOLIDAYS))
                    .containsExactlyElementsOf(holidays);
        }
    }
}
