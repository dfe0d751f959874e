package dev.hexaflow.application.runs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.persistence.H2Database;
import dev.hexaflow.adapters.persistence.jdbi.JdbiAppRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiDeliveryRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiWebhookSettingsRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryIdempotencyKeyRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryUploadRepository;
import dev.hexaflow.application.EchoWorkflow;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.common.port.out.StorageHealth;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunObserver;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunUnderWay;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunWorkflowCommand;
import dev.hexaflow.application.runs.port.out.RunMonitor;
import dev.hexaflow.application.runs.port.out.RunRepository.LogQuery;
import dev.hexaflow.application.runs.service.RunWorkflowService;
import dev.hexaflow.application.webhooks.port.out.DeliveryRepository.DeliveryRecord;
import dev.hexaflow.application.webhooks.service.ManageWebhooksService;
import dev.hexaflow.application.webhooks.service.RunCallbacks;
import dev.hexaflow.application.webhooks.service.RunCompletionWebhooks;
import dev.hexaflow.domain.webhook.Delivery;
import dev.hexaflow.domain.webhook.DeliveryState;
import dev.hexaflow.domain.workflow.RunStatus;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A run's completion webhook, from the run service's side: the bed's apps and runs in memory, with the webhook
 * context's own side ({@link RunCompletionWebhooks} over {@link RunCallbacks}) on the real settings and delivery
 * repositories on H2 in memory, as adapters-persistence ships no in-memory ones.
 */
class RunWebhooksTest {

    private static final String HOOK = "https://hooks.example/runs";

    /** One database for the class, emptied of deliveries before each test: migrating one takes seconds. */
    private static H2Database database;
    private final RunBed bed = new RunBed();
    private final JdbiDeliveryRepository deliveries = new JdbiDeliveryRepository(database.jdbi());
    private final JdbiWebhookSettingsRepository settings = new JdbiWebhookSettingsRepository(database.jdbi());
    private final ManageWebhooksService webhooks = new ManageWebhooksService(new JdbiAppRepository(database.jdbi()),
            settings, length -> "s".repeat(length));
    private final AtomicInteger wakes = new AtomicInteger();
    private final AtomicInteger ids = new AtomicInteger();
    private final ExecutorService listeners = Executors.newCachedThreadPool();
    private final RunWorkflowService service = new RunWorkflowService(bed.apps, bed.versions, bed.endUsers,
            new InMemoryUploadRepository(), bed.runs, dsl -> EchoWorkflow.named("Echo"), EchoWorkflow.engine(),
            bed.tasks, 0, bed.clock, () -> "run-id-" + ids.incrementAndGet(), StorageHealth.UNWATCHED, listeners,
            (event, runId, taskId) -> event.getClass().getSimpleName(), bed.feeds,
            new InMemoryIdempotencyKeyRepository(), new RunCompletionWebhooks(new RunCallbacks(settings, deliveries,
                    bed.clock, () -> "delivery-" + ids.incrementAndGet(), wakes::incrementAndGet)), bed.holds, RunMonitor.NONE);

    @BeforeAll
    static void open() {
        database = H2Database.openInMemory("run-webhooks-" + UUID.randomUUID());
        JdbiAppRepository apps = new JdbiAppRepository(database.jdbi());
        // The deliveries' table names its app: the bed's apps are kept here too.
        RunBed bed = new RunBed();
        apps.add(bed.apps.find(RunBed.APP).orElseThrow());
        apps.add(bed.apps.find(RunBed.CHAT_APP).orElseThrow());
        bed.close();
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
        listeners.shutdownNow();
        bed.close();
    }

    @AfterAll
    static void close() {
        database.close();
    }

    private RunUnderWay run(String callbackUrl) {
        return service.start(new RunWorkflowCommand(RunBed.APP, null, "ada", Map.of("query", "hi"), List.of())
                .withCallbackUrl(callbackUrl), RunObserver.NONE);
    }

    private List<Delivery> kept() {
        return deliveries.list(RunBed.APP, 1, 100).items().stream().map(DeliveryRecord::delivery).toList();
    }

