package dev.hexaflow.application.runs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.adapters.persistence.H2Database;
import dev.hexaflow.adapters.persistence.jdbi.JdbiAppRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiDeliveryRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiWebhookSettingsRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryUploadRepository;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunObserver;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunUnderWay;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunWorkflowCommand;
import dev.hexaflow.application.runs.service.AnswerFormService;
import dev.hexaflow.application.runs.service.RunWorkflowService;
import dev.hexaflow.application.webhooks.port.out.CallbackSender.Answer;
import dev.hexaflow.application.webhooks.port.out.DeliveryRepository.DeliveryRecord;
import dev.hexaflow.application.webhooks.service.DeliverCallbacksService;
import dev.hexaflow.application.webhooks.service.RunCallbacks;
import dev.hexaflow.application.webhooks.service.RunCompletionWebhooks;
import dev.hexaflow.domain.webhook.CallbackUrl;
import dev.hexaflow.domain.webhook.Delivery;
import dev.hexaflow.domain.webhook.DeliveryKind;
import dev.hexaflow.domain.webhook.DeliveryState;
import dev.hexaflow.domain.webhook.RetrySchedule;
import dev.hexaflow.domain.workflow.HumanInputForm;
import dev.hexaflow.domain.workflow.KeptForm;
import dev.hexaflow.domain.workflow.RunEvent;
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
    /** Runs whose webhooks are kept by the test alone. */
    private final RunWorkflowService service = bed.clockedService();
    private final AnswerFormService forms = new AnswerFormService(bed.runs.pauses(), new InMemoryUploadRepository(),
            bed.resumptions(), bed.clock);
    /** Runs that keep their webhooks through the webhook context, which hears of each pause and end. */
    private final RunCompletionWebhooks webhooks = new RunCompletionWebhooks(callbacks);
    private final RunWorkflowService hooked = bed.clockedService(webhooks, PausedRunWebhooksTest::frame);
    private final AnswerFormService hookedForms = new AnswerFormService(bed.runs.pauses(),
            new InMemoryUploadRepository(), bed.resumptions(webhooks, PausedRunWebhooksTest::frame), bed.clock);

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

    /** A pause's frame as the test's stream writes it: the run and the tokens of its forms; other events by name. */
    private static String frame(RunEvent event, String runId, String taskId) {
        if (event instanceof RunEvent.WorkflowPaused paused) {
            return "workflow_paused " + runId + " " + taskId + " " + paused.paused().forms().stream()
                    .map(HumanInputForm::formToken).toList();
        }
        return event.getClass().getSimpleName();
    }

    /** Delivers what is due until the receiver has {@code count} bodies (a pause's delivery is kept off the run). */
    private List<String> awaitPosted(int count) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (posted.size() < count && System.nanoTime() < until) {
            deliverer.deliverDue();
            Thread.sleep(5);
        }
        return List.copyOf(posted);
    }

    private static String pauseOf(WorkflowRun run, String taskId, KeptForm form) {
        return "workflow_paused " + run.id() + " " + taskId + " [" + form.form().formToken() + "]";
    }

    private static String endOf(WorkflowRun run) {
        return "{\"id\":\"" + run.id() + "\",\"status\":\"succeeded\"}";
    }

    private List<DeliveryKind> kindsOf(String runId) {
        return deliveries.list(RunBed.REVIEW_APP, 1, 100).items().stream().map(DeliveryRecord::delivery)
                .filter(delivery -> delivery.runId().equals(runId)).map(Delivery::kind).toList();
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

    @Test
    void aRunWithACallbackPostsItsPauseWithTheFormsTokenThenOnceAnsweredItsEndOnce() throws Exception {
        RunUnderWay under = hooked.start(new RunWorkflowCommand(RunBed.REVIEW_APP, null, "ada",
                Map.of("draft", "the plan"), List.of()).withCallbackUrl(HOOK.value()), RunObserver.NONE);
        WorkflowRun paused = under.await();
        KeptForm form = hookedForms.waitingOf(RunBed.REVIEW_APP, paused.id()).get(0);

        List<String> whilePaused = awaitPosted(1);
        Delivery completion = deliveries.completionOf(paused.id()).orElseThrow();
        hookedForms.answer(RunBed.REVIEW_APP, form.form().formToken(), "ada", "approve", Map.of("feedback", "go"));
        WorkflowRun ended = ended(paused.id());
        List<String> afterItsEnd = awaitPosted(2);
        int sweptLater = deliverer.sweep();
        int dueLater = deliverer.deliverDue();

        assertThat(paused.status()).isEqualTo(RunStatus.PAUSED);
        assertThat(whilePaused).containsExactly(pauseOf(paused, under.taskId(), form));
        assertThat(completion.state()).as("the end waits while the run is paused")
                .isEqualTo(DeliveryState.AWAITING_RUN);
        assertThat(afterItsEnd).containsExactly(pauseOf(paused, under.taskId(), form), endOf(ended));
        assertThat(sweptLater + dueLater).as("the end is sent once").isZero();
        assertThat(kindsOf(paused.id())).containsExactlyInAnyOrder(DeliveryKind.COMPLETION, DeliveryKind.PAUSED);
        assertThat(recordOf(completion).delivery().state()).isEqualTo(DeliveryState.DELIVERED);
    }

    @Test
    void aRunPausedTwicePostsEachPauseAsADeliveryOfItsOwnAndItsEndOnce() throws Exception {
        RunUnderWay under = hooked.start(new RunWorkflowCommand(RunBed.REVIEW_APP, RunBed.TWO_REVIEWS, "ada",
                Map.of("draft", "the plan"), List.of()).withCallbackUrl(HOOK.value()), RunObserver.NONE);
        WorkflowRun paused = under.await();
        KeptForm review = hookedForms.waitingOf(RunBed.REVIEW_APP, paused.id()).get(0);
        awaitPosted(1);

        hookedForms.answer(RunBed.REVIEW_APP, review.form().formToken(), "ada", "approve", Map.of("feedback", "go"));
        List<String> atTheSecondPause = awaitPosted(2);
        KeptForm check = hookedForms.waitingOf(RunBed.REVIEW_APP, paused.id()).get(0);
        hookedForms.answer(RunBed.REVIEW_APP, check.form().formToken(), "ada", "done", Map.of());
        WorkflowRun ended = ended(paused.id());
        List<String> afterItsEnd = awaitPosted(3);

        assertThat(check.form().nodeId()).isEqualTo("check");
        assertThat(atTheSecondPause).hasSize(2).last().isEqualTo(pauseOf(paused, under.taskId(), check));
        assertThat(afterItsEnd).containsExactly(pauseOf(paused, under.taskId(), review),
                pauseOf(paused, under.taskId(), check), endOf(ended));
        assertThat(kindsOf(paused.id())).containsExactlyInAnyOrder(DeliveryKind.COMPLETION, DeliveryKind.PAUSED,
                DeliveryKind.PAUSED);
    }
}
