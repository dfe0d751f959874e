package dev.hexaflow.adapters.persistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.application.knowledge.port.out.DatasetKeyRepository;
import dev.hexaflow.domain.knowledge.DatasetKey;
import dev.hexaflow.domain.secret.SecretHash;
import org.junit.jupiter.api.Test;

/** What every {@link DatasetKeyRepository} promises; each adapter runs it by extending this class. */
abstract class DatasetKeyRepositoryContract {

    protected abstract DatasetKeyRepository repository();

    private final SecretHash hash = SecretHash.of("dataset-abcdefghijklmnopqrstuvwx");

    @Test
    void anAddedKeyIsFoundByItsHashAndAnotherHashFindsNothing() {
        repository().add(new DatasetKey(hash, 5));

        assertThat(repository().find(hash)).contains(new DatasetKey(hash, 5));
        assertThat(repository().find(SecretHash.of("dataset-zzzzzzzzzzzzzzzzzzzzzzzz"))).isEmpty();
    }

    @Test
    void addingAHashTwiceIsRefused() {
        repository().add(new DatasetKey(hash, 5));

        assertThatThrownBy(() -> repository().add(new DatasetKey(hash, 6))).isInstanceOf(RuntimeException.class);

        assertThat(repository().find(hash)).contains(new DatasetKey(hash, 5));
    }

    @Test
    void aKeyReadBeforeItIsDeletedIsNotFoundAfterAndIsDeletedOnlyOnce() {
        repository().add(new DatasetKey(hash, 5));
        assertThat(repository().find(hash)).isPresent();

        assertThat(repository().delete(hash)).isTrue();

        assertThat(repository().find(hash)).isEmpty();
        assertThat(repository().delete(hash)).isFalse();
    }
}
