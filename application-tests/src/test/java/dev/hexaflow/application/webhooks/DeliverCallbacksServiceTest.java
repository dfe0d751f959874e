package dev.hexaflow.application.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.adapters.persistence.H2Database;
import dev.hexaflow.adapters.persistence.jdbi.JdbiAppRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiDeliveryRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiWebhookSettingsRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryRunRepository;
import dev.hexaflow.application.MovableClock;
import dev.hexaflow.application.runs.port.out.RunRepository.StartedRun;
import dev.hexaflow.application.webhooks.port.out.CallbackSender.Answer;
import dev.hexaflow.application.webhooks.port.out.DeliveryRepository.DeliveryRecord;
import dev.hexaflow.application.webhooks.port.out.DeliveryMonitor;
import dev.hexaflow.application.webhooks.service.DeliverCallbacksService;
import dev.hexaflow.application.webhooks.service.RunCallbacks;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.app.EndUser;
import dev.hexaflow.domain.app.SiteSettings;
import dev.hexaflow.domain.webhook.CallbackUrl;
import dev.hexaflow.domain.webhook.Delivery;
import dev.hexaflow.domain.webhook.DeliveryAttempt;
import dev.hexaflow.domain.webhook.DeliveryState;
import dev.hexaflow.domain.webhook.RetrySchedule;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Completion webhooks delivered on the real delivery and settings repositories (H2 in memory: adapters-persistence
 * ships no in-memory ones), runs in {@link InMemoryRunRepository}, a {@link FakeReceiver} for the receiver, and a
 * clock moved by hand through a schedule of 10 s, then 1 min, given up 5 min after the run's end.
 */
class DeliverCallbacksServiceTest {

    private static final String APP = "app-1";
    private static final CallbackUrl URL = new CallbackUrl("https://hooks.example/runs");
    private static final RetrySchedule SCHEDULE = new RetrySchedule(List.of(Duration.ofSeconds(10),
            Duration.ofMinutes(1)), Duration.ofMinutes(5), Duration.ofSeconds(10));

    /** One database for the class, emptied of deliveries before each test: migrating one takes seconds. */
    private static H2Database database;
    private final JdbiDeliveryRepository deliveries = new JdbiDeliveryRepository(database.jdbi());
    private final JdbiWebhookSettingsRepository settings = new JdbiWebhookSettingsRepository(database.jdbi());
    private final InMemoryRunRepository runs = new InMemoryRunRepository();
    private final MovableClock clock = new MovableClock(Instant.parse("2026-03-01T10:00:00Z"));
    private final FakeReceiver receiver = new FakeReceiver();
    private final AtomicInteger secretsDrawn = new AtomicInteger();
    private final AtomicInteger wakes = new AtomicInteger();
    private final AtomicInteger ids = new AtomicInteger();
    /** What the deliverer told its monitor of each attempt, in order. */
    private final List<DeliveryMonitor.Outcome> heard = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final RunCallbacks callbacks = new RunCallbacks(settings, deliveries, clock,
            () -> "delivery-" + ids.incrementAndGet(), wakes::incrementAndGet);
    private final DeliverCallbacksService deliver = deliverer(Runnable::run, 4);

    @BeforeAll
    static void open() {
        database = H2Database.openInMemory("webhooks-" + UUID.randomUUID());
        new JdbiAppRepository(database.jdbi()).add(new App(APP, "App", "", "workflow", "emoji", "🤖", "#FFF",
                List.of(), new SiteSettings("App", "emoji", "🤖", "#FFF", null, "", "", "", "", "en-US", true, false),
                "sitecode1", true, 1));
    }

    @BeforeEach
    void empty() {
        database.jdbi().useHandle(handle -> {
            handle.execute("DELETE FROM webhook_delivery");
            handle.execute("DELETE FROM app_webhook");
        });
    }

    @AfterAll
    static void close() {
        database.close();
    }

    private DeliverCallbacksService deliverer(Executor sends, int senders) {
        return new DeliverCallbacksService(deliveries, settings, runs,
                run -> ("{\"id\":\"" + run.id() + "\",\"status\":\"" + run.status() + "\"}")
                        .getBytes(StandardCharsets.UTF_8),
                receiver, length -> "s" + secretsDrawn.incrementAndGet() + "x".repeat(length - 2),
                (secret, message) -> secret.substring(0, 2) + "|" + new String(message, StandardCharsets.UTF_8),
                SCHEDULE, clock, sends, senders, heard::add);
    }

    /** A run kept as started, and ended unless {@code running}. */
    private void run(String runId, boolean running) {
        long now = clock.instant().getEpochSecond();
        WorkflowRun started = WorkflowRun.started(runId, "wf-1", Map.of(), now);
        runs.started(new StartedRun(started, APP, "task-" + runId, new EndUser("eu-1", APP, "ada", now), "v1",
                "log-" + runId)).join();
        if (!running) {
            runs.finished(started.finish(RunStatus.SUCCEEDED, Map.of("answer", "hi"), null, 0.1, 0, 2, 0, now))
                    .join();
        }
    }

