package dev.hexaflow.application.triggers;

import static dev.hexaflow.application.triggers.TriggerBed.cron;
import static dev.hexaflow.application.triggers.TriggerBed.order;
import static dev.hexaflow.application.triggers.TriggerBed.webhook;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.adapters.persistence.memory.InMemoryEndUserRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryIdempotencyKeyRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryRunRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryUploadRepository;
import dev.hexaflow.application.EchoWorkflow;
import dev.hexaflow.application.NoWebhooks;
import dev.hexaflow.application.common.port.out.StorageHealth;
import dev.hexaflow.application.runs.port.out.RunMonitor;
import dev.hexaflow.application.runs.port.out.RunRepository.LogEntry;
import dev.hexaflow.application.runs.port.out.RunRepository.LogQuery;
import dev.hexaflow.application.runs.service.HeldRecords;
import dev.hexaflow.application.runs.service.RunFeeds;
import dev.hexaflow.application.runs.service.RunWorkflowService;
import dev.hexaflow.application.runs.service.TaskRegistry;
import dev.hexaflow.application.triggers.port.in.CallWebhookUseCase.WebhookAnswer;
import dev.hexaflow.domain.workflow.AppInfo;
import dev.hexaflow.domain.workflow.Edge;
import dev.hexaflow.domain.workflow.Graph;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Triggers starting real runs: the run service on the in-memory stores and the real engine, as the server wires it
 * behind {@code TriggerRuns}. A run started by a trigger begins at its node, sees what the trigger handed it, and is
 * logged with how it started (Dify's {@code triggered_from}).
 */
class TriggeredRunsTest {

    private final TriggerBed bed = new TriggerBed();
    private final InMemoryRunRepository runs = new InMemoryRunRepository();
    private final ExecutorService listeners = Executors.newCachedThreadPool();
    private final AtomicInteger ids = new AtomicInteger();

    @BeforeEach
    void runForReal() {
        bed.runs.runWith(new RunWorkflowService(bed.apps, bed.versions, new InMemoryEndUserRepository(),
                new InMemoryUploadRepository(), runs, bed.reader, EchoWorkflow.engine(), new TaskRegistry(), 0,
                bed.clock, () -> "real-" + ids.incrementAndGet(), StorageHealth.UNWATCHED, listeners,
                (event, runId, taskId) -> event.getClass().getSimpleName(), new RunFeeds(),
                new InMemoryIdempotencyKeyRepository(), new NoWebhooks(), new HeldRecords(), RunMonitor.NONE));
    }

    @AfterEach
    void stop() {
        listeners.shutdownNow();
    }

    /** The order webhook, waiting for its run, and an end that answers what the run saw of the call. */
    private static Workflow waitingOrder() {
        Node hook = webhook("hook", Map.of("async_mode", false, "timeout", 10));
        Node end = Node.of("end", NodeType.END, Map.of("type", "end", "title", "End", "outputs", List.of(
                output("item", "hook", "item"), output("count", "hook", "count"),
                output("shop", "hook", "X_Shop_Id"), output("priority", "hook", "priority"),
                Map.of("variable", "method", "value_selector", List.of("hook", "_webhook_raw", "method")))));
        return new Workflow(new AppInfo("Orders", AppInfo.WORKFLOW_MODE, "🪝", "emoji", "#FFF", "", false), "0.5.0",
                new Graph(List.of(hook, end), List.of(new Edge("e1", "hook", "end", Edge.DEFAULT_HANDLE))), null,
                List.of());
    }

    private static Map<String, Object> output(String name, String node, String variable) {
        return Map.of("variable", name, "value_selector", List.of(node, variable));
    }

    private List<LogEntry> logs(String app) {
        return runs.logs(new LogQuery(app, null, null, 1, 10, null, null, null)).items();
    }

    @Test
    void aWebhookThatWaitsAnswersTheRunAsItEndedWithWhatTheRunSawOfTheCall() {
        String app = bed.importApp("orders", waitingOrder());

        WebhookAnswer answer = bed.webhooks().call(bed.trigger(app, "hook").code(), order());

        assertThat(answer.waited()).isTrue();
        WorkflowRun ended = answer.ended();
        assertThat(ended).isNotNull();
        assertThat(ended.id()).isEqualTo(answer.runId());
        assertThat(ended.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(ended.outputs()).containsEntry("item", "apple").containsEntry("count", 2L)
                .containsEntry("shop", "s-1").containsEntry("priority", 2L).containsEntry("method", "POST");
        assertThat(logs(app)).singleElement().extracting(LogEntry::triggeredFrom).isEqualTo("webhook");
    }

    @Test
    void aScheduledRunStartsAtItsScheduleWithNoInputsAndIsLoggedAsScheduled() throws InterruptedException {
        String app = bed.importApp("ticker", TriggerBed.workflow(cron("sched", "*/5 * * * *", "UTC")));
        bed.clock.advance(Duration.ofMinutes(5));

        assertThat(bed.fireSchedules().fireDue()).isEqualTo(1);

        String runId = bed.triggers.ticks(bed.trigger(app, "sched").id(), 1).get(0).runId();
        WorkflowRun ended = awaitEnd(app, runId);
        assertThat(ended.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(ended.inputs().keySet()).as("the system variables alone")
                .allMatch(key -> key.startsWith("sys."));
        assertThat(ended.outputs()).as("the schedule's node answers the run's system variables")
                .containsEntry("at", ended.inputs().get("sys.timestamp"));
        assertThat(logs(app)).singleElement().extracting(LogEntry::triggeredFrom).isEqualTo("schedule");
    }

    private WorkflowRun awaitEnd(String app, String runId) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < until) {
            WorkflowRun run = runs.find(app, runId).orElse(null);
            if (run != null && run.status() != RunStatus.RUNNING) {
                return run;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("run " + runId + " did not end");
    }
}
