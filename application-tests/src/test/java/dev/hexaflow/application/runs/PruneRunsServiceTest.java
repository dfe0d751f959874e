package dev.hexaflow.application.runs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.application.runs.port.out.RunRepository.KeptEvent;
import dev.hexaflow.application.runs.port.out.RunRepository.LogQuery;
import dev.hexaflow.application.runs.service.PruneRunsService;
import dev.hexaflow.domain.app.RunRetention;
import dev.hexaflow.domain.workflow.ExecutionMetadata;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeExecution;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.RunStatus;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Letting ended runs go by age and by count, on the in-memory run store and the bed's movable clock. */
class PruneRunsServiceTest {

    private static final long DAY = Duration.ofDays(1).toSeconds();

    private final RunBed bed = new RunBed();
    private final long now = bed.clock.instant().getEpochSecond();

    @AfterEach
    void close() {
        bed.close();
    }

    private PruneRunsService prune(Duration maxAge, Integer keepPerApp) {
        return new PruneRunsService(bed.runs, new RunRetention(Optional.ofNullable(maxAge),
                keepPerApp == null ? OptionalInt.empty() : OptionalInt.of(keepPerApp)), bed.clock);
    }

    private List<String> kept(String appId) {
        return bed.runs.logs(new LogQuery(appId, null, null, 1, 100, null, null, null)).items().stream()
                .map(entry -> entry.run().id()).toList();
    }

    @Test
    void runsOlderThanTheMaximumAgeGoAndYoungerOnesStay() {
        bed.keep(RunBed.APP, "old", "ada", RunStatus.SUCCEEDED, Map.of(), now - 10 * DAY);
        bed.keep(RunBed.APP, "edge", "ada", RunStatus.FAILED, Map.of(), now - 7 * DAY + 60);
        bed.keep(RunBed.APP, "new", "ada", RunStatus.SUCCEEDED, Map.of(), now - DAY);

        int deleted = prune(Duration.ofDays(7), null).prune();

        assertThat(deleted).isEqualTo(1);
        assertThat(kept(RunBed.APP)).containsExactly("new", "edge");
    }

    @Test
    void asTheClockMovesOnTheSameRetentionLetsMoreRunsGo() {
        bed.keep(RunBed.APP, "a", "ada", RunStatus.SUCCEEDED, Map.of(), now - 5 * DAY);
        bed.keep(RunBed.APP, "b", "ada", RunStatus.SUCCEEDED, Map.of(), now - 2 * DAY);
        PruneRunsService service = prune(Duration.ofDays(7), null);

        assertThat(service.prune()).isZero();
        bed.clock.advance(Duration.ofDays(3));
        assertThat(service.prune()).isEqualTo(1);
        bed.clock.advance(Duration.ofDays(3));
        assertThat(service.prune()).isEqualTo(1);
        assertThat(kept(RunBed.APP)).isEmpty();
    }

    @Test
    void onlyTheNewestRunsOfEachAppAreKeptByCount() {
        for (int i = 1; i <= 4; i++) {
            bed.keep(RunBed.APP, "flow-" + i, "ada", RunStatus.SUCCEEDED, Map.of(), now - 100 + i);
        }
        bed.keep(RunBed.CHAT_APP, "chat-1", "ada", RunStatus.SUCCEEDED, Map.of(), now - 1000);

        int deleted = prune(null, 2).prune();

        assertThat(deleted).isEqualTo(2);
        assertThat(kept(RunBed.APP)).containsExactly("flow-4", "flow-3");
        assertThat(kept(RunBed.CHAT_APP)).containsExactly("chat-1");
    }

    @Test
    void aRunningRunIsNeverLetGoHoweverOld() {
        bed.keep(RunBed.APP, "running", "ada", RunStatus.RUNNING, Map.of(), now - 30 * DAY);
        bed.keep(RunBed.APP, "ended", "ada", RunStatus.STOPPED, Map.of(), now - 30 * DAY);

        int deleted = prune(Duration.ofDays(1), 1).prune();

        assertThat(deleted).isEqualTo(1);
        assertThat(kept(RunBed.APP)).containsExactly("running");
    }

