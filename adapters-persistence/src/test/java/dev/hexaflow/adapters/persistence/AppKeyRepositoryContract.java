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

    @Test
    void anAppsKeysAreListedOldestFirstWithTheirHintsAndTheirLastUseOnlyOnceUsed() {
        SecretHash second = SecretHash.of("app-0000000000000000000000zz");
        repository().add(new AppKey(second, APP, 9, "app-\u2026zzzz"));
        repository().add(new AppKey(hash, APP, 5, "app-\u2026uvwx"));
        repository().add(new AppKey(SecretHash.of("app-1111111111111111111111yy"), OTHER_APP, 1));

        repository().used(hash, 700);

        assertThat(repository().list(APP)).extracting(listed -> listed.key().hash(), listed -> listed.key().hint(),
                AppKeyRepository.ListedKey::lastUsedAt).containsExactly(
                        org.assertj.core.groups.Tuple.tuple(hash, "app-\u2026uvwx", 700L),
                        org.assertj.core.groups.Tuple.tuple(second, "app-\u2026zzzz", null));
        assertThat(repository().list("no-such-app")).isEmpty();
    }

    @Test
    void aLaterUseMovesTheLastUseOnAndAnEarlierOneNever() {
        repository().add(new AppKey(hash, APP, 5));

        repository().used(hash, 1_000);
        repository().used(hash, 400);
        repository().used(SecretHash.of("app-zzzzzzzzzzzzzzzzzzzzzzzz"), 2_000);

        assertThat(repository().list(APP)).singleElement()
                .satisfies(listed -> assertThat(listed.lastUsedAt()).isEqualTo(1_000L));
    }
}
