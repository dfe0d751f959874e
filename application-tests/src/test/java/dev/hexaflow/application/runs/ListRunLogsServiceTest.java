package dev.hexaflow.application.runs;

import static dev.hexaflow.application.runs.RunLookupsTest.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.runs.port.in.ListRunLogsUseCase.RunLogEntry;
import dev.hexaflow.application.runs.port.in.ListRunLogsUseCase.RunLogPage;
import dev.hexaflow.application.runs.port.in.ListRunLogsUseCase.RunLogsQuery;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunObserver;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunUnderWay;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunWorkflowCommand;
import dev.hexaflow.application.runs.service.ListRunLogsService;
import dev.hexaflow.domain.workflow.RunStatus;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Searching an app's run logs on the in-memory run store: pages newest first, and each filter narrowing them. */
class ListRunLogsServiceTest {

    private final RunBed bed = new RunBed();
    private final ListRunLogsService logs = new ListRunLogsService(bed.runs);

    ListRunLogsServiceTest() {
        bed.keep(RunBed.APP, "run-1", "ada", RunStatus.SUCCEEDED, Map.of("query", "weather in Paris"), 100);
        bed.keep(RunBed.APP, "run-2", "bob", RunStatus.FAILED, Map.of("query", "stock prices"), 200);
        bed.keep(RunBed.APP, "run-3", "ada", RunStatus.STOPPED, Map.of("query", "weather in Rome"), 300);
        bed.keep(RunBed.APP, "run-4", "bob", RunStatus.SUCCEEDED, Map.of("query", "news"), 400);
        bed.keep(RunBed.APP, "run-5", "ada", RunStatus.RUNNING, Map.of("query", "sports"), 500);
        bed.keep(RunBed.CHAT_APP, "run-x", "ada", RunStatus.SUCCEEDED, Map.of("query", "weather"), 600);
    }

    @AfterEach
    void close() {
        bed.close();
    }

    private RunLogPage search(String keyword, String status, int page, int limit) {
        return logs.list(new RunLogsQuery(RunBed.APP, keyword, status, page, limit, null, null, null));
    }

    private static List<String> ids(RunLogPage page) {
        return page.items().stream().map(entry -> entry.run().id()).toList();
    }

    @Test
    void logsComeNewestFirstAndOnlyOfTheAskingApp() {
        RunLogPage page = search(null, null, 1, 100);

        assertThat(ids(page)).containsExactly("run-5", "run-4", "run-3", "run-2", "run-1");
        assertThat(page.total()).isEqualTo(5);
        assertThat(page.hasMore()).isFalse();
    }

    @Test
    void aPageHoldsAtMostItsLimitAndTellsWhetherMoreFollow() {
        RunLogPage first = search(null, null, 1, 2);
        RunLogPage third = search(null, null, 3, 2);

        assertThat(ids(first)).containsExactly("run-5", "run-4");
        assertThat(first.hasMore()).isTrue();
        assertThat(ids(third)).containsExactly("run-1");
        assertThat(third.hasMore()).isFalse();
        assertThat(third.total()).isEqualTo(5);
    }

    @Test
    void anEntryShowsTheVersionTheEndUserAndTheLogId() {
        RunLogEntry entry = search(null, null, 1, 100).items().get(4);

        assertThat(entry.logId()).isEqualTo("log-run-1");
        assertThat(entry.version()).isEqualTo("v1");
        assertThat(entry.user().sessionId()).isEqualTo("ada");
        assertThat(entry.createdAt()).isEqualTo(100);
    }

    @Test
    void aStatusKeepsOnlyTheRunsWithIt() {
        assertThat(ids(search(null, "succeeded", 1, 100))).containsExactly("run-4", "run-1");
        assertThat(ids(search(null, "running", 1, 100))).containsExactly("run-5");
        assertThat(ids(search(null, "partial-succeeded", 1, 100))).isEmpty();
    }

    @Test
    void aKeywordMatchesInputsAndOutputsWhateverItsCase() {
        assertThat(ids(search("WEATHER", null, 1, 100))).containsExactly("run-3", "run-1");
        assertThat(ids(search("paris", "succeeded", 1, 100))).containsExactly("run-1");
    }

    @Test
    void aBlankKeywordFiltersNothingAndALongOneCountsOnlyItsFirstThirtyCharacters() {
        String thirty = "abcdefghijklmnopqrstuvwxyz0123";
        bed.keep(RunBed.APP, "run-6", "cy", RunStatus.SUCCEEDED, Map.of("query", thirty), 50);

        assertThat(search("   ", null, 1, 100).total()).isEqualTo(6);
        // The tail past the 30th character is not searched, so the run matches though its inputs lack it.
        assertThat(ids(search(thirty + " and then some", null, 1, 100))).containsExactly("run-6");
    }

