package dev.hexaflow.adapters.persistence;

import static dev.hexaflow.adapters.persistence.WorkflowFixtures.APP;
import static dev.hexaflow.adapters.persistence.WorkflowFixtures.OTHER_APP;
import static dev.hexaflow.adapters.persistence.WorkflowFixtures.version;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.application.apps.port.out.WorkflowVersionRepository;
import dev.hexaflow.domain.app.WorkflowVersion;
import dev.hexaflow.domain.secret.SecretHash;
import org.junit.jupiter.api.Test;

/**
 * What every {@link WorkflowVersionRepository} promises; each adapter runs it by extending this class, with the
 * apps of {@link WorkflowFixtures} there.
 */
abstract class WorkflowVersionRepositoryContract {

    protected abstract WorkflowVersionRepository repository();

    @Test
    void anAddedVersionIsFoundWholeAndAnUnknownIdFindsNothing() {
        WorkflowVersion version = new WorkflowVersion("v1", APP, "2026-01-01 00:00:00.000000", "app:\n  name: x\n",
                SecretHash.of("app:\n  name: x\n"), 5);

        repository().add(version);

        assertThat(repository().find("v1")).contains(version);
        assertThat(repository().find("v9")).isEmpty();
    }

    @Test
    void theLatestVersionIsTheLastAddedEvenWithTheSameLabelAndTime() {
        repository().add(version("v1", APP));
        repository().add(version("v2", APP));

        assertThat(repository().latest(APP)).map(WorkflowVersion::id).contains("v2");
        assertThat(repository().find("v1")).map(WorkflowVersion::dsl).contains("dsl: v1");
    }

    @Test
    void eachAppHasItsOwnLatestAndAnAppWithNoneHasNone() {
        repository().add(version("v1", APP));
        repository().add(version("v2", OTHER_APP));
        repository().add(version("v3", APP));

        assertThat(repository().latest(APP)).map(WorkflowVersion::id).contains("v3");
        assertThat(repository().latest(OTHER_APP)).map(WorkflowVersion::id).contains("v2");
        assertThat(repository().latest("never-published")).isEmpty();
    }

    @Test
    void addingAnIdTwiceIsRefusedAndTheFirstStaysTheLatest() {
        repository().add(version("v1", APP));

        assertThatThrownBy(() -> repository().add(new WorkflowVersion("v1", APP, "later", "dsl: other",
                SecretHash.of("other"), 2))).isInstanceOf(RuntimeException.class);

        assertThat(repository().find("v1")).map(WorkflowVersion::dsl).contains("dsl: v1");
        assertThat(repository().latest(APP)).map(WorkflowVersion::dsl).contains("dsl: v1");
    }
}
