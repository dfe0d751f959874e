package dev.hexaflow.adapters.persistence;

import static dev.hexaflow.adapters.persistence.WorkflowFixtures.APP;
import static dev.hexaflow.adapters.persistence.WorkflowFixtures.OTHER_APP;
import static dev.hexaflow.adapters.persistence.WorkflowFixtures.app;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.hexaflow.adapters.persistence.jdbi.JdbiAppRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiDeliveryRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiWebhookSettingsRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryRunRepository;
import dev.hexaflow.application.runs.port.out.RunRepository.StartedRun;
import dev.hexaflow.application.webhooks.port.out.CallbackSender;
import dev.hexaflow.application.webhooks.service.DeliverCallbacksService;
import dev.hexaflow.domain.app.EndUser;
import dev.hexaflow.domain.webhook.CallbackUrl;
import dev.hexaflow.domain.webhook.Delivery;
import dev.hexaflow.domain.webhook.DeliveryState;
import dev.hexaflow.domain.webhook.RetrySchedule;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The deliverer on a real H2 with a clock and a sender pool the test holds: a delivery claimed again after its
 * claim ran out is posted once however both sends run; no more deliveries are claimed than there are free senders,
 * an app gets at most half of them and a receiver an eighth; a send that throws frees its sender; the sweep finds an
 * ended run behind any number of runs that go on.
 */
class DeliverCallbacksOnH2Test {

    private static final CallbackUrl URL = new CallbackUrl("https://hooks.example.com/run");
    /** A 10 s timeout: a claim lasts 3 x 10 s + 30 s = 60 s. */
    private static final RetrySchedule SCHEDULE = new RetrySchedule(List.of(Duration.ofSeconds(10)),
            Duration.ofHours(24), Duration.ofSeconds(10));
    private static final long T = 1_700_000_000_000L;

    private final H2Database database = H2Database.openInMemory("deliverer-" + UUID.randomUUID());
    private final JdbiDeliveryRepository deliveries = new JdbiDeliveryRepository(database.jdbi());
    private final InMemoryRunRepository runs = new InMemoryRunRepository();
    private final SettableClock clock = new SettableClock(T);
    private final List<Runnable> queued = new ArrayList<>();
    private final List<String> posted = new CopyOnWriteArrayList<>();
    private CallbackSender sender = (url, body, headers, timeout) -> {
        posted.add(headers.get(DeliverCallbacksService.DELIVERY_HEADER));
        return CallbackSender.Answer.status(200);
    };

    @BeforeEach
    void apps() {
        JdbiAppRepository apps = new JdbiAppRepository(database.jdbi());
        apps.add(app(APP, "code1", 10));
        apps.add(app(OTHER_APP, "code2", 20));
    }

    @AfterEach
    void close() {
        database.close();
    }

    private DeliverCallbacksService deliverer(int senders) {
        return new DeliverCallbacksService(deliveries, new JdbiWebhookSettingsRepository(database.jdbi()), runs,
                run -> ("{\"id\":\"" + run.id() + "\"}").getBytes(StandardCharsets.UTF_8),
                (url, body, headers, timeout) -> sender.post(url, body, headers, timeout), length -> "s".repeat(length),
                (secret, message) -> "signed", SCHEDULE, clock, queued::add, senders);
    }

    /** A run that ended, and its delivery due now, to a receiver of its own. */
    private void dueDelivery(String id, String appId) {
        dueDelivery(id, appId, new CallbackUrl("https://" + id + ".hooks.example.com/run"));
    }

    private void dueDelivery(String id, String appId, CallbackUrl url) {
        WorkflowRun run = ranAndEnded("run-" + id, appId);
        Delivery delivery = Delivery.awaiting(id, appId, run.id(), url, clock.millis());
        deliveries.add(delivery);
        deliveries.move(delivery.due(clock.millis()), DeliveryState.AWAITING_RUN, null);
    }

    private WorkflowRun started(String runId, String appId) {
        WorkflowRun run = WorkflowRun.started(runId, "wf-1", Map.of(), clock.millis());
        runs.started(new StartedRun(run, appId, "task-" + runId, new EndUser("user-1", appId, "ada", 1),
                "v-" + runId, "log-" + runId)).join();
        return run;
    }

    private WorkflowRun ranAndEnded(String runId, String appId) {
        WorkflowRun ended = started(runId, appId).finish(RunStatus.SUCCEEDED, Map.of(), null, 0.1, 0, 1, 0,
                clock.millis());
        runs.finished(ended).join();
        return ended;
    }

