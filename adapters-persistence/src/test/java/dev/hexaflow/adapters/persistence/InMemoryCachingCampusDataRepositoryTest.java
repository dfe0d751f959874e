package dev.hexaflow.adapters.persistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.persistence.jdbi.JdbiCampusDataRepository;
import dev.hexaflow.domain.campus.FeedMethod;
import dev.hexaflow.domain.campus.Tutor;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class InMemoryCachingCampusDataRepositoryTest {

    private final H2Database database = H2Database.openInMemory("cache-" + UUID.randomUUID());
    private final JdbiCampusDataRepository store = new JdbiCampusDataRepository(database.jdbi());
    private final InMemoryCachingCampusDataRepository cached = new InMemoryCachingCampusDataRepository(store);

    @AfterEach
    void close() {
        database.close();
    }

    @Test
    void theSameListComesBackUntilTheDataSetIsReplaced() {
        store.replaceAll(FeedMethod.TUTORS, CampusDataRepositoryContract.TUTORS);

        var first = cached.findAll(FeedMethod.TUTORS);
        assertThat(cached.findAll(FeedMethod.TUTORS)).isSameAs(first);

        cached.replaceAll(FeedMethod.TUTORS, List.of(new Tutor("X", "1", null, 1, null)));
        assertThat(cached.findAll(FeedMethod.TUTORS)).isNotSameAs(first).hasSize(1);
        assertThat(store.findAll(FeedMethod.TUTORS)).hasSize(1);
    }

    @Test
    void aReplaceTheStoreRefusesLeavesTheCacheOnTheOldData() {
        cached.replaceAll(FeedMethod.TUTORS, CampusDataRepositoryContract.TUTORS);

        assertThatThrownBy(() -> cached.replaceAll(FeedMethod.TUTORS,
                List.of(new Tutor("BAD", "2", "x".repeat(5000), 1, null)))).isInstanceOf(RuntimeException.class);

        assertThat(cached.findAll(FeedMethod.TUTORS)).containsExactlyElementsOf(CampusDataRepositoryContract.TUTORS);
    }
}
