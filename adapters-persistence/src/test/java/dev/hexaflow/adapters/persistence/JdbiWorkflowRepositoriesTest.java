package dev.hexaflow.adapters.persistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.persistence.jdbi.JdbiAppKeyRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiAppRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiEndUserRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiRunRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiUploadRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiWorkflowVersionRepository;
import dev.hexaflow.application.app.port.out.RunRepository.LogPage;
import dev.hexaflow.application.app.port.out.RunRepository.LogQuery;
import dev.hexaflow.application.app.port.out.RunRepository.StartedRun;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.app.AppKey;
import dev.hexaflow.domain.app.EndUser;
import dev.hexaflow.domain.app.SiteSettings;
import dev.hexaflow.domain.app.UploadedFile;
import dev.hexaflow.domain.app.WorkflowVersion;
import dev.hexaflow.domain.secret.SecretHash;
import dev.hexaflow.domain.workflow.ExecutionMetadata;
import dev.hexaflow.domain.workflow.NodeExecution;
import dev.hexaflow.domain.workflow.NodeStatus;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The workflow service's Jdbi repositories on a real H2. */
class JdbiWorkflowRepositoriesTest {

    private final H2Database database = H2Database.openInMemory("apps-" + UUID.randomUUID());
    private final JdbiAppRepository apps = new JdbiAppRepository(database.jdbi());
    private final JdbiWorkflowVersionRepository versions = new JdbiWorkflowVersionRepository(database.jdbi());
    private final JdbiAppKeyRepository keys = new JdbiAppKeyRepository(database.jdbi());
    private final JdbiEndUserRepository users = new JdbiEndUserRepository(database.jdbi());
    private final JdbiUploadRepository uploads = new JdbiUploadRepository(database.jdbi());
    private final JdbiRunRepository runs = new JdbiRunRepository(database.jdbi());

    private static final SiteSettings SITE = new SiteSettings("Title", "emoji", "🤖", "#FFF", null, "desc", "©",
            "https://p", "careful", "fr-FR", true, false);

    @BeforeEach
    void twoApps() {
        apps.add(new App("a1", "First", "one", "workflow", "emoji", "🤖", "#FFF", List.of("x"), SITE, "code1", true,
                10));
        apps.add(new App("a2", "Second", "two", "workflow", "image", null, null, List.of(), SITE, "code2", false,
                20));
    }

    @AfterEach
    void close() {
        runs.close();
        users.close();
        database.close();
    }

    @Test
    void appsKeepEveryFieldAndUpdatesReplaceThem() {
        assertThat(apps.find("a1")).contains(new App("a1", "First", "one", "workflow", "emoji", "🤖", "#FFF",
                List.of("x"), SITE, "code1", true, 10));
        App renamed = apps.find("a2").orElseThrow().describedAs("Renamed", "new", "emoji", "✨", "#000");
        apps.update(renamed);

        assertThat(apps.find("a2")).contains(renamed);
        assertThat(apps.list()).extracting(App::id).containsExactly("a1", "a2");
        assertThat(apps.find("nope")).isEmpty();
    }

    @Test
    void anAppIsFoundByItsSiteCodeAndItsPageTurnsOffAndOn() {
        assertThat(apps.findBySiteCode("code1")).map(App::id).contains("a1");
        assertThat(apps.findBySiteCode("code2")).map(App::siteEnabled).contains(false);
        assertThat(apps.findBySiteCode("CODE1")).isEmpty();

        apps.update(apps.find("a1").orElseThrow().withSiteEnabled(false));

        assertThat(apps.findBySiteCode("code1")).map(App::siteEnabled).contains(false);
        assertThat(new JdbiAppRepository(database.jdbi()).find("a1")).map(App::siteEnabled).contains(false);
    }

    @Test
    void twoAppsCannotShareASiteCode() {
        assertThatThrownBy(() -> apps.add(new App("a3", "Third", "", "workflow", "emoji", null, null, List.of(),
                SITE, "code1", true, 30))).hasMessageContaining("APP_SITE_CODE");
        assertThat(apps.list()).extracting(App::id).containsExactly("a1", "a2");
    }

