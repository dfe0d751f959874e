package dev.hexaflow.application.webhooks;

import dev.hexaflow.adapters.persistence.H2Database;
import dev.hexaflow.adapters.persistence.jdbi.JdbiAppRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiDeliveryRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiWebhookSettingsRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryRunRepository;
import dev.hexaflow.application.MovableClock;
import dev.hexaflow.application.runs.port.out.RunRepository.StartedRun;
import dev.hexaflow.application.webhooks.port.out.DeliveryMonitor;
import dev.hexaflow.application.webhooks.port.out.DeliveryRepository;
import dev.hexaflow.application.webhooks.port.out.DeliveryRepository.DeliveryRecord;
import dev.hexaflow.application.webhooks.service.DeliverCallbacksService;
import dev.hexaflow.application.webhooks.service.RunCallbacks;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.app.EndUser;
import dev.hexaflow.domain.app.SiteSettings;
import dev.hexaflow.domain.webhook.CallbackUrl;
import dev.hexaflow.domain.webhook.Delivery;
import dev.hexaflow.domain.webhook.RetrySchedule;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The webhook use cases' surroundings: the real delivery and settings repositories on an H2 database the test
 * class opens once (adapters-persistence ships no in-memory ones), runs in memory, a {@link FakeReceiver}, and a
 * clock moved by hand through a schedule of 10 s, then 1 min, given up 5 min after the run's end.
 */
final class WebhookBed {

    static final String APP = "app-1";
    static final String OTHER = "app-2";
    static final CallbackUrl URL = new CallbackUrl("https://hooks.example/runs");
    static final RetrySchedule SCHEDULE = new RetrySchedule(List.of(Duration.ofSeconds(10),
            Duration.ofMinutes(1)), Duration.ofMinutes(5), Duration.ofSeconds(10));

    final H2Database database;
    final JdbiAppRepository apps;
    final JdbiDeliveryRepository deliveries;
    final JdbiWebhookSettingsRepository settings;
    final InMemoryRunRepository runs = new InMemoryRunRepository();
    final MovableClock clock = new MovableClock(Instant.parse("2026-03-01T10:00:00Z"));
    final FakeReceiver receiver = new FakeReceiver();
    final AtomicInteger ids = new AtomicInteger();
    final AtomicInteger secretsDrawn = new AtomicInteger();
    final AtomicInteger wakes = new AtomicInteger();
    final RunCallbacks callbacks;

    /** A bed on the class's database, emptied of deliveries and settings. */
    WebhookBed(H2Database database) {
        this.database = database;
        apps = new JdbiAppRepository(database.jdbi());
        deliveries = new JdbiDeliveryRepository(database.jdbi());
        settings = new JdbiWebhookSettingsRepository(database.jdbi());
        callbacks = new RunCallbacks(settings, deliveries, clock, () -> "delivery-" + ids.incrementAndGet(),
                wakes::incrementAndGet);
        database.jdbi().useHandle(handle -> {
            handle.execute("DELETE FROM webhook_delivery");
            handle.execute("DELETE FROM app_webhook");
        });
    }

    /** A new in-memory database holding the apps {@link #APP} and {@link #OTHER}; migrating one takes seconds. */
    static H2Database open(String name) {
        H2Database database = H2Database.openInMemory(name + "-" + UUID.randomUUID());
        JdbiAppRepository apps = new JdbiAppRepository(database.jdbi());
        for (String id : List.of(APP, OTHER)) {
            apps.add(new App(id, "App", "", "workflow", "emoji", "🤖", "#FFF", List.of(), new SiteSettings("App",
                    "emoji", "🤖", "#FFF", null, "", "", "", "", "en-US", true, false), "code" + id.replace("-", ""),
                    true, 1));
        }
        return database;
    }

    /** Sends on the test's thread with four senders, posting {@code {"id":...,"status":...}} of the run. */
    DeliverCallbacksService deliverer() {
        return deliverer(Runnable::run, 4, DeliveryMonitor.NONE);
    }

    DeliverCallbacksService deliverer(Executor sends, int senders, DeliveryMonitor monitor) {
        return deliverer(deliveries, sends, senders, monitor);
    }

    /** A deliverer on the given repository: a test may put one in front of the real one. */
    DeliverCallbacksService deliverer(DeliveryRepository repository, Executor sends, int senders,
            DeliveryMonitor monitor) {
        return new DeliverCallbacksService(repository, settings, runs,
                run -> ("{\"id\":\"" + run.id() + "\",\"status\":\"" + run.status() + "\"}")
                        .getBytes(StandardCharsets.UTF_8),
                receiver, length -> "s" + secretsDrawn.incrementAndGet() + "x".repeat(length - 2),
                (secret, message) -> secret.substring(0, 2) + "|" + new String(message, StandardCharsets.UTF_8),
                SCHEDULE, clock, sends, senders, monitor);
    }

    /** A run of {@code appId} kept as started, and ended unless {@code running}. */
    void run(String appId, String runId, boolean running) {
        long now = clock.instant().getEpochSecond();
        WorkflowRun started = WorkflowRun.started(runId, "wf-1", Map.of(), now);
        runs.started(new StartedRun(started, appId, "task-" + runId, new EndUser("eu-1", appId, "ada", now), "v1",
                "log-" + runId)).join();
        if (!running) {
            runs.finished(started.finish(RunStatus.SUCCEEDED, Map.of("answer", "hi"), null, 0.1, 0, 2, 0, now))
                    .join();
        }
    }

    /** A delivery of {@link #APP} registered as its run started, made due as the run ended. */
    Delivery dueFor(String runId) {
        return dueFor(APP, runId, URL);
    }

    Delivery dueFor(String appId, String runId, CallbackUrl url) {
        run(appId, runId, false);
        Delivery delivery = callbacks.register(appId, runId, url);
        callbacks.runEnded(delivery);
        return delivery;
    }

    DeliveryRecord recordOf(Delivery delivery) {
        return deliveries.list(delivery.appId(), 1, 100).items().stream()
                .filter(item -> item.delivery().id().equals(delivery.id())).findFirst().orElseThrow();
    }

    void pass(Duration time) {
        clock.advance(time);
    }
}
