package dev.hexaflow.application.runs;

import static dev.hexaflow.application.runs.RunLookupsTest.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.runs.port.in.FollowRunUseCase.FollowRunQuery;
import dev.hexaflow.application.runs.port.in.FollowRunUseCase.Following;
import dev.hexaflow.application.runs.port.in.FollowRunUseCase.Next;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunObserver;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunUnderWay;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunWorkflowCommand;
import dev.hexaflow.application.runs.port.out.RunRepository.KeptEvent;
import dev.hexaflow.application.runs.service.FollowRunService;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Following a run by its events: runs kept in the in-memory store (ended, or going on elsewhere) and runs going on
 * here on the real engine. The bed's event format writes an event as its class's simple name.
 */
class FollowRunServiceTest {

    private static final String FINISHED = "{\"event\":\"workflow_finished\"}";
    private static final Duration WAIT = Duration.ofSeconds(5);

    private final RunBed bed = new RunBed();
    private final FollowRunService follow = new FollowRunService(bed.runs, bed.feeds,
            (event, runId, taskId) -> event.getClass().getSimpleName());

    @AfterEach
    void close() {
        bed.close();
    }

    private void events(String runId, String... data) {
        long first = bed.runs.events(runId, 0).size() + 1;
        for (int i = 0; i < data.length; i++) {
            bed.runs.event(new KeptEvent(runId, first + i, data[i])).join();
        }
    }

    /** Everything the follower is told until the end, as "seq:data". */
    private static List<String> toTheEnd(Following following) throws InterruptedException {
        List<String> told = new ArrayList<>();
        for (Next next = following.next(WAIT); !(next instanceof Next.End); next = following.next(WAIT)) {
            assertThat(next).as("nothing came within %s", WAIT).isInstanceOf(Next.Event.class);
            Next.Event event = (Next.Event) next;
            told.add(event.seq() + ":" + event.data());
        }
        return told;
    }

    @Test
    void anEndedRunIsToldFromItsFirstEventToItsEnd() throws InterruptedException {
        bed.keep(RunBed.APP, "run-1", "ada", RunStatus.SUCCEEDED, Map.of(), 100);
        events("run-1", "{\"event\":\"workflow_started\"}", "{\"event\":\"text_chunk\"}", FINISHED);

        try (Following following = follow.follow(new FollowRunQuery(RunBed.APP, "run-1", 0))) {
            assertThat(toTheEnd(following)).containsExactly("1:{\"event\":\"workflow_started\"}",
                    "2:{\"event\":\"text_chunk\"}", "3:" + FINISHED);
        }
    }

    @Test
    void aFollowerWhoHasSomeEventsIsToldOnlyThoseAfter() throws InterruptedException {
        bed.keep(RunBed.APP, "run-1", "ada", RunStatus.SUCCEEDED, Map.of(), 100);
        events("run-1", "{\"event\":\"a\"}", "{\"event\":\"b\"}", FINISHED);

        try (Following following = follow.follow(new FollowRunQuery(RunBed.APP, "run-1", 2))) {
            assertThat(toTheEnd(following)).containsExactly("3:" + FINISHED);
        }
    }

    @Test
    void anEndedRunWhoseEventsLackItsEndIsClosedWithOneMadeFromItsRow() throws InterruptedException {
        bed.keep(RunBed.APP, "run-1", "ada", RunStatus.FAILED, Map.of(), 100);
        events("run-1", "{\"event\":\"workflow_started\"}", "{\"event\":\"node_started\"}");

        try (Following following = follow.follow(new FollowRunQuery(RunBed.APP, "run-1", 0))) {
            assertThat(toTheEnd(following)).containsExactly("1:{\"event\":\"workflow_started\"}",
                    "2:{\"event\":\"node_started\"}", "3:WorkflowFinished");
        }
    }

    @Test
    void aRunGoingOnElsewhereIsQuietUntilItsEventsAreKeptAndItEnds() throws InterruptedException {
        WorkflowRun running = bed.keep(RunBed.APP, "run-1", "ada", RunStatus.RUNNING, Map.of(), 100);
        events("run-1", "{\"event\":\"workflow_started\"}");

        try (Following following = follow.follow(new FollowRunQuery(RunBed.APP, "run-1", 0))) {
            assertThat(following.next(WAIT)).isEqualTo(new Next.Event(1, "{\"event\":\"workflow_started\"}"));
            assertThat(following.next(Duration.ofMillis(50))).isInstanceOf(Next.Quiet.class);
            events("run-1", FINISHED);
            bed.runs.finished(running.finish(RunStatus.SUCCEEDED, Map.of(), null, 1, 0, 1, 0, 101)).join();
            assertThat(toTheEnd(following)).containsExactly("2:" + FINISHED);
        }
    }