    @Test
    void ageAndCountTogetherLetARunGoByWhicheverComesFirst() {
        bed.keep(RunBed.APP, "ancient", "ada", RunStatus.SUCCEEDED, Map.of(), now - 40 * DAY);
        bed.keep(RunBed.APP, "recent-1", "ada", RunStatus.SUCCEEDED, Map.of(), now - 3);
        bed.keep(RunBed.APP, "recent-2", "ada", RunStatus.SUCCEEDED, Map.of(), now - 2);
        bed.keep(RunBed.APP, "recent-3", "ada", RunStatus.SUCCEEDED, Map.of(), now - 1);

        int deleted = prune(Duration.ofDays(30), 2).prune();

        assertThat(deleted).isEqualTo(2);
        assertThat(kept(RunBed.APP)).containsExactly("recent-3", "recent-2");
    }

    @Test
    void aRetentionThatKeepsAllDeletesNothing() {
        bed.keep(RunBed.APP, "old", "ada", RunStatus.SUCCEEDED, Map.of(), 0);

        int deleted = new PruneRunsService(bed.runs, RunRetention.KEEP_ALL, bed.clock).prune();

        assertThat(deleted).isZero();
        assertThat(kept(RunBed.APP)).containsExactly("old");
    }

    @Test
    void aBacklogLargerThanOneBatchIsPrunedWholeInOneCall() {
        for (int i = 0; i < 450; i++) {
            bed.keep(RunBed.APP, "run-" + i, "ada", RunStatus.SUCCEEDED, Map.of(), now - 10 * DAY + i);
        }
        bed.keep(RunBed.APP, "fresh", "ada", RunStatus.SUCCEEDED, Map.of(), now);

        int deleted = prune(Duration.ofDays(1), null).prune();

        assertThat(deleted).isEqualTo(450);
        assertThat(kept(RunBed.APP)).containsExactly("fresh");
    }

    @Test
    void aPrunedRunGoesWithItsNodeExecutionsAndEvents() {
        bed.keep(RunBed.APP, "old", "ada", RunStatus.SUCCEEDED, Map.of(), now - 10 * DAY);
        bed.runs.saveNode("old", NodeExecution.started("exec-1", Node.of("n1", NodeType.CODE, Map.of("title",
                "Node")), 1, null, ExecutionMetadata.NONE, now - 10 * DAY)).join();
        bed.runs.event(new KeptEvent("old", 1, "{\"event\":\"workflow_started\"}")).join();

        prune(Duration.ofDays(7), null).prune();

        assertThat(bed.runs.locate("old")).isEmpty();
        assertThat(bed.runs.nodeExecutions("old")).isEmpty();
        assertThat(bed.runs.events("old", 0)).isEmpty();
    }

    /** Only runs created before the cutoff go: one created in the cutoff's very second stays. */
    @Test
    void aRunCreatedExactlyAtTheCutoffStaysAndOneASecondOlderGoes() {
        bed.keep(RunBed.APP, "at-cutoff", "ada", RunStatus.SUCCEEDED, Map.of(), now - 7 * DAY);
        bed.keep(RunBed.APP, "past-cutoff", "ada", RunStatus.SUCCEEDED, Map.of(), now - 7 * DAY - 1);

        int deleted = prune(Duration.ofDays(7), null).prune();

        assertThat(deleted).isEqualTo(1);
        assertThat(kept(RunBed.APP)).containsExactly("at-cutoff");
    }

    /** A running run counts among an app's newest: it keeps its place and an older ended run goes for it. */
    @Test
    void aRunningRunTakesOneOfTheAppsPlacesKeptByCount() {
        bed.keep(RunBed.APP, "ended", "ada", RunStatus.SUCCEEDED, Map.of(), now - 20);
        bed.keep(RunBed.APP, "running", "ada", RunStatus.RUNNING, Map.of(), now - 10);

        int deleted = prune(null, 1).prune();

        assertThat(deleted).isEqualTo(1);
        assertThat(kept(RunBed.APP)).containsExactly("running");
    }
}