    private void runQueuedSends() {
        List<Runnable> now = new ArrayList<>(queued);
        queued.clear();
        now.forEach(Runnable::run);
    }

    private Delivery stored(String id) {
        return deliveries.list(APP, 1, 100).items().stream().map(r -> r.delivery()).filter(d -> d.id().equals(id))
                .findFirst().orElseThrow();
    }

    @Test
    void aDeliveryClaimedAgainAfterItsClaimRanOutBeforeItsSendStartedIsPostedOnce() {
        DeliverCallbacksService deliverer = deliverer(16);
        dueDelivery("d1", APP);

        assertThat(deliverer.deliverDue()).isEqualTo(1);
        clock.set(T + 61_000);
        assertThat(deliverer.deliverDue()).as("its claim ran out while its send waited").isEqualTo(1);
        runQueuedSends();

        assertThat(posted).containsExactly("d1");
        assertThat(deliveries.list(APP, 1, 10).items().get(0).attempts()).hasSize(1);
        assertThat(stored("d1").state()).isEqualTo(DeliveryState.DELIVERED);
    }

    @Test
    void noMoreDeliveriesAreClaimedThanThereAreFreeSendersAndOneAppHasAtMostHalfOfThem() {
        DeliverCallbacksService deliverer = deliverer(4);
        for (int i = 0; i < 6; i++) {
            dueDelivery("a" + i, APP);
        }
        dueDelivery("b0", OTHER_APP);

        assertThat(deliverer.deliverDue()).as("two of APP's, then OTHER_APP's").isEqualTo(3);
        assertThat(deliverer.deliverDue()).as("APP already has half the senders").isZero();
        runQueuedSends();
        assertThat(posted).containsExactlyInAnyOrder("a0", "a1", "b0");
        assertThat(deliverer.deliverDue()).as("all four free again, two for APP").isEqualTo(2);
    }

    @Test
    void aReceiverHasAtMostAnEighthOfTheSendersWhateverItsApp() {
        DeliverCallbacksService deliverer = deliverer(16);
        for (int i = 0; i < 4; i++) {
            dueDelivery("slow" + i, i % 2 == 0 ? APP : OTHER_APP, URL);
        }
        dueDelivery("own", APP);

        assertThat(deliverer.deliverDue()).as("two to the one receiver, then the other's").isEqualTo(3);
        assertThat(deliverer.deliverDue()).as("the receiver already has an eighth of the senders").isZero();
        runQueuedSends();
        assertThat(posted).containsExactlyInAnyOrder("slow0", "slow1", "own");
        assertThat(deliverer.deliverDue()).as("its two senders free again").isEqualTo(2);
    }

    @Test
    void aSendThatThrowsIsCaughtAndFreesItsSender() {
        DeliverCallbacksService deliverer = deliverer(1);
        dueDelivery("d1", APP);
        dueDelivery("d2", APP);
        sender = (url, body, headers, timeout) -> {
            throw new IllegalStateException("a broken sender");
        };
        assertThat(deliverer.deliverDue()).isEqualTo(1);
        assertThat(deliverer.deliverDue()).as("its one sender is busy").isZero();

        assertThatCode(this::runQueuedSends).doesNotThrowAnyException();

        assertThat(deliverer.deliverDue()).as("the sender is free again").isEqualTo(1);
    }

    @Test
    void theSweepFindsARunThatEndedBehindMoreRunsThatGoOnThanItReadsAtOnce() {
        DeliverCallbacksService deliverer = deliverer(4);
        for (int i = 0; i < 300; i++) {
            WorkflowRun running = started("long-" + i, APP);
            deliveries.add(Delivery.awaiting("w" + i, APP, running.id(), URL, clock.millis()));
        }
        clock.set(T + 1);
        WorkflowRun ended = ranAndEnded("short", APP);
        deliveries.add(Delivery.awaiting("ended", APP, ended.id(), URL, clock.millis()));

        assertThat(deliverer.sweep()).isEqualTo(1);

        assertThat(stored("ended").state()).isEqualTo(DeliveryState.PENDING);
        assertThat(deliveries.awaitingRun(null, 1000)).hasSize(300);
    }

    /** A clock the test sets. */
    private static final class SettableClock extends Clock {
        private volatile long millis;

        SettableClock(long millis) {
            this.millis = millis;
        }

        void set(long millis) {
            this.millis = millis;
        }

        @Override
        public long millis() {
            return millis;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis);
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }
}