    /** Waits until the app's only delivery has left {@code state}: a run's end makes it due on another thread. */
    private Delivery awaitLeft(DeliveryState state) throws InterruptedException {
        long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (kept().get(0).state() == state && System.nanoTime() < until) {
            Thread.sleep(5);
        }
        return kept().get(0);
    }

    @Test
    void aRunNamingACallbackKeepsItsDeliveryWhichIsDueOnceTheRunHasEnded() throws InterruptedException {
        RunUnderWay under = run(HOOK);

        assertThat(under.await().status()).isEqualTo(RunStatus.SUCCEEDED);
        Delivery due = awaitLeft(DeliveryState.AWAITING_RUN);
        assertThat(due.state()).isEqualTo(DeliveryState.PENDING);
        assertThat(due.runId()).isEqualTo(under.runId());
        assertThat(due.url().value()).isEqualTo(HOOK);
        assertThat(due.nextAttemptAt()).isEqualTo(bed.clock.millis());
        // The deliverer is woken just after the delivery is made due.
        long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (wakes.get() == 0 && System.nanoTime() < until) {
            Thread.sleep(5);
        }
        assertThat(wakes).hasValue(1);
    }

    @Test
    void aRunNamingNoCallbackPostsToTheAppsDefault() throws InterruptedException {
        webhooks.setDefaultCallback(RunBed.APP, "https://default.example/hook");

        RunUnderWay under = run(null);

        under.await();
        assertThat(awaitLeft(DeliveryState.AWAITING_RUN).url().value()).isEqualTo("https://default.example/hook");
    }

    @Test
    void aCallbackTheRunNamesWinsOverTheAppsDefault() throws InterruptedException {
        webhooks.setDefaultCallback(RunBed.APP, "https://default.example/hook");

        run(HOOK).await();

        assertThat(awaitLeft(DeliveryState.AWAITING_RUN).url().value()).isEqualTo(HOOK);
    }

    @Test
    void aRunWithoutCallbackOfAnAppWithoutDefaultKeepsNoDeliveryAndWakesNoOne() {
        run(null).await();

        assertThat(kept()).isEmpty();
        assertThat(wakes).hasValue(0);
    }

    @Test
    void aCallbackThatIsNoHttpUrlIsRefusedBeforeTheRunStarts() {
        assertThatThrownBy(() -> run("ftp://hooks.example/runs")).isInstanceOfSatisfying(ApiException.class,
                e -> assertThat(e.error()).isEqualTo(ApiError.INVALID_PARAM));

        assertThat(kept()).isEmpty();
        assertThat(bed.runs.logs(new LogQuery(RunBed.APP, null, null, 1, 10, null, null, null)).total()).isZero();
    }

    @Test
    void aRunTheServiceRefusesBeforeItStartsKeepsNoDelivery() {
        RunWorkflowCommand unknownVersion = new RunWorkflowCommand(RunBed.APP, "ver-none", "ada", Map.of(),
                List.of()).withCallbackUrl(HOOK);
        RunWorkflowCommand chatApp = new RunWorkflowCommand(RunBed.CHAT_APP, null, "ada", Map.of(), List.of())
                .withCallbackUrl(HOOK);

        assertThatThrownBy(() -> service.start(unknownVersion, RunObserver.NONE)).isInstanceOf(ApiException.class);
        assertThatThrownBy(() -> service.start(chatApp, RunObserver.NONE)).isInstanceOfSatisfying(
                ApiException.class, e -> assertThat(e.error()).isEqualTo(ApiError.NOT_WORKFLOW_APP));
        assertThat(kept()).isEmpty();
        assertThat(deliveries.list(RunBed.CHAT_APP, 1, 10).items()).isEmpty();
    }

    @Test
    void eachRunKeepsADeliveryOfItsOwn() throws InterruptedException {
        RunUnderWay first = run(HOOK);
        RunUnderWay second = run(HOOK);
        first.await();
        second.await();

        assertThat(kept()).extracting(Delivery::runId).containsExactlyInAnyOrder(first.runId(), second.runId());
    }
}