    /** A delivery registered as its run started, made due as the run ended. */
    private Delivery dueFor(String runId) {
        run(runId, false);
        Delivery delivery = callbacks.register(APP, runId, URL);
        callbacks.runEnded(delivery);
        return delivery;
    }

    private DeliveryRecord recordOf(Delivery delivery) {
        return deliveries.list(APP, 1, 100).items().stream()
                .filter(item -> item.delivery().id().equals(delivery.id())).findFirst().orElseThrow();
    }

    private void pass(Duration time) {
        clock.advance(time);
    }

    @Test
    void aDueDeliveryIsPostedOnceSignedUnderTheAppsSecretAndKeptDelivered() {
        Delivery delivery = dueFor("run-1");

        int claimed = deliver.deliverDue();

        assertThat(wakes).hasValue(1);
        assertThat(claimed).isEqualTo(1);
        assertThat(deliver.deliverDue()).isZero();
        FakeReceiver.Post post = receiver.posts.get(0);
        String timestamp = String.valueOf(clock.instant().getEpochSecond());
        String secret = settings.find(APP).secret();
        assertThat(receiver.posts).hasSize(1);
        assertThat(post.body()).isEqualTo("{\"id\":\"run-1\",\"status\":\"SUCCEEDED\"}");
        assertThat(post.timeout()).isEqualTo(SCHEDULE.timeout());
        assertThat(post.headers()).containsEntry("Content-Type", "application/json")
                .containsEntry(DeliverCallbacksService.TIMESTAMP_HEADER, timestamp)
                .containsEntry(DeliverCallbacksService.DELIVERY_HEADER, delivery.id())
                .containsEntry(DeliverCallbacksService.SIGNATURE_HEADER, "sha256=" + secret.substring(0, 2) + "|"
                        + timestamp + "." + post.body());
        assertThat(secret).hasSize(DeliverCallbacksService.SECRET_LENGTH);
        DeliveryRecord kept = recordOf(delivery);
        assertThat(kept.delivery().state()).isEqualTo(DeliveryState.DELIVERED);
        assertThat(kept.attempts()).singleElement().satisfies(attempt -> {
            assertThat(attempt.number()).isEqualTo(1);
            assertThat(attempt.statusCode()).isEqualTo(200);
            assertThat(attempt.error()).isNull();
        });
    }

    @Test
    void theAppsSecretIsDrawnOnceAndKeptForItsLaterDeliveries() {
        dueFor("run-1");
        deliver.deliverDue();
        dueFor("run-2");
        deliver.deliverDue();

        assertThat(secretsDrawn).hasValue(1);
        assertThat(receiver.posts).extracting(post -> post.headers().get(DeliverCallbacksService.SIGNATURE_HEADER))
                .allSatisfy(signature -> assertThat(signature).startsWith("sha256=s1|"));
    }

    @Test
    void aFailedAttemptIsTriedAgainAfterTheSchedulesWaitAndEveryAttemptIsKept() {
        receiver.answers(Answer.status(500), Answer.failed("connection refused"), Answer.status(204));
        Delivery delivery = dueFor("run-1");

        deliver.deliverDue();
        Delivery afterFirst = recordOf(delivery).delivery();
        int tooSoon = deliver.deliverDue();
        pass(Duration.ofSeconds(10));
        deliver.deliverDue();
        pass(Duration.ofSeconds(59));
        int stillTooSoon = deliver.deliverDue();
        pass(Duration.ofSeconds(1));
        deliver.deliverDue();

        assertThat(afterFirst.state()).isEqualTo(DeliveryState.PENDING);
        assertThat(afterFirst.lastStatus()).isEqualTo(500);
        assertThat(afterFirst.lastError()).isEqualTo("The receiver answered 500, not 2xx.");
        assertThat(afterFirst.nextAttemptAt()).isEqualTo(delivery.createdAt() + 10_000);
        assertThat(tooSoon).isZero();
        assertThat(stillTooSoon).isZero();
        DeliveryRecord kept = recordOf(delivery);
        assertThat(kept.delivery().state()).isEqualTo(DeliveryState.DELIVERED);
        assertThat(kept.attempts()).extracting(DeliveryAttempt::number).containsExactly(1, 2, 3);
        assertThat(kept.attempts()).extracting(DeliveryAttempt::statusCode).containsExactly(500, null, 204);
        assertThat(kept.attempts()).extracting(DeliveryAttempt::error)
                .containsExactly("The receiver answered 500, not 2xx.", "connection refused", null);
        // A receiver that got it twice can tell: each attempt carries the delivery's id.
        assertThat(receiver.posts).extracting(post -> post.headers().get(DeliverCallbacksService.DELIVERY_HEADER))
                .containsOnly(delivery.id()).hasSize(3);
        assertThat(heard).containsExactly(DeliveryMonitor.Outcome.FAILED_ATTEMPT,
                DeliveryMonitor.Outcome.FAILED_ATTEMPT, DeliveryMonitor.Outcome.DELIVERED);
    }

