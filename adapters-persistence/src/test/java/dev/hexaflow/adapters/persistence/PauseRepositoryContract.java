package dev.hexaflow.adapters.persistence;

import static dev.hexaflow.adapters.persistence.WorkflowFixtures.APP;
import static dev.hexaflow.adapters.persistence.WorkflowFixtures.OTHER_APP;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.application.runs.port.out.PauseRepository;
import dev.hexaflow.application.runs.port.out.RunRepository.LogQuery;
import dev.hexaflow.application.runs.port.out.RunRepository.Pruning;
import dev.hexaflow.application.runs.port.out.RunRepository.RunPause;
import dev.hexaflow.application.runs.port.out.RunRepository.StartedRun;
import dev.hexaflow.application.runs.port.out.RunRepository;
import dev.hexaflow.domain.app.EndUser;
import dev.hexaflow.domain.workflow.FormStatus;
import dev.hexaflow.domain.workflow.HumanInputForm;
import dev.hexaflow.domain.workflow.KeptForm;
import dev.hexaflow.domain.workflow.PausedRun.WaitingNode;
import dev.hexaflow.domain.workflow.PausedRun;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * What every {@link PauseRepository} promises, with the {@link RunRepository} whose pauses it keeps; each adapter
 * runs it by extending this class. A form {@code f} is sent by node {@code ask-f} with token {@code token-f}; runs
 * pause for end user {@code user-ada}.
 */
abstract class PauseRepositoryContract {

    protected abstract RunRepository repository();

    private PauseRepository pauses() {
        return repository().pauses();
    }

    private WorkflowRun start(String appId, String id, long at) {
        WorkflowRun run = WorkflowRun.started(id, "wf-1", Map.of("q", "hello"), at);
        repository().started(new StartedRun(run, appId, "task-" + id, new EndUser("user-ada", appId, "ada", 1),
                "v-" + id, "log-" + id)).join();
        return run;
    }

    static HumanInputForm form(String runId, String id, long expiresAt) {
        return new HumanInputForm(id, "token-" + id, runId, "ask-" + id, "Ask " + id, "Your name? {{#$output.name#}}",
                List.of(Map.of("type", "paragraph", "output_variable_name", "name")),
                List.of(Map.of("id", "ok", "title", "OK"), Map.of("id", "no", "title", "No")),
                Map.of("name", "Ada"), expiresAt, List.of(Map.of("type", "webapp", "enabled", true)));
    }

    /** The run paused at the forms' nodes, with variables of every plain kind. */
    static PausedRun paused(WorkflowRun running, List<HumanInputForm> forms) {
        Map<String, Object> start = new LinkedHashMap<>();
        start.put("q", "hello");
        start.put("n", 7L);
        start.put("ratio", 2.5);
        start.put("yes", true);
        start.put("nothing", null);
        start.put("list", List.of(1L, "two", Map.of("three", 3L)));
        Map<String, WaitingNode> waiting = new LinkedHashMap<>();
        forms.forEach(form -> waiting.put(form.nodeId(), new WaitingNode(form.nodeId(), "exec-" + form.formId(), 2,
                "start", running.createdAt() + 1, form)));
        return new PausedRun(running.pause(Map.of("partial", "so far"), 1.5, 12, 3, 0), "task-" + running.id(),
                Map.of("start", start), Map.of("e1", "taken", "e2", "skipped"), waiting, 3, Map.of());
    }

    private PausedRun pause(String appId, WorkflowRun running, long at, HumanInputForm... forms) {
        PausedRun paused = paused(running, List.of(forms));
        repository().paused(new RunPause(paused, List.of(forms), appId, "user-ada", at)).join();
        return paused;
    }

    private long total(String appId, String status) {
        return repository().logs(new LogQuery(appId, null, status, 1, 20, null, null, null)).total();
    }

    private static List<String> ids(List<KeptForm> forms) {
        return forms.stream().map(form -> form.form().formId()).toList();
    }

