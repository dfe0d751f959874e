package dev.hexaflow.adapters.persistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.application.campus.port.out.CampusKeyRepository;
import dev.hexaflow.domain.campus.CampusKey;
import dev.hexaflow.domain.secret.SecretHash;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** What every {@link CampusKeyRepository} promises; each adapter runs it by extending this class. */
abstract class CampusKeyRepositoryContract {

    protected abstract CampusKeyRepository repository();

    private final SecretHash hash = SecretHash.of("key-one");

    @Test
    void anAddedKeyIsFoundByItsHashWithNoUsage() {
        repository().add(CampusKey.issued(hash));

        assertThat(repository().find(hash)).contains(new CampusKey(hash, 0, false));
        assertThat(repository().find(SecretHash.of("other"))).isEmpty();
    }

    @Test
    void addingTheSameKeyTwiceIsRefused() {
        repository().add(CampusKey.issued(hash));

        assertThatThrownBy(() -> repository().add(CampusKey.issued(hash))).isInstanceOf(RuntimeException.class);
    }

    @Test
    void eachUseCountsOnceAndAnswersTheNewCount() {
        repository().add(CampusKey.issued(hash));

        assertThat(repository().recordUse(hash)).isEqualTo(1);
        assertThat(repository().recordUse(hash)).isEqualTo(2);
        assertThat(repository().find(hash).orElseThrow().requests()).isEqualTo(2);
    }

    @Test
    void concurrentUsesAreAllCounted() throws InterruptedException {
        repository().add(CampusKey.issued(hash));
        ExecutorService pool = Executors.newFixedThreadPool(8);
        for (int i = 0; i < 400; i++) {
            pool.execute(() -> repository().recordUse(hash));
        }
        pool.shutdown();
        assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();

        assertThat(repository().find(hash).orElseThrow().requests()).isEqualTo(400);
    }

    @Test
    void aBannedKeyStaysWithItsUsage() {
        repository().add(CampusKey.issued(hash));
        repository().recordUse(hash);

        assertThat(repository().ban(hash)).isTrue();

        assertThat(repository().find(hash)).contains(new CampusKey(hash, 1, true));
    }

    @Test
    void banningAnUnknownKeyAnswersFalse() {
        assertThat(repository().ban(SecretHash.of("never issued"))).isFalse();
    }
}
