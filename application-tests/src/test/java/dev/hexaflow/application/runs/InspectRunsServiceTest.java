package dev.hexaflow.application.runs;

import static dev.hexaflow.application.runs.RunLookupsTest.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.runs.port.in.InspectRunsUseCase.RunItem;
import dev.hexaflow.application.runs.port.in.InspectRunsUseCase.RunList;
import dev.hexaflow.application.runs.port.in.InspectRunsUseCase.RunsQuery;
import dev.hexaflow.application.runs.port.out.RunRepository.StartedRun;
import dev.hexaflow.application.runs.service.InspectRunsService;
import dev.hexaflow.domain.app.EndUser;
import dev.hexaflow.domain.workflow.AppInfo;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The operator's search over every app's runs, kept in the in-memory store: newest first, each filter narrowing,
 * and cursor pages that neither repeat nor skip a run.
 */
class InspectRunsServiceTest {

    private final RunBed bed = new RunBed();
    private final InspectRunsService inspect = new InspectRunsService(bed.apps, bed.runs,
            (event, runId, taskId) -> event.getClass().getSimpleName());

    InspectRunsServiceTest() {
        bed.keep(RunBed.APP, "run-1", "ada", RunStatus.SUCCEEDED, Map.of("query", "weather in Paris"), 100);
        bed.keep(RunBed.APP, "run-2", "bob", RunStatus.FAILED, Map.of("query", "stock prices"), 200);
        bed.keep(RunBed.CHAT_APP, "turn-1", "ada", RunStatus.SUCCEEDED, Map.of("query", "weather"), 250);
        bed.keep(RunBed.APP, "run-3", "ada", RunStatus.STOPPED, Map.of("query", "weather in Rome"), 300);
        bed.keep(RunBed.FORM_APP, "form-1", "cy", RunStatus.RUNNING, Map.of("query", "order 5"), 350);
        bed.keep(RunBed.APP, "run-4", "bob", RunStatus.SUCCEEDED, Map.of("query", "news"), 400);
    }

    @AfterEach
    void close() {
        bed.close();
    }

    private static RunsQuery all(int limit) {
        return new RunsQuery(null, null, null, null, null, null, null, null, limit);
    }

    private List<String> ids(RunsQuery query) {
        return ids(inspect.search(query));
    }

    private static List<String> ids(RunList list) {
        return list.data().stream().map(item -> item.run().id()).toList();
    }

    @Test
    void everyAppsRunsComeNewestFirstEachWithItsAppTaskVersionAndEndUser() {
        RunList list = inspect.search(all(100));

        assertThat(ids(list)).containsExactly("run-4", "form-1", "run-3", "turn-1", "run-2", "run-1");
        assertThat(list.hasMore()).isFalse();
        assertThat(list.nextCursor()).isNull();
        RunItem turn = list.data().get(3);
        assertThat(turn.appId()).isEqualTo(RunBed.CHAT_APP);
        assertThat(turn.appName()).isEqualTo("App app-chat");
        assertThat(turn.appMode()).isEqualTo(AppInfo.ADVANCED_CHAT_MODE);
        assertThat(turn.taskId()).isEqualTo("task-turn-1");
        assertThat(turn.version()).isEqualTo("v1");
        assertThat(turn.endUser().sessionId()).isEqualTo("ada");
        assertThat(turn.traceId()).isNull();
    }

    @Test
    void pagesFollowTheirCursorsToTheLastWithoutRepeatingOrSkippingARun() {
        List<String> seen = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            RunList page = inspect.search(new RunsQuery(null, null, null, null, null, null, null, cursor, 4));
            seen.addAll(ids(page));
            assertThat(page.hasMore()).isEqualTo(page.nextCursor() != null);
            cursor = page.nextCursor();
            pages++;
        } while (cursor != null && pages < 10);