    @Test
    void aPausedRunIsKeptWithItsFormsAndReadBackWhole() {
        WorkflowRun run = start(APP, "r1", 100);
        HumanInputForm form = form("r1", "f1", 900);

        PausedRun paused = pause(APP, run, 200, form);

        assertThat(repository().find(APP, "r1")).contains(paused.run());
        assertThat(total(APP, "paused")).isEqualTo(1);
        assertThat(total(APP, "running")).isZero();
        KeptForm kept = new KeptForm(form, APP, "user-ada", FormStatus.WAITING, null, null, 200, null, false);
        assertThat(pauses().formByToken("token-f1")).contains(kept);
        assertThat(pauses().formByToken("token-f9")).isEmpty();
        assertThat(pauses().forms("r1")).containsExactly(kept);
        assertThat(pauses().takeForResume("r1")).contains(paused);
    }

    @Test
    void aSecondPauseOfTheRunReplacesItsPausedRunAndAddsItsForms() {
        WorkflowRun run = start(APP, "r1", 100);
        PausedRun first = pause(APP, run, 200, form("r1", "f1", 900));
        pauses().answer("f1", FormStatus.SUBMITTED, "ok", Map.of("name", "Bo"), 250);
        pauses().takeForResume("r1").orElseThrow();
        pauses().applied(List.of("f1"));

        PausedRun second = pause(APP, first.run().resume(), 300, form("r1", "f2", 950));

        assertThat(pauses().forms("r1")).extracting(form -> form.form().formId(), KeptForm::status,
                KeptForm::applied).containsExactly(org.assertj.core.groups.Tuple.tuple("f1", FormStatus.SUBMITTED,
                        true), org.assertj.core.groups.Tuple.tuple("f2", FormStatus.WAITING, false));
        assertThat(pauses().takeForResume("r1")).contains(second);
    }

    @Test
    void ofTwoAnswersAtOnceExactlyOneWinsAndItsAnswerIsKept() throws Exception {
        WorkflowRun run = start(APP, "r1", 100);
        pause(APP, run, 200, form("r1", "f1", 900));

        List<Boolean> wins = race(() -> pauses().answer("f1", FormStatus.SUBMITTED, "ok", Map.of("name", "Bo"),
                250));

        assertThat(wins).containsExactlyInAnyOrder(true, false);
        KeptForm answered = pauses().formByToken("token-f1").orElseThrow();
        assertThat(answered.status()).isEqualTo(FormStatus.SUBMITTED);
        assertThat(answered.actionId()).isEqualTo("ok");
        assertThat(answered.submittedData()).isEqualTo(Map.of("name", "Bo"));
        assertThat(answered.answeredAt()).isEqualTo(250);
        assertThat(pauses().answer("f1", FormStatus.TIMEOUT, null, null, 300)).isFalse();
        assertThat(pauses().answer("f9", FormStatus.TIMEOUT, null, null, 300)).isFalse();
    }

    @Test
    void aTimeoutIsKeptWithoutAnActionOrInputs() {
        pause(APP, start(APP, "r1", 100), 200, form("r1", "f1", 900));

        assertThat(pauses().answer("f1", FormStatus.TIMEOUT, null, null, 901)).isTrue();

        assertThat(pauses().forms("r1")).singleElement().satisfies(form -> {
            assertThat(form.status()).isEqualTo(FormStatus.TIMEOUT);
            assertThat(form.actionId()).isNull();
            assertThat(form.submittedData()).isNull();
            assertThat(form.answeredAt()).isEqualTo(901);
        });
    }

    @Test
    void ofTwoTakesOfAPausedRunAtOnceExactlyOneGetsItAndTheRunRunsAgain() throws Exception {
        PausedRun paused = pause(APP, start(APP, "r1", 100), 200, form("r1", "f1", 900));

        List<Boolean> taken = race(() -> pauses().takeForResume("r1").map(paused::equals).orElse(false));

        assertThat(taken).containsExactlyInAnyOrder(true, false);
        assertThat(repository().find(APP, "r1").orElseThrow().status()).isEqualTo(RunStatus.RUNNING);
        assertThat(total(APP, "running")).isEqualTo(1);
        assertThat(total(APP, "paused")).isZero();
        assertThat(pauses().takeForResume("r1")).isEmpty();
        assertThat(pauses().takeForResume("r9")).isEmpty();
    }

