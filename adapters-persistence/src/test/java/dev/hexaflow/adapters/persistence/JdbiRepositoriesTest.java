package dev.hexaflow.adapters.persistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.persistence.jdbi.JdbiCampusDataRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiCampusKeyRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiDatasetKeyRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiKnowledgeRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiToolFileRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiToolRegistryRepository;
import dev.hexaflow.application.campus.port.out.CampusDataRepository;
import dev.hexaflow.application.campus.port.out.CampusKeyRepository;
import dev.hexaflow.application.knowledge.port.out.DatasetKeyRepository;
import dev.hexaflow.application.knowledge.port.out.KnowledgeRepository;
import dev.hexaflow.application.tools.port.out.ToolFileRepository;
import dev.hexaflow.application.tools.port.out.ToolRegistryRepository;
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
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JdbiRepositoriesTest {

    private final H2Database database = H2Database.openInMemory("contract-" + UUID.randomUUID());

    @AfterEach
    void close() {
        database.close();
    }

    @Nested
    class Keys extends CampusKeyRepositoryContract {
        private final JdbiCampusKeyRepository repository = new JdbiCampusKeyRepository(database.jdbi());

        @Override
        protected CampusKeyRepository repository() {
            return repository;
        }

        @AfterEach
        void stopCounting() {
            repository.close();
        }
    }

    @Nested
    class ToolFiles extends ToolFileRepositoryContract {
        private final ToolFileRepository repository = new JdbiToolFileRepository(database.jdbi());

        @Override
        protected ToolFileRepository repository() {
            return repository;
        }
    }

    @Nested
    class Tools extends ToolRegistryRepositoryContract {
        private final ToolRegistryRepository repository = new JdbiToolRegistryRepository(database.jdbi());

        @Override
        protected ToolRegistryRepository repository() {
            return repository;
        }
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

    @Nested
    class Data extends CampusDataRepositoryContract {
        private final CampusDataRepository repository = new JdbiCampusDataRepository(database.jdbi());

        @Override
        protected CampusDataRepository repository() {
            return repository;
        }
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

    @Nested
    class Knowledge extends KnowledgeRepositoryContract {
        private final KnowledgeRepository repository = new JdbiKnowledgeRepository(database.jdbi());

        @Override
        protected KnowledgeRepository repository() {
            return repository;
        }
    }

    @Nested
    class DatasetKeys extends DatasetKeyRepositoryContract {
        private final DatasetKeyRepository repository = new JdbiDatasetKeyRepository(database.jdbi());

        @Override
        protected DatasetKeyRepository repository() {
            return repository;
        }
    }
}