    @Test
    void theScheduleGivesUpOnceItsTimeSinceTheRunsEndHasPassed() {
        receiver.alwaysAnswers(Answer.status(503));
        Delivery delivery = dueFor("run-1");

        for (int step = 0; step < 60; step++) {
            deliver.deliverDue();
            pass(Duration.ofSeconds(10));
        }

        // Attempts at 0, 10, 70, 130, 190 and 250 s; the next would be at 310 s, past the 300 s given.
        DeliveryRecord kept = recordOf(delivery);
        assertThat(kept.delivery().state()).isEqualTo(DeliveryState.FAILED);
        assertThat(kept.attempts()).extracting(DeliveryAttempt::attemptedAt).containsExactly(
                at(delivery, 0), at(delivery, 10), at(delivery, 70), at(delivery, 130), at(delivery, 190),
                at(delivery, 250));
        assertThat(receiver.posts).hasSize(6);
        assertThat(heard).hasSize(6).endsWith(DeliveryMonitor.Outcome.GIVEN_UP)
                .startsWith(java.util.Collections.nCopies(5, DeliveryMonitor.Outcome.FAILED_ATTEMPT)
                        .toArray(DeliveryMonitor.Outcome[]::new));
    }

    private static long at(Delivery delivery, long seconds) {
        return delivery.createdAt() + seconds * 1000;
    }

    @Test
    void anAddressTheOutboundPolicyRefusesFailsAtOnceWithoutRetries() {
        receiver.answers(Answer.refusedBecause("The address 127.0.0.1 is not allowed."));
        Delivery delivery = dueFor("run-1");

        deliver.deliverDue();
        pass(Duration.ofMinutes(2));
        deliver.deliverDue();

        DeliveryRecord kept = recordOf(delivery);
        assertThat(kept.delivery().state()).isEqualTo(DeliveryState.FAILED);
        assertThat(kept.delivery().lastError()).isEqualTo("The address 127.0.0.1 is not allowed.");
        assertThat(kept.attempts()).hasSize(1);
        assertThat(receiver.posts).hasSize(1);
    }

    @Test
    void aDeliveryWhoseRunIsNoLongerKeptIsGivenUpWithoutAPost() {
        Delivery delivery = callbacks.register(APP, "run-pruned", URL);
        callbacks.runEnded(delivery);

        assertThat(deliver.deliverDue()).isEqualTo(1);

        DeliveryRecord kept = recordOf(delivery);
        assertThat(receiver.posts).isEmpty();
        assertThat(kept.delivery().state()).isEqualTo(DeliveryState.FAILED);
        assertThat(kept.delivery().lastError()).startsWith("The run is no longer kept (pruned)");
        assertThat(kept.attempts()).isEmpty();
        assertThat(heard).containsExactly(DeliveryMonitor.Outcome.GIVEN_UP);
    }

    @Test
    void theSweepMakesDueWhatEndedUnheardLeavesARunningRunAndGivesUpARunNeverKept() {
        run("run-ended", false);
        run("run-going", true);
        Delivery ended = callbacks.register(APP, "run-ended", URL);
        Delivery going = callbacks.register(APP, "run-going", URL);
        Delivery never = callbacks.register(APP, "run-never", URL);

        int first = deliver.sweep();
        pass(Duration.ofSeconds(61));
        int second = deliver.sweep();
        deliver.deliverDue();

        assertThat(first).isEqualTo(1);
        assertThat(second).isEqualTo(1);
        assertThat(recordOf(ended).delivery().state()).isEqualTo(DeliveryState.DELIVERED);
        assertThat(recordOf(going).delivery().state()).isEqualTo(DeliveryState.AWAITING_RUN);
        assertThat(recordOf(never).delivery().state()).isEqualTo(DeliveryState.FAILED);
        assertThat(recordOf(never).delivery().lastError()).isEqualTo("The run was never kept: it did not start.");
        assertThat(receiver.posts).extracting(FakeReceiver.Post::body)
                .containsExactly("{\"id\":\"run-ended\",\"status\":\"SUCCEEDED\"}");
    }

    @Test
    void noMoreIsClaimedThanThereAreFreeSendersAndAnAppHasHalfOfThem() {
        List<Runnable> queued = new ArrayList<>();
        DeliverCallbacksService twoSenders = deliverer(queued::add, 2);
        dueFor("run-1");
        pass(Duration.ofSeconds(1));
        dueFor("run-2");

        // Two senders, so one app may hold one: the second delivery waits for the first's sender.
        int first = twoSenders.deliverDue();
        int whileBusy = twoSenders.deliverDue();
        queued.remove(0).run();
        int afterwards = twoSenders.deliverDue();
        queued.remove(0).run();

        assertThat(first).isEqualTo(1);
        assertThat(whileBusy).isZero();
        assertThat(afterwards).isEqualTo(1);
        assertThat(receiver.posts).extracting(FakeReceiver.Post::body).containsExactly(
                "{\"id\":\"run-1\",\"status\":\"SUCCEEDED\"}", "{\"id\":\"run-2\",\"status\":\"SUCCEEDED\"}");
    }
}