    @Test
    void theLatestVersionIsTheLastAdded() {
        versions.add(new WorkflowVersion("v1", "a1", "2026-01-01 00:00:00.000000", "dsl: 1", SecretHash.of("1"), 1));
        versions.add(new WorkflowVersion("v2", "a1", "2026-01-01 00:00:00.000000", "dsl: 2", SecretHash.of("2"), 1));

        assertThat(versions.latest("a1").orElseThrow().id()).isEqualTo("v2");
        assertThat(versions.find("v1").orElseThrow().dsl()).isEqualTo("dsl: 1");
        assertThat(versions.latest("a2")).isEmpty();
    }

    @Test
    void keysAreFoundByHashAndDeletedOnlyFromTheirApp() {
        SecretHash hash = SecretHash.of("app-abcdefghijklmnopqrstuvwx");
        keys.add(new AppKey(hash, "a1", 5));

        assertThat(keys.find(hash)).contains(new AppKey(hash, "a1", 5));
        assertThat(keys.delete("a2", hash)).isFalse();
        assertThat(keys.delete("a1", hash)).isTrue();
        assertThat(keys.find(hash)).isEmpty();
    }

    @Test
    void anEndUserIsMadeOnceForEachAppAndSession() {
        EndUser first = users.findOrAdd(new EndUser("u1", "a1", "ada", 1));
        EndUser again = users.findOrAdd(new EndUser("u2", "a1", "ada", 2));
        EndUser otherApp = users.findOrAdd(new EndUser("u3", "a2", "ada", 3));

        assertThat(again).isEqualTo(first);
        assertThat(otherApp.id()).isEqualTo("u3");
    }

    @Test
    void uploadsKeepTheirRecord() {
        users.findOrAdd(new EndUser("u1", "a1", "ada", 1));
        UploadedFile file = new UploadedFile("f1", "a1", "u1", "report.pdf", 42, "pdf", "application/pdf",
                "0123456789abcdef0123456789abcdef", 7);
        uploads.add(file);

        assertThat(uploads.find("f1")).contains(file);
        assertThat(uploads.find("f2")).isEmpty();
        assertThat(uploads.blobKeys()).containsExactly(file.blobKey());
    }

    private WorkflowRun start(String appId, String id, String session, Map<String, Object> inputs, long at) {
        EndUser user = users.findOrAdd(new EndUser(UUID.randomUUID().toString(), appId, session, at));
        WorkflowRun run = WorkflowRun.started(id, "v1", inputs, at);
        runs.started(new StartedRun(run, appId, "t-" + id, user, "2026-01-01 00:00:00.000000", "log-" + id)).join();
        return run;
    }