    @Test
    void aRunPutBackIsPausedAgainAndCanBeTakenOnceMore() {
        PausedRun paused = pause(APP, start(APP, "r1", 100), 200, form("r1", "f1", 900));
        pauses().takeForResume("r1").orElseThrow();

        pauses().putBack("r1");

        assertThat(repository().find(APP, "r1").orElseThrow().status()).isEqualTo(RunStatus.PAUSED);
        assertThat(total(APP, "paused")).isEqualTo(1);
        assertThat(pauses().takeForResume("r1")).contains(paused);
    }

    @Test
    void aStoppedPausedRunEndsStoppedWithItsWaitingFormsExpiredAndARunningOneIsNotStopped() {
        pause(APP, start(APP, "r1", 100), 200, form("r1", "f1", 900), form("r1", "f2", 900));
        pauses().answer("f1", FormStatus.SUBMITTED, "ok", Map.of(), 250);
        start(APP, "r2", 100);

        assertThat(pauses().stop("r1", "Stopped by ada.", 300)).isTrue();
        assertThat(pauses().stop("r2", "Stopped by ada.", 300)).isFalse();

        WorkflowRun stopped = repository().find(APP, "r1").orElseThrow();
        assertThat(stopped.status()).isEqualTo(RunStatus.STOPPED);
        assertThat(stopped.error()).isEqualTo("Stopped by ada.");
        assertThat(stopped.finishedAt()).isEqualTo(300);
        assertThat(pauses().forms("r1")).extracting(KeptForm::status)
                .containsExactly(FormStatus.SUBMITTED, FormStatus.EXPIRED);
        assertThat(pauses().takeForResume("r1")).isEmpty();
        assertThat(pauses().stop("r1", "again", 400)).isFalse();
        assertThat(repository().find(APP, "r2").orElseThrow().status()).isEqualTo(RunStatus.RUNNING);
        assertThat(total(APP, "stopped")).isEqualTo(1);
        assertThat(total(APP, "paused")).isZero();
    }

    @Test
    void aCallersFormWaitsOnItsCalledRunUntilThatRunPausesPastItsFormOrEnds() {
        PausedRun called = pause(OTHER_APP, start(OTHER_APP, "k1", 100), 150, form("k1", "fk", 500));
        HumanInputForm base = form("c1", "fc", 500);
        HumanInputForm forwarding = new HumanInputForm(base.formId(), base.formToken(), base.runId(), base.nodeId(),
                base.nodeTitle(), base.formContent(), base.inputs(), base.actions(), base.resolvedDefaultValues(),
                base.expirationTime(), base.deliveryMethods(), new HumanInputForm.FormRef("k1", "fk"));
        pause(APP, start(APP, "c1", 100), 200, forwarding);

        assertThat(pauses().formByToken("token-fc").orElseThrow().form()).isEqualTo(forwarding);
        assertThat(ids(pauses().expired(1000, 10))).containsExactly("fk");
        pauses().answer("fk", FormStatus.SUBMITTED, "ok", Map.of("name", "Bo"), 250);
        assertThat(pauses().waitingOnMovedRuns(null, 10)).isEmpty();
        pauses().takeForResume("k1").orElseThrow();
        pauses().applied(List.of("fk"));
        assertThat(pauses().waitingOnMovedRuns("k1", 10)).isEmpty();

        PausedRun again = pause(OTHER_APP, called.run().resume(), 300, form("k1", "fk2", 900));

        assertThat(ids(pauses().waitingOnMovedRuns("k1", 10))).containsExactly("fc");
        assertThat(ids(pauses().waitingOnMovedRuns(null, 10))).containsExactly("fc");
        assertThat(pauses().waitingOnMovedRuns("c1", 10)).isEmpty();
        pauses().takeForResume("k1").orElseThrow();
        repository().finished(again.run().resume().finish(RunStatus.SUCCEEDED, Map.of(), null, 2, 0, 4, 0, 400))
                .join();
        assertThat(ids(pauses().waitingOnMovedRuns("k1", 10))).containsExactly("fc");
        pauses().answer("fc", FormStatus.SUBMITTED, "ok", Map.of("name", "Bo"), 450);
        assertThat(pauses().waitingOnMovedRuns("k1", 10)).isEmpty();
    }

