package dev.hexaflow.adapters.persistence;

import static dev.hexaflow.adapters.persistence.WorkflowFixtures.APP;
import static dev.hexaflow.adapters.persistence.WorkflowFixtures.OTHER_APP;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.application.runs.port.out.IdempotencyKeyRepository.KeyedRun;
import dev.hexaflow.application.runs.port.out.IdempotencyKeyRepository;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** What every {@link IdempotencyKeyRepository} promises; each adapter runs it by extending this class. */
abstract class IdempotencyKeyRepositoryContract {

    protected abstract IdempotencyKeyRepository repository();

    private static KeyedRun claim(String app, String user, String key, String run, long at) {
        return new KeyedRun(app, user, key, "fp-" + run, run, "task-" + run, at);
    }

    @Test
    void aFirstClaimIsKeptAndASecondOfTheSameKeyAnswersTheFirst() {
        KeyedRun first = claim(APP, "ada", "k1", "r1", 100);

        assertThat(repository().claim(first, 0)).isEmpty();
        assertThat(repository().claim(claim(APP, "ada", "k1", "r2", 101), 0)).contains(first);
        assertThat(repository().find(APP, "ada", "k1", 0)).contains(first);
    }

    @Test
    void keysArePerAppAndPerUser() {
        assertThat(repository().claim(claim(APP, "ada", "k1", "r1", 100), 0)).isEmpty();

        assertThat(repository().claim(claim(APP, "bob", "k1", "r2", 100), 0)).isEmpty();
        assertThat(repository().claim(claim(OTHER_APP, "ada", "k1", "r3", 100), 0)).isEmpty();
        assertThat(repository().find(APP, "bob", "k1", 0).map(KeyedRun::runId)).contains("r2");
        assertThat(repository().find(APP, "ada", "k2", 0)).isEmpty();
    }

    @Test
    void aClaimOlderThanTheWindowIsNotFoundAndIsReplacedByANewOne() {
        repository().claim(claim(APP, "ada", "k1", "r1", 100), 0);

        assertThat(repository().find(APP, "ada", "k1", 101)).isEmpty();
        assertThat(repository().claim(claim(APP, "ada", "k1", "r2", 200), 101)).isEmpty();
        assertThat(repository().find(APP, "ada", "k1", 101).map(KeyedRun::runId)).contains("r2");
    }

    @Test
    void aReleasedClaimIsGoneAndAClaimMadeSinceIsLeftAlone() {
        KeyedRun first = claim(APP, "ada", "k1", "r1", 100);
        repository().claim(first, 0);

        assertThat(repository().release(first)).isTrue();
        assertThat(repository().find(APP, "ada", "k1", 0)).isEmpty();
        KeyedRun second = claim(APP, "ada", "k1", "r2", 101);
        assertThat(repository().claim(second, 0)).isEmpty();
        assertThat(repository().release(first)).as("the key names another run now").isFalse();
        assertThat(repository().find(APP, "ada", "k1", 0)).contains(second);
    }

    @Test
    void aPruneDeletesTheClaimsMadeBeforeTheBound() {
        repository().claim(claim(APP, "ada", "old", "r1", 100), 0);
        repository().claim(claim(APP, "ada", "new", "r2", 300), 0);

        assertThat(repository().prune(200)).isEqualTo(1);

        assertThat(repository().find(APP, "ada", "old", 0)).isEmpty();
        assertThat(repository().find(APP, "ada", "new", 0)).isPresent();
    }

    @Test
    void ofEightRacingClaimsOfOneKeyExactlyOneIsKeptAndTheOthersAnswerIt() throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(8);
        CountDownLatch go = new CountDownLatch(1);
        try {
            List<Future<Optional<KeyedRun>>> answers = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                KeyedRun mine = claim(APP, "ada", "race", "r" + i, 100);
                answers.add(threads.submit(() -> {
                    go.await();
                    return repository().claim(mine, 0);
                }));
            }
            go.countDown();
            List<Optional<KeyedRun>> results = new ArrayList<>();
            for (Future<Optional<KeyedRun>> answer : answers) {
                results.add(answer.get());
            }

            assertThat(results).filteredOn(Optional::isEmpty).hasSize(1);
            KeyedRun kept = repository().find(APP, "ada", "race", 0).orElseThrow();
            assertThat(results).filteredOn(Optional::isPresent).extracting(Optional::get).hasSize(7)
                    .allMatch(kept::equals);
        } finally {
            threads.shutdownNow();
        }
    }
}
