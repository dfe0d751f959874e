package dev.hexaflow.application.runs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunObserver;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunUnderWay;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunWorkflowCommand;
import dev.hexaflow.application.runs.service.HeldRecords;
import dev.hexaflow.application.runs.service.RunWorkflowService;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Which runs' records are held in memory and when they are kept, on runs of the real engine kept in flight by the
 * bed's gated code node: what a timer ({@link HeldRecords#keepOverdue}) or a shutdown ({@link HeldRecords#keepAll})
 * finds, and what the store shows after.
 */
class HeldRunsTest {

    private final RunBed bed = new RunBed();
    private final RunWorkflowService service = bed.service(0);

    @AfterEach
    void close() {
        bed.close();
    }

    private RunUnderWay gated(String user, RunObserver observer) {
        return service.start(new RunWorkflowCommand(RunBed.APP, RunBed.GATED, user, Map.of(), List.of()), observer);
    }

    @Test
    void aRunHeldPastTheHoldIsKeptByTheTimerAndShowsRunning() throws InterruptedException {
        RunUnderWay run = gated("ada", RunObserver.NONE);
        bed.awaitWaiting(1);
        Thread.sleep(HeldRecords.HOLD.toMillis() + 50);

        assertThat(bed.holds.keepOverdue()).isEqualTo(1);

        assertThat(bed.runs.find(RunBed.APP, run.runId()).orElseThrow().status()).isEqualTo(RunStatus.RUNNING);
        assertThat(bed.holds.size()).isZero();
        assertThat(bed.holds.keepOverdue()).as("already kept").isZero();
        bed.gate.countDown();
        assertThat(run.await().status()).isEqualTo(RunStatus.SUCCEEDED);
    }

    @Test
    void aRunKeptEarlyIsKeptOnAsItGoesUntilItsEnd() throws InterruptedException {
        RunUnderWay run = gated("ada", RunObserver.NONE);
        bed.awaitWaiting(1);
        bed.holds.keepAll();

        bed.gate.countDown();
        WorkflowRun ended = run.await();

        WorkflowRun kept = bed.runs.find(RunBed.APP, run.runId()).orElseThrow();
        assertThat(kept.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(kept.outputs()).isEqualTo(ended.outputs()).containsEntry("answer", "done");
        assertThat(bed.runs.nodeExecutions(run.runId())).extracting(n -> n.nodeId())
                .containsExactly("start", "code", "end");
    }

    @Test
    void aShutdownKeepsEveryHeldRunAtOnceHoweverYoung() throws InterruptedException {
        RunUnderWay first = gated("ada", RunObserver.NONE);
        RunUnderWay second = gated("bob", RunObserver.NONE);
        bed.awaitWaiting(2);

        assertThat(bed.holds.size()).isEqualTo(2);
        assertThat(bed.holds.keepAll()).isEqualTo(2);

        assertThat(bed.runs.find(RunBed.APP, first.runId())).isPresent();
        assertThat(bed.runs.find(RunBed.APP, second.runId())).isPresent();
        assertThat(bed.holds.keepAll()).isZero();
    }

    @Test
    void aRunSomeoneListensToIsNeverHeldButKeptAsItGoes() throws InterruptedException {
        List<Object> heard = new java.util.concurrent.CopyOnWriteArrayList<>();
        RunUnderWay run = gated("ada", heard::add);
        bed.awaitWaiting(1);

        assertThat(bed.holds.size()).isZero();
        assertThat(bed.holds.keepAll()).isZero();
        assertThat(bed.runs.find(RunBed.APP, run.runId()).orElseThrow().status()).isEqualTo(RunStatus.RUNNING);
        bed.gate.countDown();
        run.await();
        assertThat(heard).isNotEmpty();
    }

    @Test
    void aShortRunIsKeptWholeAtItsEndAndHoldsNothingAfter() {
        RunUnderWay run = service.start(new RunWorkflowCommand(RunBed.APP, null, "ada", Map.of("query", "hi"),
                List.of()), RunObserver.NONE);

        WorkflowRun ended = run.await();

        WorkflowRun kept = bed.runs.find(RunBed.APP, run.runId()).orElseThrow();
        assertThat(kept.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(kept.outputs()).isEqualTo(ended.outputs()).containsEntry("answer", "hi");
        assertThat(bed.holds.size()).isZero();
    }
}
