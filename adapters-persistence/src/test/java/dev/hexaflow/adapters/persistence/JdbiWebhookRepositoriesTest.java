package dev.hexaflow.adapters.persistence;

import static dev.hexaflow.adapters.persistence.WorkflowFixtures.APP;
import static dev.hexaflow.adapters.persistence.WorkflowFixtures.OTHER_APP;
import static dev.hexaflow.adapters.persistence.WorkflowFixtures.app;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.adapters.persistence.jdbi.JdbiAppRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiDeliveryRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiWebhookSettingsRepository;
import dev.hexaflow.application.webhook.port.out.DeliveryRepository.DeliveryPage;
import dev.hexaflow.domain.webhook.CallbackUrl;
import dev.hexaflow.domain.webhook.Delivery;
import dev.hexaflow.domain.webhook.DeliveryAttempt;
import dev.hexaflow.domain.webhook.DeliveryState;
import dev.hexaflow.domain.webhook.RetrySchedule;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The webhook repositories on a real H2: a due delivery is claimed by one of several claimers at once, and again
 * only once its claim runs out; a delivery moves only from the state it was read in, with its attempt; an app's
 * deliveries page newest first; an app's secret is drawn once.
 */
class JdbiWebhookRepositoriesTest {

    private static final CallbackUrl URL = new CallbackUrl("https://hooks.example.com/run");

    private final H2Database database = H2Database.openInMemory("webhooks-" + UUID.randomUUID());
    private final JdbiDeliveryRepository deliveries = new JdbiDeliveryRepository(database.jdbi());
    private final JdbiWebhookSettingsRepository settings = new JdbiWebhookSettingsRepository(database.jdbi());

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

    private Delivery due(String id, String appId, long createdAt) {
        Delivery delivery = Delivery.awaiting(id, appId, "run-" + id, URL, createdAt);
        deliveries.add(delivery);
        Delivery due = delivery.due(createdAt);
        assertThat(deliveries.move(due, DeliveryState.AWAITING_RUN, null)).isTrue();
        return due;
    }

    @Test
    void severalClaimersAtOnceClaimEachDueDeliveryOnce() throws Exception {
        for (int i = 0; i < 40; i++) {
            due("d" + i, APP, 1000 + i);
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<List<Delivery>>> claims = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            claims.add(pool.submit(() -> {
                go.await();
                return deliveries.claimDue(5000, 60_000, 100);
            }));
        }
        go.countDown();
        List<String> claimed = Collections.synchronizedList(new ArrayList<>());
        for (Future<List<Delivery>> claim : claims) {
            claim.get().forEach(d -> claimed.add(d.id()));
        }
        pool.shutdown();

        assertThat(claimed).hasSize(40).doesNotHaveDuplicates();
        assertThat(deliveries.claimDue(59_999, 120_000, 100)).as("held until its claim runs out").isEmpty();
        assertThat(deliveries.claimDue(60_001, 120_000, 100)).as("a claim that ran out").hasSize(40);
    }

    @Test
    void aDeliveryNotYetDueOrAwaitingItsRunIsNotClaimed() {
        Delivery later = due("later", APP, 1000);
        DeliveryAttempt failed = new DeliveryAttempt(1, 1000, 500, "The receiver answered 500, not 2xx.", 10);
        deliveries.move(later.failed(failed, RetrySchedule.STANDARD), DeliveryState.PENDING, failed);
        deliveries.add(Delivery.awaiting("waiting", APP, "run-w", URL, 1000));

        assertThat(deliveries.claimDue(1500, 99_000, 10)).isEmpty();
        assertThat(deliveries.claimDue(1000 + 10 + 10_000, 99_000, 10)).extracting(Delivery::id)
                .containsExactly("later");
        assertThat(deliveries.awaitingRun(10)).extracting(Delivery::id).containsExactly("waiting");
    }

    @Test
    void aDeliveryMovesOnlyFromTheStateItWasReadInAndKeepsItsAttempts() {
        Delivery pending = due("d1", APP, 1000);
        DeliveryAttempt first = new DeliveryAttempt(1, 2000, 200, null, 35);

        assertThat(deliveries.move(pending.delivered(first), DeliveryState.PENDING, first)).isTrue();
        assertThat(deliveries.move(pending.delivered(first), DeliveryState.PENDING, first))
                .as("already delivered").isFalse();

        DeliveryPage page = deliveries.list(APP, 1, 10);
        assertThat(page.items()).hasSize(1);
        assertThat(page.items().get(0).delivery().state()).isEqualTo(DeliveryState.DELIVERED);
        assertThat(page.items().get(0).delivery().lastStatus()).isEqualTo(200);
        assertThat(page.items().get(0).attempts()).containsExactly(first);
    }

    @Test
    void anAppsDeliveriesArePagedNewestFirstAndNoOtherAppsAreListed() {
        for (int i = 0; i < 5; i++) {
            due("d" + i, APP, 1000 + i);
        }
        due("other", OTHER_APP, 2000);

        DeliveryPage first = deliveries.list(APP, 1, 2);
        DeliveryPage last = deliveries.list(APP, 3, 2);

        assertThat(first.total()).isEqualTo(5);
        assertThat(first.hasMore()).isTrue();
        assertThat(first.items()).extracting(r -> r.delivery().id()).containsExactly("d4", "d3");
        assertThat(last.items()).extracting(r -> r.delivery().id()).containsExactly("d0");
        assertThat(last.hasMore()).isFalse();
    }

    @Test
    void anAppsSecretIsDrawnOnceAndItsDefaultCallbackSetAndCleared() {
        assertThat(settings.find(APP).secret()).isNull();
        assertThat(settings.secretOrAdd(APP, "first")).isEqualTo("first");
        assertThat(settings.secretOrAdd(APP, "second")).as("kept, not replaced").isEqualTo("first");
        settings.setSecret(APP, "rotated");
        settings.setDefaultCallback(APP, URL);

        assertThat(settings.find(APP).secret()).isEqualTo("rotated");
        assertThat(settings.defaultCallbacks()).containsOnlyKeys(APP).containsValue(URL);

        settings.setDefaultCallback(APP, null);
        assertThat(settings.find(APP).defaultCallback()).isNull();
        assertThat(settings.find(APP).secret()).isEqualTo("rotated");
        assertThat(new HashSet<>(settings.defaultCallbacks().keySet())).isEqualTo(Set.of());
    }
}