    @Test
    void expiredListsTheWaitingFormsOfPausedRunsWhoseTimeRanOutOldestFirst() {
        pause(APP, start(APP, "r1", 100), 200, form("r1", "late", 500), form("r1", "later", 900));
        pause(APP, start(APP, "r2", 100), 200, form("r2", "stopped", 300));
        pauses().stop("r2", "Stopped.", 250);
        pause(APP, start(APP, "r3", 100), 200, form("r3", "answered", 300));
        pauses().answer("answered", FormStatus.SUBMITTED, "ok", Map.of(), 250);
        pause(OTHER_APP, start(OTHER_APP, "r4", 100), 200, form("r4", "resumed", 300));
        pauses().takeForResume("r4").orElseThrow();
        pause(OTHER_APP, start(OTHER_APP, "r5", 100), 200, form("r5", "early", 400));

        assertThat(ids(pauses().expired(600, 10))).containsExactly("early", "late");
        assertThat(ids(pauses().expired(1000, 10))).containsExactly("early", "late", "later");
        assertThat(ids(pauses().expired(1000, 1))).containsExactly("early");
        assertThat(ids(pauses().expired(500, 10))).containsExactly("early", "late");
        assertThat(pauses().expired(399, 10)).isEmpty();
    }

    @Test
    void waitingListsAnAppsWaitingFormsOfPausedRunsNewestFirstOrEveryAppsWithoutOne() {
        pause(APP, start(APP, "r1", 100), 200, form("r1", "f1", 900));
        pause(OTHER_APP, start(OTHER_APP, "r2", 100), 300, form("r2", "f2", 900));
        pause(APP, start(APP, "r3", 100), 400, form("r3", "f3", 900), form("r3", "f4", 900));
        pauses().answer("f4", FormStatus.SUBMITTED, "ok", Map.of(), 450);
        pause(APP, start(APP, "r5", 100), 500, form("r5", "f5", 900));
        pauses().stop("r5", "Stopped.", 550);

        assertThat(ids(pauses().waiting(APP, 10))).containsExactly("f3", "f1");
        assertThat(ids(pauses().waiting(OTHER_APP, 10))).containsExactly("f2");
        assertThat(ids(pauses().waiting(null, 10))).containsExactly("f3", "f2", "f1");
        assertThat(ids(pauses().waiting(null, 2))).containsExactly("f3", "f2");
    }

    @Test
    void aPruneKeepsPausedRunsAndDeletesThePrunedRunsForms() {
        PausedRun waiting = pause(APP, start(APP, "r1", 100), 200, form("r1", "f1", 900));
        PausedRun ended = pause(APP, start(APP, "r2", 100), 200, form("r2", "f2", 900));
        pauses().answer("f2", FormStatus.SUBMITTED, "ok", Map.of(), 250);
        pauses().takeForResume("r2").orElseThrow();
        repository().finished(ended.run().resume().finish(RunStatus.SUCCEEDED, Map.of(), null, 2, 0, 4, 0, 300))
                .join();

        assertThat(repository().prune(new Pruning(1000L, 0, 10))).isEqualTo(1);
        assertThat(repository().prune(new Pruning(1000L, 0, 10))).isZero();

        assertThat(repository().find(APP, "r2")).isEmpty();
        assertThat(pauses().forms("r2")).isEmpty();
        assertThat(pauses().formByToken("token-f2")).isEmpty();
        assertThat(pauses().forms("r1")).hasSize(1);
        assertThat(pauses().takeForResume("r1")).contains(waiting);
    }

