package dev.hexaflow.adapters.persistence;

import static dev.hexaflow.adapters.persistence.WorkflowFixtures.APP;
import static dev.hexaflow.adapters.persistence.WorkflowFixtures.OTHER_APP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.application.apps.port.out.EndUserRepository;
import dev.hexaflow.domain.app.EndUser;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What every {@link EndUserRepository} promises; each adapter runs it by extending this class, with the apps of
 * {@link WorkflowFixtures} there.
 */
abstract class EndUserRepositoryContract {

    protected abstract EndUserRepository repository();

    @Test
    void aFirstUseMakesTheCandidateAndLaterUsesAnswerIt() {
        EndUser first = repository().findOrAdd(new EndUser("e1", APP, "ada", 1));
        EndUser again = repository().findOrAdd(new EndUser("e2", APP, "ada", 2));

        assertThat(first).isEqualTo(new EndUser("e1", APP, "ada", 1));
        assertThat(again).isEqualTo(first);
        assertThat(repository().find(APP, "ada")).contains(first);
    }

    @Test
    void theSameSessionIdInAnotherAppIsAnotherEndUser() {
        repository().findOrAdd(new EndUser("e1", APP, "ada", 1));

        EndUser otherApp = repository().findOrAdd(new EndUser("e3", OTHER_APP, "ada", 3));

        assertThat(otherApp.id()).isEqualTo("e3");
        assertThat(repository().find(OTHER_APP, "ada")).contains(otherApp);
    }

    @Test
    void findKnowsOnlyEndUsersMadeAndSessionIdsExactly() {
        repository().findOrAdd(new EndUser("e1", APP, "ada", 1));

        assertThat(repository().find(APP, "bob")).isEmpty();
        assertThat(repository().find(APP, "ADA")).isEmpty();
        assertThat(repository().find(OTHER_APP, "ada")).isEmpty();
    }

    @Test
    void findByIdKnowsTheAppsOwnEndUsersOnly() {
        EndUser ada = repository().findOrAdd(new EndUser("e1", APP, "ada", 1));

        assertThat(repository().findById(APP, "e1")).contains(ada);
        assertThat(repository().findById(OTHER_APP, "e1")).isEmpty();
        assertThat(repository().findById(APP, "e9")).isEmpty();
    }

    @Test
    void aCandidateWhoseIdIsTakenByAnotherSessionIsRefused() {
        repository().findOrAdd(new EndUser("e1", APP, "ada", 1));

        assertThatThrownBy(() -> repository().findOrAdd(new EndUser("e1", APP, "bob", 2)))
                .isInstanceOf(RuntimeException.class);

        assertThat(repository().find(APP, "bob")).isEmpty();
    }

    @Test
    void concurrentFirstUsesOfOneSessionAgreeOnOneEndUser() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<EndUser>> answers = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            EndUser candidate = new EndUser("racer-" + i, APP, "crowd", i);
            answers.add(pool.submit(() -> repository().findOrAdd(candidate)));
        }
        pool.shutdown();
        assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();

        EndUser kept = repository().find(APP, "crowd").orElseThrow();
        for (Future<EndUser> answer : answers) {
            assertThat(answer.get()).isEqualTo(kept);
        }
    }
}