        assertThat(pages).isEqualTo(2);
        assertThat(seen).containsExactly("run-4", "form-1", "run-3", "turn-1", "run-2", "run-1");
    }

    @Test
    void aRunStartedWhileAnOperatorPagesDoesNotShiftTheNextPage() {
        RunList first = inspect.search(all(2));

        bed.keep(RunBed.APP, "run-5", "ada", RunStatus.SUCCEEDED, Map.of(), 500);
        RunList second = inspect.search(new RunsQuery(null, null, null, null, null, null, null,
                first.nextCursor(), 2));

        assertThat(ids(first)).containsExactly("run-4", "form-1");
        assertThat(ids(second)).containsExactly("run-3", "turn-1");
        assertThat(ids(all(1))).containsExactly("run-5");
    }

    /** Runs of the same second are told apart by the order they were kept in, so one page can end between them. */
    @Test
    void runsStartedInTheSameSecondArePagedOneByOneInTheOrderTheyWereKept() {
        for (String id : List.of("same-a", "same-b", "same-c")) {
            bed.keep(RunBed.APP, id, "ada", RunStatus.SUCCEEDED, Map.of(), 600);
        }
        List<String> seen = new ArrayList<>();
        String cursor = null;
        for (int i = 0; i < 4; i++) {
            RunList page = inspect.search(new RunsQuery(null, null, null, null, null, null, null, cursor, 1));
            seen.addAll(ids(page));
            cursor = page.nextCursor();
        }

        assertThat(seen).containsExactly("same-c", "same-b", "same-a", "run-4");
    }

    @Test
    void anAppIdKeepsThatAppsRunsAndAnUnknownOneFindsNone() {
        assertThat(ids(new RunsQuery(RunBed.APP, null, null, null, null, null, null, null, 100)))
                .containsExactly("run-4", "run-3", "run-2", "run-1");
        assertThat(inspect.search(new RunsQuery("app-none", null, null, null, null, null, null, null, 100))
                .data()).isEmpty();
    }

    @Test
    void aModeKeepsTheRunsOfTheAppsOfThatModeAndAnAppOfAnotherModeFindsNone() {
        assertThat(ids(new RunsQuery(null, AppInfo.ADVANCED_CHAT_MODE, null, null, null, null, null, null, 100)))
                .containsExactly("turn-1");
        assertThat(ids(new RunsQuery(null, AppInfo.WORKFLOW_MODE, null, null, null, null, null, null, 100)))
                .containsExactly("run-4", "form-1", "run-3", "run-2", "run-1");
        assertThat(ids(new RunsQuery(RunBed.APP, AppInfo.ADVANCED_CHAT_MODE, null, null, null, null, null, null,
                100))).isEmpty();
    }

    @Test
    void aStatusKeepsOnlyTheRunsWithItAndAnUnknownOneIsRefused() {
        assertThat(ids(new RunsQuery(null, null, "failed", null, null, null, null, null, 100)))
                .containsExactly("run-2");
        assertThat(ids(new RunsQuery(null, null, "running", null, null, null, null, null, 100)))
                .containsExactly("form-1");
        assertRefused(() -> inspect.search(new RunsQuery(null, null, "exploded", null, null, null, null, null, 10)),
                ApiError.INVALID_PARAM, "status must be one of succeeded, failed, stopped, running, "
                        + "partial-succeeded, paused");
    }

    @Test
    void anEndUserKeepsTheirRunsAcrossAppsOrInOneApp() {
        assertThat(ids(new RunsQuery(null, null, null, "ada", null, null, null, null, 100)))
                .containsExactly("run-3", "turn-1", "run-1");
        assertThat(ids(new RunsQuery(RunBed.APP, null, null, "ada", null, null, null, null, 100)))
                .containsExactly("run-3", "run-1");
        assertThat(ids(new RunsQuery(null, null, null, "ad", null, null, null, null, 100)))
                .as("a user is named whole").isEmpty();
    }

    @Test
    void timesBoundTheRunsOnBothSidesInclusively() {
        assertThat(ids(new RunsQuery(null, null, null, null, 250L, 350L, null, null, 100)))
                .containsExactly("form-1", "run-3", "turn-1");
        assertThat(ids(new RunsQuery(null, null, null, null, null, 99L, null, null, 100))).isEmpty();
        assertThat(ids(new RunsQuery(null, null, null, null, 400L, null, null, null, 100)))
                .containsExactly("run-4");
    }

    @Test
    void aKeywordMatchesInputsWhateverTheCaseTheEndUserOrARunIdWhole() {
        assertThat(ids(new RunsQuery(null, null, null, null, null, null, "WEATHER", null, 100)))
                .containsExactly("run-3", "turn-1", "run-1");
        assertThat(ids(new RunsQuery(null, null, null, null, null, null, "order 5", null, 100)))
                .containsExactly("form-1");
        assertThat(ids(new RunsQuery(null, null, null, null, null, null, "bo", null, 100)))
                .containsExactly("run-4", "run-2");
        assertThat(ids(new RunsQuery(null, null, null, null, null, null, "run-2", null, 100)))
                .containsExactly("run-2");
        assertThat(ids(new RunsQuery(null, null, null, null, null, null, "run-", null, 100))).isEmpty();
        assertThat(ids(new RunsQuery(null, null, null, null, null, null, "  ", null, 100))).hasSize(6);
    }

    @Test
    void filtersCombineAndEveryOneMustHold() {
        assertThat(ids(new RunsQuery(RunBed.APP, AppInfo.WORKFLOW_MODE, "succeeded", "bob", 300L, 500L, "news",
                null, 100))).containsExactly("run-4");
        assertThat(ids(new RunsQuery(RunBed.APP, null, "succeeded", "ada", null, null, "rome", null, 100)))
                .isEmpty();
    }

    @Test
    void aLimitOutsideOneToAHundredIsRefused() {
        assertRefused(() -> inspect.search(all(0)), ApiError.INVALID_PARAM, "limit must be between 1 and 100");
        assertRefused(() -> inspect.search(all(101)), ApiError.INVALID_PARAM, "limit must be between 1 and 100");
        assertThat(inspect.search(all(100)).limit()).isEqualTo(100);
    }

    @Test
    void aCursorThisServerDidNotGiveIsRefusedAndAnEmptyOneIsTheFirstPage() {
        for (String cursor : List.of("zzz", "12", ".5", "1.x", "x.1", "1." + "9".repeat(39))) {
            assertRefused(() -> inspect.search(new RunsQuery(null, null, null, null, null, null, null, cursor, 10)),
                    ApiError.INVALID_PARAM, "cursor is not one this server gave");
        }
        assertThat(ids(new RunsQuery(null, null, null, null, null, null, null, "", 1))).containsExactly("run-4");
    }

    @Test
    void aTracedRunIsListedWithItsTracesId() {
        EndUser user = bed.endUsers.findOrAdd(new EndUser("eu-traced", RunBed.APP, "dee", 700));
        bed.runs.started(new StartedRun(WorkflowRun.started("traced", "ver-1", Map.of(), 700), RunBed.APP,
                "task-traced", user, "v1", "log-traced", "trace-0af7651916cd43dd")).join();

        RunItem item = inspect.search(all(1)).data().get(0);

        assertThat(item.run().id()).isEqualTo("traced");
        assertThat(item.traceId()).isEqualTo("trace-0af7651916cd43dd");
        assertThat(inspect.detail("traced").run().traceId()).isEqualTo("trace-0af7651916cd43dd");
    }
}
