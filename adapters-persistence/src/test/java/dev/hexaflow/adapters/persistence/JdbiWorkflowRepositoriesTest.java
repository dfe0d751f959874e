package dev.hexaflow.adapters.persistence;

import static dev.hexaflow.adapters.persistence.WorkflowFixtures.APP;
import static dev.hexaflow.adapters.persistence.WorkflowFixtures.OTHER_APP;
import static dev.hexaflow.adapters.persistence.WorkflowFixtures.app;
import static dev.hexaflow.adapters.persistence.WorkflowFixtures.uploader;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.adapters.persistence.jdbi.JdbiAppKeyRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiAppRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiEndUserRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiIdempotencyKeyRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiRunRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiUploadRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiWorkflowVersionRepository;
import dev.hexaflow.application.apps.port.out.AppKeyRepository;
import dev.hexaflow.application.apps.port.out.AppRepository;
import dev.hexaflow.application.apps.port.out.EndUserRepository;
import dev.hexaflow.application.apps.port.out.WorkflowVersionRepository;
import dev.hexaflow.application.files.port.out.UploadRepository;
import dev.hexaflow.application.runs.port.out.IdempotencyKeyRepository;
import dev.hexaflow.application.runs.port.out.RunRepository;
import dev.hexaflow.application.runs.port.out.RunRepository.RunPause;
import dev.hexaflow.application.runs.port.out.RunRepository.StartedRun;
import dev.hexaflow.domain.app.EndUser;
import dev.hexaflow.domain.workflow.HumanInputForm;
import dev.hexaflow.domain.workflow.PausedRun;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The workflow service's Jdbi repositories against the contracts of their ports, once on each {@link Store}: H2
 * and PostgreSQL 15, each test on a store of its own, empty and migrated. The tests run on H2 alone (references,
 * column widths, another instance's cache, a file opened again) are in {@link H2WorkflowRepositoriesTest}.
 */
@ParameterizedClass(name = "on {0}")
@EnumSource(Store.class)
class JdbiWorkflowRepositoriesTest {

    private final Database database;

    JdbiWorkflowRepositoriesTest(Store store) {
        database = store.open();
    }

    @AfterEach
    void close() {
        database.close();
    }

    /** The rows the contracts take as given: the apps, and the uploader, that the tables' references need. */
    private void referencedRows() {
        JdbiAppRepository apps = new JdbiAppRepository(database.jdbi());
        apps.add(app(APP, "code1", 10));
        apps.add(app(OTHER_APP, "code2", 20));
        try (JdbiEndUserRepository users = new JdbiEndUserRepository(database.jdbi())) {
            users.findOrAdd(uploader());
        }
    }

    @Nested
    class Apps extends AppRepositoryContract {
        private final AppRepository repository = new JdbiAppRepository(database.jdbi());

        @Override
        protected AppRepository repository() {
            return repository;
        }
    }

    @Nested
    class Versions extends WorkflowVersionRepositoryContract {
        private final WorkflowVersionRepository repository = new JdbiWorkflowVersionRepository(database.jdbi());

        @BeforeEach
        void apps() {
            referencedRows();
        }

        @Override
        protected WorkflowVersionRepository repository() {
            return repository;
        }
    }

    @Nested
    class AppKeys extends AppKeyRepositoryContract {
        private final AppKeyRepository repository = new JdbiAppKeyRepository(database.jdbi());

        @BeforeEach
        void apps() {
            referencedRows();
        }

        @Override
        protected AppKeyRepository repository() {
            return repository;
        }
    }

    @Nested
    class EndUsers extends EndUserRepositoryContract {
        private final JdbiEndUserRepository repository = new JdbiEndUserRepository(database.jdbi());

        @BeforeEach
        void apps() {
            referencedRows();
        }

        @AfterEach
        void stopWriting() {
            repository.close();
        }

        @Override
        protected EndUserRepository repository() {
            return repository;
        }
    }

    @Nested
    class Uploads extends UploadRepositoryContract {
        private final UploadRepository repository = new JdbiUploadRepository(database.jdbi());

        @BeforeEach
        void appsAndUploader() {
            referencedRows();
        }

        @Override
        protected UploadRepository repository() {
            return repository;
        }
    }

    @Nested
    class IdempotencyKeys extends IdempotencyKeyRepositoryContract {
        private final IdempotencyKeyRepository repository = new JdbiIdempotencyKeyRepository(database.jdbi());

        @Override
        protected IdempotencyKeyRepository repository() {
            return repository;
        }
    }

    @Nested
    class Runs extends RunRepositoryContract {
        private final JdbiRunRepository repository = new JdbiRunRepository(database.jdbi());

        @AfterEach
        void stopWriting() {
            repository.close();
        }

        @Override
        protected RunRepository repository() {
            return repository;
        }
    }

    @Nested
    class Pauses extends PauseRepositoryContract {
        private final JdbiRunRepository repository = new JdbiRunRepository(database.jdbi());

        @AfterEach
        void stopWriting() {
            repository.close();
        }

        @Override
        protected RunRepository repository() {
            return repository;
        }

        /** The port cannot see a paused run kept for a run that ended; the table can. */
        @Test
        void aRunsEndOrStopLeavesNoPausedRunRowBehindAndAnEndThatFindsTheRunPausedTakesNone() {
            for (String id : List.of("ended", "stopped", "paused")) {
                WorkflowRun run = WorkflowRun.started(id, "wf-1", Map.of(), 100);
                repository.started(new StartedRun(run, APP, "task", new EndUser("user-ada", APP, "ada", 1), "v",
                        "log-" + id)).join();
                HumanInputForm form = form(id, "form-" + id, 900);
                PausedRun paused = paused(run, List.of(form));
                repository.paused(new RunPause(paused, List.of(form), APP, "user-ada", 200)).join();
                if (!id.equals("paused")) {
                    repository.pauses().takeForResume(id).orElseThrow();
                }
            }
            WorkflowRun ended = WorkflowRun.started("ended", "wf-1", Map.of(), 100);
            repository.finished(ended.finish(RunStatus.SUCCEEDED, Map.of(), null, 1, 0, 1, 0, 300)).join();
            repository.pauses().putBack("stopped");
            repository.pauses().stop("stopped", "Stopped.", 300);
            WorkflowRun paused = WorkflowRun.started("paused", "wf-1", Map.of(), 100);
            repository.finished(paused.finish(RunStatus.FAILED, Map.of(), "late", 1, 0, 1, 0, 300)).join();

            List<String> kept = database.jdbi().withHandle(handle -> handle.createQuery("SELECT run_id FROM "
                    + "run_pause").mapTo(String.class).list());
            assertThat(kept).containsExactly("paused");
        }
    }
}