    @Test
    void aFinishedRunKeepsItsFormsAndCannotBeTakenOrStopped() {
        PausedRun paused = pause(APP, start(APP, "r1", 100), 200, form("r1", "f1", 900));
        pauses().answer("f1", FormStatus.SUBMITTED, "ok", Map.of(), 250);
        pauses().takeForResume("r1").orElseThrow();

        repository().finished(paused.run().resume().finish(RunStatus.SUCCEEDED, Map.of("answer", "hi"), null, 2, 0,
                4, 0, 300)).join();

        assertThat(repository().find(APP, "r1").orElseThrow().status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(pauses().forms("r1")).extracting(KeptForm::status).containsExactly(FormStatus.SUBMITTED);
        assertThat(pauses().takeForResume("r1")).isEmpty();
        assertThat(pauses().stop("r1", "Stopped.", 400)).isFalse();
        assertThat(total(APP, "succeeded")).isEqualTo(1);
        assertThat(total(APP, "paused") + total(APP, "running")).isZero();
    }

    @Test
    void aStartAPauseAndAnEndMadeWithoutWaitingKeepThePauseAsTheEndFindsTheRunPaused() {
        WorkflowRun run = WorkflowRun.started("r1", "wf-1", Map.of("q", "hello"), 100);
        HumanInputForm form = form("r1", "f1", 900);
        PausedRun paused = paused(run, List.of(form));

        List<CompletableFuture<Void>> writes = List.of(repository().started(new StartedRun(run, APP, "task-r1",
                new EndUser("user-ada", APP, "ada", 1), "v-r1", "log-r1")),
                repository().paused(new RunPause(paused, List.of(form), APP, "user-ada", 200)),
                repository().finished(run.finish(RunStatus.FAILED, Map.of(), "late", 1, 0, 1, 1, 300)));
        writes.forEach(CompletableFuture::join);

        assertThat(repository().find(APP, "r1")).contains(paused.run());
        assertThat(total(APP, "paused")).isEqualTo(1);
        assertThat(pauses().takeForResume("r1")).contains(paused);
    }

    @Test
    void aPausedRunIsNotFailedAsLeftRunning() {
        pause(APP, start(APP, "r1", 100), 200, form("r1", "f1", 900));

        assertThat(repository().failUnfinished("The server stopped during the run.", 300)).isZero();

        assertThat(repository().find(APP, "r1").orElseThrow().status()).isEqualTo(RunStatus.PAUSED);
        assertThat(ids(pauses().waiting(APP, 10))).containsExactly("f1");
    }

    @Test
    void aSearchTotalCountedWhileARunWasPausedCountsItOnceItHasEnded() {
        PausedRun paused = pause(APP, start(APP, "r1", 100), 200, form("r1", "f1", 900));
        WorkflowRun other = start(APP, "r2", 150);
        repository().finished(other.finish(RunStatus.SUCCEEDED, Map.of(), null, 1, 0, 1, 0, 160)).join();
        LogQuery search = new LogQuery(APP, "hello", "succeeded", 1, 20, null, null, null);
        assertThat(repository().logs(search).total()).isEqualTo(1);

        pauses().takeForResume("r1").orElseThrow();
        repository().finished(paused.run().resume().finish(RunStatus.SUCCEEDED, Map.of(), null, 2, 0, 4, 0, 300))
                .join();

        assertThat(repository().logs(search).total()).isEqualTo(2);
    }

    /** Runs the claim on two threads let go at once, and answers what each got. */
    private static List<Boolean> race(Callable<Boolean> claim) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            CountDownLatch ready = new CountDownLatch(2);
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Boolean>> claims = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                claims.add(threads.submit(() -> {
                    ready.countDown();
                    go.await();
                    return claim.call();
                }));
            }
            ready.await();
            go.countDown();
            List<Boolean> results = new ArrayList<>();
            for (Future<Boolean> result : claims) {
                results.add(result.get());
            }
            return results;
        } finally {
            threads.shutdownNow();
        }
    }
}