    /** The run has a listener, so its records are kept as it goes rather than held to its end. */
    @Test
    void aRunGoingOnHereIsToldLiveUntilItEnds() throws InterruptedException {
        RunUnderWay run = bed.service(0).start(new RunWorkflowCommand(RunBed.APP, RunBed.GATED, "ada", Map.of(),
                List.of()), event -> { });
        bed.awaitWaiting(1);

        try (Following following = follow.follow(new FollowRunQuery(RunBed.APP, run.runId(), 0))) {
            List<String> before = new ArrayList<>();
            for (Next next = following.next(Duration.ofMillis(300)); next instanceof Next.Event event;
                    next = following.next(Duration.ofMillis(300))) {
                before.add(event.data());
            }
            bed.gate.countDown();
            List<String> after = toTheEnd(following);

            assertThat(before).first().isEqualTo("WorkflowStarted");
            assertThat(before).doesNotContain("WorkflowFinished");
            assertThat(after).last().asString().endsWith(":WorkflowFinished");
            assertThat(after.get(0)).startsWith((before.size() + 1) + ":");
        }
    }

    @Test
    void anUnknownRunOrAnotherAppsIsNotFoundAndANegativeLastEventIsRefused() {
        bed.keep(RunBed.APP, "run-1", "ada", RunStatus.SUCCEEDED, Map.of(), 100);

        assertRefused(() -> follow.follow(new FollowRunQuery(RunBed.CHAT_APP, "run-1", 0)), ApiError.NOT_FOUND,
                "Workflow run not found.");
        assertRefused(() -> follow.follow(new FollowRunQuery(RunBed.APP, "run-2", 0)), ApiError.NOT_FOUND,
                "Workflow run not found.");
        assertRefused(() -> new FollowRunQuery(RunBed.APP, "run-1", -1), ApiError.INVALID_PARAM,
                "Last-Event-ID must be a whole number of 0 or more.");
    }

    /** A run nobody listens to is held in memory: a follower hears nothing until its records are kept at its end. */
    @Test
    void aRunNobodyListensToFollowedWhileItRunsIsToldWholeOnceItsRecordsAreKept() throws InterruptedException {
        RunUnderWay run = bed.service(0).start(new RunWorkflowCommand(RunBed.APP, RunBed.GATED, "ada", Map.of(),
                List.of()), RunObserver.NONE);
        bed.awaitWaiting(1);

        try (Following following = follow.follow(new FollowRunQuery(RunBed.APP, run.runId(), 0))) {
            assertThat(following.next(Duration.ofMillis(50))).isInstanceOf(Next.Quiet.class);
            bed.gate.countDown();

            assertThat(toTheEnd(following)).containsExactly("1:WorkflowStarted", "2:NodeStarted", "3:NodeFinished",
                    "4:NodeStarted", "5:TextChunk", "6:NodeFinished", "7:NodeStarted", "8:NodeFinished",
                    "9:WorkflowFinished");
        }
    }

    /** Its events were kept as references to its rows: the replay makes frames of them and adds no second end. */
    @Test
    void aRunThatEndedHereIsReplayedFromItsRowsWithItsOwnEndOnly() throws InterruptedException {
        RunUnderWay run = bed.service(0).start(new RunWorkflowCommand(RunBed.APP, null, "ada", Map.of("query", "hi"),
                List.of()), RunObserver.NONE);
        run.await();

        try (Following following = follow.follow(new FollowRunQuery(RunBed.APP, run.runId(), 0))) {
            assertThat(toTheEnd(following)).containsExactly("1:WorkflowStarted", "2:NodeStarted", "3:TextChunk",
                    "4:NodeFinished", "5:NodeStarted", "6:NodeFinished", "7:WorkflowFinished");
        }
    }

    @Test
    void aFollowerWhoHasEveryEventOfAnEndedRunIsToldNothingMoreButItsEnd() throws InterruptedException {
        bed.keep(RunBed.APP, "run-1", "ada", RunStatus.SUCCEEDED, Map.of(), 100);
        events("run-1", "{\"event\":\"workflow_started\"}", FINISHED);
        bed.keep(RunBed.APP, "run-2", "ada", RunStatus.FAILED, Map.of(), 100);
        events("run-2", "{\"event\":\"workflow_started\"}");

        try (Following done = follow.follow(new FollowRunQuery(RunBed.APP, "run-1", 2));
                Following beyond = follow.follow(new FollowRunQuery(RunBed.APP, "run-2", 9));
                Following unended = follow.follow(new FollowRunQuery(RunBed.APP, "run-2", 1))) {
            assertThat(toTheEnd(done)).isEmpty();
            assertThat(toTheEnd(beyond)).as("past the last event: told before").isEmpty();
            assertThat(toTheEnd(unended)).containsExactly("2:WorkflowFinished");
        }
    }
}