    @Test
    void aRunIsKeptFromStartToFinishWithItsNodeExecutionsAndOnlyItsAppSeesIt() {
        WorkflowRun run = start("a1", "r1", "ada", Map.of("q", "hello", "sys.user_id", "ada"), 100);
        NodeExecution node = NodeExecution.started("n1", dev.hexaflow.domain.workflow.Node.of("start",
                NodeType.START, Map.of("title", "Start")), 1, null, ExecutionMetadata.NONE, 100)
                .finish(NodeStatus.SUCCEEDED, Map.of("q", "hello"), null, Map.of("q", "hello"), null, 0.01,
                        ExecutionMetadata.NONE.withTokens(3, null), 100);
        runs.saveNode("r1", node).join();

        assertThat(runs.find("a1", "r1").orElseThrow().status()).isEqualTo(RunStatus.RUNNING);
        runs.finished(run.finish(RunStatus.SUCCEEDED, Map.of("answer", "hi"), null, 0.5, 3, 2, 0, 101)).join();

        WorkflowRun kept = runs.find("a1", "r1").orElseThrow();
        assertThat(kept.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(kept.inputs()).isEqualTo(Map.of("q", "hello", "sys.user_id", "ada"));
        assertThat(kept.outputs()).isEqualTo(Map.of("answer", "hi"));
        assertThat(kept.finishedAt()).isEqualTo(101L);
        assertThat(runs.find("a2", "r1")).isEmpty();
        assertThat(runs.nodeExecutions("r1")).singleElement().satisfies(n -> {
            assertThat(n.nodeId()).isEqualTo("start");
            assertThat(n.outputs()).isEqualTo(Map.of("q", "hello"));
            assertThat(n.metadata().totalTokens()).isEqualTo(3);
        });
    }

    @Test
    void theLogSearchMatchesKeywordsStatusTimesAndUsersNewestFirst() {
        start("a1", "r1", "ada", Map.of("q", "100% sure_thing!"), 100);
        start("a1", "r2", "bob", Map.of("q", "nothing special"), 200);
        start("a1", "r3", "Carol", Map.of("q", "HELLO"), 300);
        start("a2", "r4", "ada", Map.of("q", "100% sure_thing!"), 400);
        runs.finished(WorkflowRun.started("r2", "v1", Map.of(), 200).finish(RunStatus.FAILED, Map.of(), "boom", 1, 0,
                1, 0, 201)).join();

        assertThat(ids(query("a1", null, null, null, null, null))).containsExactly("r3", "r2", "r1");
        assertThat(ids(query("a1", "100%", null, null, null, null))).containsExactly("r1");
        assertThat(ids(query("a1", "e_t", null, null, null, null))).containsExactly("r1");
        assertThat(ids(query("a1", "10_%", null, null, null, null))).isEmpty();
        assertThat(ids(query("a1", "hello", null, null, null, null))).containsExactly("r3");
        assertThat(ids(query("a1", "carol", null, null, null, null))).containsExactly("r3");
        assertThat(ids(query("a1", "r2", null, null, null, null))).containsExactly("r2");
        assertThat(ids(query("a1", null, "failed", null, null, null))).containsExactly("r2");
        assertThat(ids(query("a1", null, null, 250L, 150L, null))).containsExactly("r2");
        assertThat(ids(query("a1", null, null, null, null, "ada"))).containsExactly("r1");
        assertThat(query("a1", null, null, null, null, null).total()).isEqualTo(3);
        assertThat(query("a1", null, "failed", null, null, null).total()).isEqualTo(1);
        assertThat(query("a1", null, "running", null, null, null).total()).isEqualTo(2);
        assertThat(query("a2", null, null, null, null, null).total()).isEqualTo(1);
    }

    @Test
    void searchTotalsStayExactAsRunsComeAndRunsGoingOnEnd() {
        for (int i = 0; i < 30; i++) {
            WorkflowRun run = start("a1", "r" + i, "user" + (i % 3), Map.of("q", i % 2 == 0 ? "apple" : "pear"), i);
            if (i % 5 != 0) {
                runs.finished(run.finish(RunStatus.SUCCEEDED, Map.of("a", "x"), null, 1, 0, 1, 0, i)).join();
            }
        }
        assertThat(query("a1", "apple", null, null, null, null).total()).isEqualTo(15);
        assertThat(query("a1", "apple", "succeeded", null, null, null).total()).isEqualTo(12);

        // Runs going on when the searches were counted end, one of them with "apple" in its outputs only.
        runs.finished(WorkflowRun.started("r5", "v1", Map.of("q", "pear"), 5).finish(RunStatus.SUCCEEDED,
                Map.of("a", "Apple pie"), null, 1, 0, 1, 0, 40)).join();
        runs.finished(WorkflowRun.started("r10", "v1", Map.of("q", "apple"), 10).finish(RunStatus.FAILED,
                Map.of(), "boom", 1, 0, 1, 0, 40)).join();
        // New runs come, ended and going on.
        for (int i = 30; i < 40; i++) {
            WorkflowRun run = start("a1", "r" + i, "user0", Map.of("q", "apple " + i), 100 + i);
            if (i % 2 == 0) {
                runs.finished(run.finish(RunStatus.SUCCEEDED, Map.of(), null, 1, 0, 1, 0, 200)).join();
            }
        }

        assertThat(query("a1", "apple", null, null, null, null).total()).isEqualTo(15 + 1 + 10);
        assertThat(query("a1", "apple", "succeeded", null, null, null).total()).isEqualTo(12 + 1 + 5);
        assertThat(query("a1", "apple", "failed", null, null, null).total()).isEqualTo(1);
        assertThat(query("a1", "apple", "succeeded", null, null, "user0").total())
                .isEqualTo(ids(runs.logs(new LogQuery("a1", "apple", "succeeded", 1, 100, null, null, "user0")))
                        .size());
        assertThat(query("a1", "pear", null, null, 20L, null).total()).isEqualTo(5);
    }

    @Test
    void logsArePagedWithHasMore() {
        for (int i = 0; i < 5; i++) {
            start("a1", "r" + i, "ada", Map.of(), 100 + i);
        }

        LogPage first = runs.logs(new LogQuery("a1", null, null, 1, 2, null, null, null));
        LogPage last = runs.logs(new LogQuery("a1", null, null, 3, 2, null, null, null));

        assertThat(first.total()).isEqualTo(5);
        assertThat(first.hasMore()).isTrue();
        assertThat(first.items()).extracting(e -> e.run().id()).containsExactly("r4", "r3");
        assertThat(last.hasMore()).isFalse();
        assertThat(last.items()).extracting(e -> e.run().id()).containsExactly("r0");
        assertThat(first.items().get(0).user().sessionId()).isEqualTo("ada");
        assertThat(first.items().get(0).logId()).isEqualTo("log-r4");
    }

    @Test
    void runsAndNodeExecutionsLeftRunningAreFailedWithTheReason() {
        start("a1", "r1", "ada", Map.of(), 100);
        start("a1", "r2", "ada", Map.of(), 100);
        runs.saveNode("r1", NodeExecution.started("n1", dev.hexaflow.domain.workflow.Node.of("wait", NodeType.CODE,
                Map.of("title", "Wait")), 1, null, ExecutionMetadata.NONE, 100)).join();
        runs.finished(WorkflowRun.started("r2", "v1", Map.of(), 100).finish(RunStatus.SUCCEEDED, Map.of(), null, 1, 0,
                1, 0, 101)).join();

        assertThat(runs.failUnfinished("The server stopped during the run.", 500)).isEqualTo(1);
        assertThat(runs.logs(new LogQuery("a1", null, "failed", 1, 20, null, null, null)).total()).isEqualTo(1);
        assertThat(runs.logs(new LogQuery("a1", null, "running", 1, 20, null, null, null)).total()).isZero();
        assertThat(runs.logs(new LogQuery("a1", null, null, 1, 20, null, null, null)).total()).isEqualTo(2);

        WorkflowRun failed = runs.find("a1", "r1").orElseThrow();
        assertThat(failed.status()).isEqualTo(RunStatus.FAILED);
        assertThat(failed.error()).isEqualTo("The server stopped during the run.");
        assertThat(runs.nodeExecutions("r1")).singleElement().satisfies(node -> {
            assertThat(node.status()).isEqualTo(NodeStatus.FAILED);
            assertThat(node.error()).isEqualTo("The server stopped during the run.");
        });
        assertThat(runs.find("a1", "r2").orElseThrow().status()).isEqualTo(RunStatus.SUCCEEDED);
    }

    @Test
    void writesMadeWithoutWaitingAreKeptInTheirOrderAndARunStartedAndEndedTogetherIsInsertedEnded() {
        EndUser user = users.findOrAdd(new EndUser("u1", "a1", "ada", 100));
        List<java.util.concurrent.CompletableFuture<Void>> writes = new java.util.ArrayList<>();
        for (int i = 0; i < 200; i++) {
            WorkflowRun run = WorkflowRun.started("r" + i, "v1", Map.of("i", i), 100);
            NodeExecution node = NodeExecution.started("n" + i, dev.hexaflow.domain.workflow.Node.of("start",
                    NodeType.START, Map.of("title", "Start")), 1, null, ExecutionMetadata.NONE, 100);
            writes.add(runs.started(new StartedRun(run, "a1", "t" + i, user, "v", "log-" + i)));
            writes.add(runs.saveNode(run.id(), node));
            writes.add(runs.saveNode(run.id(), node.finish(NodeStatus.SUCCEEDED, Map.of(), null, Map.of("i", i),
                    null, 0.01, ExecutionMetadata.NONE, 101)));
            writes.add(runs.finished(run.finish(RunStatus.SUCCEEDED, Map.of("i", i), null, 0.5, 0, 1, 0, 101)));
        }

        writes.forEach(java.util.concurrent.CompletableFuture::join);

        for (int i = 0; i < 200; i++) {
            WorkflowRun kept = runs.find("a1", "r" + i).orElseThrow();
            assertThat(kept.status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(kept.outputs()).isEqualTo(Map.of("i", (long) i));
            assertThat(kept.finishedAt()).isEqualTo(101L);
            assertThat(runs.nodeExecutions("r" + i)).singleElement()
                    .satisfies(n -> assertThat(n.status()).isEqualTo(NodeStatus.SUCCEEDED));
        }
        assertThat(runs.logs(new LogQuery("a1", null, null, 1, 20, null, null, null)).total()).isEqualTo(200);
        assertThat(runs.logs(new LogQuery("a1", null, "succeeded", 1, 20, null, null, null)).total())
                .isEqualTo(200);
        assertThat(runs.logs(new LogQuery("a1", null, "running", 1, 20, null, null, null)).total()).isZero();
    }

    @Test
    void aWriteThatCannotBeKeptFailsAloneAndTheWritesBesideItAreKept() {
        EndUser user = users.findOrAdd(new EndUser("u1", "a1", "ada", 100));
        var before = runs.started(new StartedRun(WorkflowRun.started("ok1", "v1", Map.of(), 100), "a1", "t1", user,
                "v", "l1"));
        var bad = runs.started(new StartedRun(WorkflowRun.started("bad", "v1", Map.of(), 100), "a1", "t2", user,
                "a version label far longer than the forty characters its column holds", "l2"));
        var after = runs.started(new StartedRun(WorkflowRun.started("ok2", "v1", Map.of(), 100), "a1", "t3", user,
                "v", "l3"));

        assertThatThrownBy(bad::join).hasRootCauseInstanceOf(java.sql.SQLException.class);
        before.join();
        after.join();
        assertThat(runs.find("a1", "ok1")).isPresent();
        assertThat(runs.find("a1", "ok2")).isPresent();
        assertThat(runs.find("a1", "bad")).isEmpty();
    }

    @Test
    void closingKeepsWhatIsQueuedAndRefusesLaterWrites() {
        EndUser user = users.findOrAdd(new EndUser("u1", "a1", "ada", 100));
        var queued = runs.started(new StartedRun(WorkflowRun.started("r1", "v1", Map.of(), 100), "a1", "t1", user,
                "v", "l1"));

        runs.close();

        assertThat(queued).isCompleted();
        assertThat(runs.find("a1", "r1")).isPresent();
        assertThatThrownBy(() -> runs.finished(WorkflowRun.started("r1", "v1", Map.of(), 100)).join())
                .hasCauseInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    }

    private LogPage query(String app, String keyword, String status, Long before, Long after, String session) {
        return runs.logs(new LogQuery(app, keyword, status, 1, 20, before, after, session));
    }

    private static List<String> ids(LogPage page) {
        return page.items().stream().map(e -> e.run().id()).toList();
    }

    @Test
    void anUploadForAnUnknownAppIsRefused() {
        assertThatThrownBy(() -> uploads.add(new UploadedFile("f9", "ghost", "nobody", "x", 1, "", "text/plain",
                "0123456789abcdef0123456789abcdef", 1))).isInstanceOf(RuntimeException.class);
    }
}
