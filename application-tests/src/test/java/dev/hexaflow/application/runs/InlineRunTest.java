package dev.hexaflow.application.runs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunObserver;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunUnderWay;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunWorkflowCommand;
import dev.hexaflow.application.runs.port.out.RunMonitor;
import dev.hexaflow.application.runs.service.RunWorkflowService;
import dev.hexaflow.application.runs.service.StopTaskService;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A blocking run of a workflow that may run inline plays on the thread that asked for it, and is tracked, kept and
 * stopped as any run; a run someone listens to, or one not waited for, plays on the engine's threads. The
 * monitor's watcher, which hears each event on the thread that emits it, tells which thread that is.
 */
class InlineRunTest {

    private final RunBed bed = new RunBed();
    private final List<Thread> emitters = new CopyOnWriteArrayList<>();
    private final List<String> taskIds = new CopyOnWriteArrayList<>();
    /** What the watcher does as the endless loop's first node starts. */
    private Runnable atFirstNode = () -> { };
    private final RunWorkflowService service = bed.service(0, run -> {
        taskIds.add(run.taskId());
        AtomicBoolean first = new AtomicBoolean(true);
        return event -> {
            emitters.add(Thread.currentThread());
            if (event instanceof RunEvent.NodeStarted started && started.execution().nodeId().equals("add")
                    && first.getAndSet(false)) {
                atFirstNode.run();
            }
        };
    });

    @AfterEach
    void close() {
        bed.close();
    }

    private static RunWorkflowCommand echo(String query) {
        return new RunWorkflowCommand(RunBed.APP, null, "ada", Map.of("query", query), List.of());
    }

    @Test
    void aBlockingRunOfASequentialWorkflowPlaysOnTheCallersThreadAndIsKeptWhenItAnswers() {
        RunUnderWay run = service.startBlocking(echo("hello"));

        assertThat(run.done()).as("over, and kept, once the start answers").isDone();
        WorkflowRun ended = run.await();
        assertThat(ended.outputs()).isEqualTo(Map.of("answer", "hello"));
        assertThat(bed.runs.find(RunBed.APP, run.runId())).contains(ended);
        assertThat(emitters).isNotEmpty().containsOnly(Thread.currentThread());
    }

    @Test
    void aRunNotWaitedForOrListenedToPlaysOnTheEnginesThreads() {
        WorkflowRun unwaited = service.start(echo("one"), RunObserver.NONE).await();
        WorkflowRun heard = service.start(echo("two"), event -> { }).await();

        assertThat(unwaited.outputs()).isEqualTo(Map.of("answer", "one"));
        assertThat(heard.outputs()).isEqualTo(Map.of("answer", "two"));
        assertThat(emitters).isNotEmpty().doesNotContain(Thread.currentThread());
    }

    @Test
    void aStopByTaskIdFromAnotherThreadStopsABlockingRunPlayingOnItsCallersThread() {
        StopTaskService stop = new StopTaskService(bed.tasks, new RecordingSignals());
        atFirstNode = () -> {
            // A stop request for the task, made on a thread of its own while the run plays on the caller's.
            Thread request = new Thread(() -> stop.stop(RunBed.APP, taskIds.get(0), "ada"));
            request.start();
            try {
                request.join();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        };

        RunUnderWay run = service.startBlocking(new RunWorkflowCommand(RunBed.APP, RunBed.ENDLESS, "ada", Map.of(),
                List.of()));

        assertThat(run.taskId()).isEqualTo(taskIds.get(0));
        assertThat(run.await().status()).isEqualTo(RunStatus.STOPPED);
        assertThat(bed.runs.find(RunBed.APP, run.runId()).orElseThrow().status()).isEqualTo(RunStatus.STOPPED);
        assertThat(emitters).containsOnly(Thread.currentThread());
    }
}
