package dev.hexaflow.adapters.persistence;

import static dev.hexaflow.adapters.persistence.WorkflowFixtures.APP;
import static dev.hexaflow.adapters.persistence.WorkflowFixtures.OTHER_APP;
import static dev.hexaflow.adapters.persistence.WorkflowFixtures.app;
import static dev.hexaflow.adapters.persistence.WorkflowFixtures.uploader;
import static dev.hexaflow.adapters.persistence.WorkflowFixtures.version;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.persistence.jdbi.JdbiAppKeyRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiAppRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiEndUserRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiRunRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiUploadRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiWorkflowVersionRepository;
import dev.hexaflow.application.runs.port.out.RunRepository.StartedRun;
import dev.hexaflow.application.runs.port.out.RunRepository;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.app.AppKey;
import dev.hexaflow.domain.app.EndUser;
import dev.hexaflow.domain.app.UploadedFile;
import dev.hexaflow.domain.secret.SecretHash;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the workflow service's Jdbi repositories are held to on H2 alone, besides their ports' contracts (which
 * {@link JdbiWorkflowRepositoriesTest} runs on every {@link Store}): rows that refer to their app, columns of a
 * fixed width, the cache of another instance, a file that is opened again.
 */
class H2WorkflowRepositoriesTest {

    private final H2Database database = H2Database.openInMemory("apps-" + UUID.randomUUID());

    @AfterEach
    void close() {
        database.close();
    }

    /** The rows the tests take as given: the apps, and the uploader, that the tables' references need. */
    private void referencedRows() {
        JdbiAppRepository apps = new JdbiAppRepository(database.jdbi());
        apps.add(app(APP, "code1", 10));
        apps.add(app(OTHER_APP, "code2", 20));
        try (JdbiEndUserRepository users = new JdbiEndUserRepository(database.jdbi())) {
            users.findOrAdd(uploader());
        }
    }

    @Test
    void anAppChangedThroughOneInstanceIsReadSoByAnotherOnTheSameDatabase() {
        JdbiAppRepository apps = new JdbiAppRepository(database.jdbi());
        apps.add(app(APP, "code1", 10));
        apps.findBySiteCode("code1");

        apps.update(apps.find(APP).orElseThrow().withSiteEnabled(false));

        assertThat(new JdbiAppRepository(database.jdbi()).find(APP)).map(App::siteEnabled).contains(false);
        assertThat(apps.findBySiteCode("code1")).map(App::siteEnabled).contains(false);
    }

    @Test
    void aSiteCodeTakenIsRefusedByTheTablesUniqueIndex() {
        JdbiAppRepository apps = new JdbiAppRepository(database.jdbi());
        apps.add(app(APP, "code1", 10));

        assertThatThrownBy(() -> apps.add(app("a3", "code1", 30))).hasMessageContaining("APP_SITE_CODE");
    }

    @Test
    void rowsForAnUnknownAppOrEndUserAreRefused() {
        referencedRows();
        String blob = "0123456789abcdef0123456789abcdef";

        assertThatThrownBy(() -> new JdbiWorkflowVersionRepository(database.jdbi()).add(version("v1", "ghost")))
                .isInstanceOf(RuntimeException.class);
        assertThatThrownBy(() -> new JdbiAppKeyRepository(database.jdbi()).add(new AppKey(SecretHash.of("k"),
                "ghost", 1))).isInstanceOf(RuntimeException.class);
        JdbiUploadRepository uploads = new JdbiUploadRepository(database.jdbi());
        assertThatThrownBy(() -> uploads.add(new UploadedFile("f9", "ghost", "nobody", "x", 1, "", "text/plain",
                blob, 1))).isInstanceOf(RuntimeException.class);
        assertThatThrownBy(() -> uploads.add(new UploadedFile("f9", APP, "nobody", "x", 1, "", "text/plain", blob,
                1))).isInstanceOf(RuntimeException.class);
        try (JdbiEndUserRepository users = new JdbiEndUserRepository(database.jdbi())) {
            assertThatThrownBy(() -> users.findOrAdd(new EndUser("e9", "ghost", "ada", 1)))
                    .isInstanceOf(RuntimeException.class);
        }
        assertThat(uploads.blobKeys()).isEmpty();
    }

    @Test
    void anAppKeyIsKeptAsItsHashOnly() {
        referencedRows();
        String key = "app-abcdefghijklmnopqrstuvwx";

        new JdbiAppKeyRepository(database.jdbi()).add(new AppKey(SecretHash.of(key), APP, 5));

        List<String> stored = database.jdbi().withHandle(handle -> handle.createQuery("SELECT key_hash FROM "
                + "app_key").mapTo(String.class).list());
        assertThat(stored).containsExactly(SecretHash.of(key).hex());
    }

    @Test
    void aWriteThatCannotBeKeptFailsAloneAndTheWritesBesideItAreKept() {
        EndUser user = new EndUser("e1", APP, "ada", 100);
        try (JdbiRunRepository runs = new JdbiRunRepository(database.jdbi())) {
            var before = runs.started(new StartedRun(WorkflowRun.started("ok1", "v1", Map.of(), 100), APP, "t1",
                    user, "v", "l1"));
            var bad = runs.started(new StartedRun(WorkflowRun.started("bad", "v1", Map.of(), 100), APP, "t2", user,
                    "a version label far longer than the forty characters its column holds", "l2"));
            var after = runs.started(new StartedRun(WorkflowRun.started("ok2", "v1", Map.of(), 100), APP, "t3",
                    user, "v", "l3"));

            assertThatThrownBy(bad::join).hasRootCauseInstanceOf(SQLException.class);
            before.join();
            after.join();
            assertThat(runs.find(APP, "ok1")).isPresent();
            assertThat(runs.find(APP, "ok2")).isPresent();
            assertThat(runs.find(APP, "bad")).isEmpty();
        }
    }

    @Test
    void runsAndTheirEndsAreReadByTheNextProcessFromTheFile(@TempDir Path dir) {
        EndUser user = new EndUser("e1", APP, "ada", 100);
        WorkflowRun run = WorkflowRun.started("r1", "v1", Map.of("q", "hi"), 100);
        WorkflowRun ended = run.finish(RunStatus.SUCCEEDED, Map.of("a", "yes"), null,
                0.5, 1, 1, 0, 101);
        try (H2Database file = H2Database.openFile(dir); JdbiRunRepository runs = new JdbiRunRepository(file.jdbi())) {
            CompletableFuture.allOf(runs.started(new StartedRun(run, APP, "t1", user, "v", "l1")),
                    runs.finished(ended)).join();
        }

        try (H2Database reopened = H2Database.openFile(dir);
                JdbiRunRepository runs = new JdbiRunRepository(reopened.jdbi())) {
            assertThat(runs.find(APP, "r1")).contains(ended);
            assertThat(runs.logs(new RunRepository.LogQuery(APP, "yes", "succeeded", 1, 20, null, null, null))
                    .total()).isEqualTo(1);
        }
    }
}