    @Test
    void timesBoundTheLogsOnBothSidesInclusively() {
        RunLogPage between = logs.list(new RunLogsQuery(RunBed.APP, null, null, 1, 100, 400L, 200L, null));

        assertThat(ids(between)).containsExactly("run-4", "run-3", "run-2");
    }

    @Test
    void anEndUserSessionKeepsOnlyItsOwnRuns() {
        RunLogPage bobs = logs.list(new RunLogsQuery(RunBed.APP, null, null, 1, 100, null, null, "bob"));

        assertThat(ids(bobs)).containsExactly("run-4", "run-2");
        assertThat(bobs.items()).allSatisfy(entry -> assertThat(entry.user().sessionId()).isEqualTo("bob"));
    }

    @Test
    void aPageLimitOrStatusOutOfRangeIsRefused() {
        assertRefused(() -> search(null, null, 0, 10), ApiError.INVALID_PARAM, "page must be between 1 and 99999");
        assertRefused(() -> search(null, null, 100000, 10), ApiError.INVALID_PARAM,
                "page must be between 1 and 99999");
        assertRefused(() -> search(null, null, 1, 0), ApiError.INVALID_PARAM, "limit must be between 1 and 100");
        assertRefused(() -> search(null, null, 1, 101), ApiError.INVALID_PARAM, "limit must be between 1 and 100");
        assertRefused(() -> search(null, "done", 1, 10), ApiError.INVALID_PARAM,
                "status must be one of succeeded, failed, stopped, running, partial-succeeded, paused");
    }

    @Test
    void aKeywordMatchesTheEndUsersSessionOrARunIdWholeButNotPartOfIt() {
        assertThat(ids(search("BO", null, 1, 100))).containsExactly("run-4", "run-2");
        assertThat(ids(search("run-3", null, 1, 100))).containsExactly("run-3");
        assertThat(ids(search("run-", null, 1, 100))).isEmpty();
    }

    @Test
    void aPagePastTheLastIsEmptyWithTheTotalStillTold() {
        RunLogPage beyond = search(null, null, 4, 2);

        assertThat(beyond.items()).isEmpty();
        assertThat(beyond.total()).isEqualTo(5);
        assertThat(beyond.hasMore()).isFalse();
    }

    @Test
    void aStatusAndAnEndUserTogetherKeepOnlyTheRunsWithBoth() {
        RunLogPage adasSucceeded = logs.list(new RunLogsQuery(RunBed.APP, null, "succeeded", 1, 100, null, null,
                "ada"));
        RunLogPage bobsStopped = logs.list(new RunLogsQuery(RunBed.APP, null, "stopped", 1, 100, null, null,
                "bob"));

        assertThat(ids(adasSucceeded)).containsExactly("run-1");
        assertThat(bobsStopped.total()).isZero();
    }

    @Test
    void aTimeOnOneSideAloneBoundsOnlyThatSide() {
        assertThat(ids(logs.list(new RunLogsQuery(RunBed.APP, null, null, 1, 100, null, 300L, null))))
                .containsExactly("run-5", "run-4", "run-3");
        assertThat(ids(logs.list(new RunLogsQuery(RunBed.APP, null, null, 1, 100, 200L, null, null))))
                .containsExactly("run-2", "run-1");
    }

    /** A blocking run is held in memory at first; once its hold is kept it shows running, long before it ends. */
    @Test
    void aLongBlockingRunShowsRunningOnceItsHoldIsKeptAndEndedOnceItAnswers() throws InterruptedException {
        RunUnderWay run = bed.service(0).start(new RunWorkflowCommand(RunBed.APP, RunBed.GATED, "dee", Map.of(),
                List.of()), RunObserver.NONE);
        bed.awaitWaiting(1);
        RunLogsQuery dees = new RunLogsQuery(RunBed.APP, null, null, 1, 100, null, null, "dee");

        assertThat(logs.list(dees).total()).as("held, not yet kept").isZero();
        bed.holds.keepAll();
        assertThat(logs.list(dees).items()).singleElement()
                .satisfies(entry -> assertThat(entry.run().status()).isEqualTo(RunStatus.RUNNING));
        bed.gate.countDown();
        run.await();
        assertThat(logs.list(dees).items()).singleElement().satisfies(entry -> {
            assertThat(entry.run().id()).isEqualTo(run.runId());
            assertThat(entry.run().status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(entry.version()).isEqualTo("v0");
        });
    }
}
