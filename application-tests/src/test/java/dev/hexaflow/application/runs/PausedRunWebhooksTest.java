package dev.hexaflow.application.runs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.adapters.persistence.H2Database;
import dev.hexaflow.adapters.persistence.jdbi.JdbiAppRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiDeliveryRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiWebhookSettingsRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryUploadRepository;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunObserver;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunWorkflowCommand;
import dev.hexaflow.application.runs.service.AnswerFormService;
import dev.hexaflow.application.runs.service.RunWorkflowService;
import dev.hexaflow.application.webhooks.port.out.CallbackSender.Answer;
import dev.hexaflow.application.webhooks.port.out.DeliveryRepository.DeliveryRecord;
import dev.hexaflow.application.webhooks.service.DeliverCallbacksService;
import dev.hexaflow.application.webhooks.service.RunCallbacks;
import dev.hexaflow.domain.webhook.CallbackUrl;
import dev.hexaflow.domain.webhook.Delivery;
import dev.hexaflow.domain.webhook.DeliveryState;
import dev.hexaflow.domain.webhook.RetrySchedule;
import dev.hexaflow.domain.workflow.KeptForm;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The webhooks of a run that waits for a person: the bed's review app on the real engine and the in-memory run
 * store, its form answered through the use case, and the webhook context's side on the real delivery and settings
 * repositories (H2 in memory, as adapters-persistence ships no in-memory ones), posting to a receiver that keeps
 * each body.
 */
class PausedRunWebhooksTest {

    private static final CallbackUrl HOOK = new CallbackUrl("https://hooks.example/review");
    private static final RetrySchedule SCHEDULE = new RetrySchedule(List.of(Duration.ofSeconds(10)),
            Duration.ofMinutes(5), Duration.ofSeconds(10));

    /** One database for the class, emptied of deliveries before each test: migrating one takes seconds. */
    private static H2Database database;
    private final RunBed bed = new RunBed();
    private final JdbiDeliveryRepository deliveries = new JdbiDeliveryRepository(database.jdbi());
    private final JdbiWebhookSettingsRepository settings = new JdbiWebhookSettingsRepository(database.jdbi());
    private final AtomicInteger ids = new AtomicInteger();
    private final RunCallbacks callbacks = new RunCallbacks(settings, deliveries, bed.clock,
            () -> "delivery-" + ids.incrementAndGet(), () -> { });
    /** The bodies the receiver got, in order. */
    private final List<String> posted = new CopyOnWriteArrayList<>();
    private final DeliverCallbacksService deliverer = new DeliverCallbacksService(deliveries, settings, bed.runs,
            run -> ("{\"id\":\"" + run.id() + "\",\"status\":\"" + run.status().wireName() + "\"}")
                    .getBytes(StandardCharsets.UTF_8),
            (url, body, headers, timeout) -> {
                posted.add(new String(body, StandardCharsets.UTF_8));
                return Answer.status(200);
            }, length -> "s".repeat(length), (secret, message) -> "signed", SCHEDULE, bed.clock, Runnable::run, 4);
    private final RunWorkflowService service = bed.clockedService();
    private final AnswerFormService forms = new AnswerFormService(bed.runs.pauses(), new InMemoryUploadRepository(),
            bed.resumptions(), bed.clock);

    @BeforeAll
    static void open() {
        database = H2Database.openInMemory("paused-run-webhooks-" + UUID.randomUUID());
        // The webhook settings name their app: the bed's review app is kept here too.
        try (RunBed bed = new RunBed()) {
            new JdbiAppRepository(database.jdbi()).add(bed.apps.find(RunBed.REVIEW_APP).orElseThrow());
        }
    }

    @BeforeEach
    void empty() {
        database.jdbi().useHandle(handle -> {
            handle.execute("DELETE FROM webhook_delivery");
            handle.execute("DELETE FROM app_webhook");
        });
    }

    @AfterEach
    void closeBed() {
        bed.close();
    }

    @AfterAll
    static void close() {
        database.close();
    }

    private WorkflowRun pausedRun() {
        WorkflowRun run = service.start(new RunWorkflowCommand(RunBed.REVIEW_APP, null, "ada",
                Map.of("draft", "the plan"), List.of()), RunObserver.NONE).await();
        assertThat(run.status()).isEqualTo(RunStatus.PAUSED);
        return run;
    }

    private void approve(String runId) {
        KeptForm form = forms.waitingOf(RunBed.REVIEW_APP, runId).get(0);
        forms.answer(RunBed.REVIEW_APP, form.form().formToken(), "ada", "approve", Map.of("feedback", "go"));
    }

    private WorkflowRun ended(String runId) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < until) {
            WorkflowRun run = bed.runs.find(RunBed.REVIEW_APP, runId).orElseThrow();
            if (run.status().isTerminal()) {
                return run;
            }
            Thread.sleep(5);
        }
        throw new AssertionError("run " + runId + " did not end");
    }

    private DeliveryRecord recordOf(Delivery delivery) {
        return deliveries.list(delivery.appId(), 1, 100).items().stream()
                .filter(item -> item.delivery().id().equals(delivery.id())).findFirst().orElseThrow();
    }

    @Test
    void theSweepLeavesAPausedRunsCompletionWaitingAndMakesItDueOnceTheAnsweredRunHasEnded() throws Exception {
        WorkflowRun paused = pausedRun();
        Delivery completion = callbacks.register(RunBed.REVIEW_APP, paused.id(), HOOK);

        int whilePaused = deliverer.sweep();
        deliverer.deliverDue();
        approve(paused.id());
        assertThat(ended(paused.id()).status()).isEqualTo(RunStatus.SUCCEEDED);
        int afterItsEnd = deliverer.sweep();
        deliverer.deliverDue();

        assertThat(whilePaused).isZero();
        assertThat(afterItsEnd).isEqualTo(1);
        assertThat(recordOf(completion).delivery().state()).isEqualTo(DeliveryState.DELIVERED);
        assertThat(posted).containsExactly("{\"id\":\"" + paused.id() + "\",\"status\":\"succeeded\"}");
    }
}
