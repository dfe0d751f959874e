package dev.hexaflow.adapters.persistence;

import static dev.hexaflow.adapters.persistence.WorkflowFixtures.APP;
import static dev.hexaflow.adapters.persistence.WorkflowFixtures.OTHER_APP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.application.apps.port.out.AppKeyRepository;
import dev.hexaflow.domain.app.AppKey;
import dev.hexaflow.domain.secret.SecretHash;
import org.junit.jupiter.api.Test;

/**
 * What every {@link AppKeyRepository} promises; each adapter runs it by extending this class, with the apps of
 * {@link WorkflowFixtures} there.
 */
abstract class AppKeyRepositoryContract {

    protected abstract AppKeyRepository repository();

    private final SecretHash hash = SecretHash.of("app-abcdefghijklmnopqrstuvwx");

    @Test
    void anAddedKeyIsFoundByItsHashAndAnotherHashFindsNothing() {
        repository().add(new AppKey(hash, APP, 5));

        assertThat(repository().find(hash)).contains(new AppKey(hash, APP, 5));
        assertThat(repository().find(SecretHash.of("app-zzzzzzzzzzzzzzzzzzzzzzzz"))).isEmpty();
    }

    @Test
    void addingAHashTwiceIsRefusedEvenForAnotherApp() {
        repository().add(new AppKey(hash, APP, 5));

        assertThatThrownBy(() -> repository().add(new AppKey(hash, OTHER_APP, 6)))
                .isInstanceOf(RuntimeException.class);

        assertThat(repository().find(hash)).contains(new AppKey(hash, APP, 5));
    }

    @Test
    void aKeyIsDeletedOnlyFromItsOwnAppAndOnlyOnce() {
        repository().add(new AppKey(hash, APP, 5));

        assertThat(repository().delete(OTHER_APP, hash)).isFalse();
        assertThat(repository().find(hash)).isPresent();
        assertThat(repository().delete(APP, hash)).isTrue();
        assertThat(repository().find(hash)).isEmpty();
        assertThat(repository().delete(APP, hash)).isFalse();
    }

    @Test
    void aKeyReadBeforeItIsDeletedIsNotFoundAfter() {
        repository().add(new AppKey(hash, APP, 5));
        assertThat(repository().find(hash)).isPresent();

        repository().delete(APP, hash);

        assertThat(repository().find(hash)).isEmpty();
    }

    @Test
    void deletingAKeyNeverAddedAnswersFalse() {
        assertThat(repository().delete(APP, SecretHash.of("app-neveraddedneveraddedneve"))).isFalse();
    }

    @Test
    void aDeletedHashCanBeAddedAgain() {
        repository().add(new AppKey(hash, APP, 5));
        repository().delete(APP, hash);

        repository().add(new AppKey(hash, OTHER_APP, 6));

        assertThat(repository().find(hash)).contains(new AppKey(hash, OTHER_APP, 6));
    }
}
