package dev.hexaflow.adapters.persistence;

import static dev.hexaflow.adapters.persistence.WorkflowFixtures.APP;
import static dev.hexaflow.adapters.persistence.WorkflowFixtures.OTHER_APP;
import static dev.hexaflow.adapters.persistence.WorkflowFixtures.app;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.adapters.persistence.jdbi.JdbiAppRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiDeliveryRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiWebhookSettingsRepository;
import dev.hexaflow.application.webhooks.port.out.DeliveryRepository.Claim;
import dev.hexaflow.application.webhooks.port.out.DeliveryRepository.DeliveryPage;
import dev.hexaflow.application.webhooks.port.out.DeliveryRepository.DeliveryRecord;
import dev.hexaflow.application.webhooks.port.out.DeliveryRepository.PassOver;
import dev.hexaflow.domain.webhook.CallbackUrl;
import dev.hexaflow.domain.webhook.Delivery;
import dev.hexaflow.domain.webhook.DeliveryAttempt;
import dev.hexaflow.domain.webhook.DeliveryState;
import dev.hexaflow.domain.webhook.RetrySchedule;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The webhook repositories (deliveries and their claims, each app's settings), which have no in-memory twin and so
 * no contract class, held to the same tests on each {@link Store}, H2 and PostgreSQL 15: a due delivery is claimed
 * by one of several claimers at once, oldest first, passing over the apps the caller names, and again only once its
 * claim runs out; a claim taken again leaves its former holder nothing to extend or settle; a delivery moves only
 * from the state it was read in, with its attempt; the deliveries awaiting their run page oldest first; an app's
 * deliveries page newest first; an app's secret is drawn once.
 */
@ParameterizedClass(name = "on {0}")
@EnumSource(Store.class)
class JdbiWebhookRepositoriesTest {

    private static final CallbackUrl URL = new CallbackUrl("https://hooks.example.com/run");

    private final Database database;
    private final JdbiDeliveryRepository deliveries;
    private final JdbiWebhookSettingsRepository settings;

    JdbiWebhookRepositoriesTest(Store store) {
        database = store.open();
        deliveries = new JdbiDeliveryRepository(database.jdbi());
        settings = new JdbiWebhookSettingsRepository(database.jdbi());
    }

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
        return due(id, appId, createdAt, URL);
    }

    private Delivery due(String id, String appId, long createdAt, CallbackUrl url) {
        Delivery delivery = Delivery.awaiting(id, appId, "run-" + id, url, createdAt);
        deliveries.add(delivery);
        Delivery due = delivery.due(createdAt);
        assertThat(deliveries.move(due, DeliveryState.AWAITING_RUN, null)).isTrue();
        return due;
    }

    private List<Claim> claimAll(long now, long until) {
        List<Claim> claims = new ArrayList<>();
        Optional<Claim> claim;
        while ((claim = deliveries.claimNext(now, until, PassOver.NONE)).isPresent()) {
            claims.add(claim.get());
        }
        return claims;
    }

    @Test
    void pruningDeletesOnlyEndedDeliveriesMadeBeforeTheCutWithTheirAttempts() {
        DeliveryAttempt answered = new DeliveryAttempt(1, 150, 200, null, 5);
        DeliveryAttempt refused = new DeliveryAttempt(1, 150, null, "refused", 1);
        Delivery oldDelivered = due("old-delivered", APP, 100);
        assertThat(deliveries.move(oldDelivered.delivered(answered), DeliveryState.PENDING, answered)).isTrue();
        Delivery oldFailed = due("old-failed", APP, 100);
        assertThat(deliveries.move(oldFailed.refused(refused), DeliveryState.PENDING, refused)).isTrue();
        due("old-pending", APP, 100);
        Delivery recent = due("recent-delivered", APP, 9_000);
        assertThat(deliveries.move(recent.delivered(answered), DeliveryState.PENDING, answered)).isTrue();

        assertThat(deliveries.pruneEnded(5_000)).isEqualTo(2);

        assertThat(deliveries.list(APP, 1, 10).items()).extracting(record -> record.delivery().id())
                .containsExactlyInAnyOrder("old-pending", "recent-delivered");
        int attemptsLeft = database.jdbi().withHandle(handle -> handle.createQuery("SELECT COUNT(*) FROM "
                + "webhook_attempt WHERE delivery_id IN ('old-delivered', 'old-failed')").mapTo(Integer.class).one());
        assertThat(attemptsLeft).as("their attempts go with them").isZero();
        assertThat(deliveries.pruneEnded(5_000)).isZero();
    }

    @Test
    void severalClaimersAtOnceClaimEachDueDeliveryOnce() throws Exception {
        for (int i = 0; i < 40; i++) {
            due("d" + i, APP, 1000 + i);
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<List<Claim>>> claims = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            claims.add(pool.submit(() -> {
                go.await();
                return claimAll(5000, 60_000);
            }));
        }
        go.countDown();
        List<String> claimed = Collections.synchronizedList(new ArrayList<>());
        for (Future<List<Claim>> claim : claims) {
            claim.get().forEach(c -> claimed.add(c.delivery().id()));
        }
        pool.shutdown();

        assertThat(claimed).hasSize(40).doesNotHaveDuplicates();
        assertThat(claimAll(59_999, 120_000)).as("held until its claim runs out").isEmpty();
        assertThat(claimAll(60_001, 120_000)).as("a claim that ran out").hasSize(40);
    }

    @Test
    void theOldestDueDeliveryIsClaimedFirstPassingOverTheAppsTheCallerNames() {
        due("a1", APP, 1000);
        due("a2", APP, 1001);
        due("b1", OTHER_APP, 1002);

        Claim first = deliveries.claimNext(5000, 60_000, PassOver.NONE).orElseThrow();
        Claim passingOver = deliveries.claimNext(5000, 60_000, PassOver.apps(Set.of(APP))).orElseThrow();

        assertThat(first.delivery().id()).isEqualTo("a1");
        assertThat(first.until()).isEqualTo(60_000);
        assertThat(passingOver.delivery().id()).isEqualTo("b1");
        assertThat(deliveries.claimNext(5000, 60_000, PassOver.apps(Set.of(APP)))).isEmpty();
        assertThat(deliveries.claimNext(5000, 60_000, PassOver.apps(Set.of(OTHER_APP))).orElseThrow().delivery().id())
                .isEqualTo("a2");
    }

    @Test
    void aClaimPassesOverTheReceiversTheCallerNamesWhateverTheirPaths() {
        CallbackUrl slow = new CallbackUrl("https://Slow.example.com/first");
        due("s1", APP, 1000, slow);
        due("s2", APP, 1001, new CallbackUrl("https://slow.example.com:443/second?x=1"));
        due("f1", APP, 1002, new CallbackUrl("https://slow.example.com:8443/other-port"));

        Claim claim = deliveries.claimNext(5000, 60_000, PassOver.receivers(Set.of(slow.receiver()))).orElseThrow();

        assertThat(slow.receiver()).isEqualTo("https://slow.example.com:443");
        assertThat(claim.delivery().id()).isEqualTo("f1");
        assertThat(deliveries.claimNext(5000, 60_000, PassOver.receivers(Set.of(slow.receiver())))).isEmpty();
        assertThat(deliveries.claimNext(5000, 60_000, PassOver.NONE).orElseThrow().delivery().id())
                .isEqualTo("s1");
    }

    @Test
    void aClaimThatRanOutAndWasTakenAgainCanNeitherBeExtendedNorSettled() {
        due("d1", APP, 1000);
        Claim stale = deliveries.claimNext(1000, 61_000, PassOver.NONE).orElseThrow();
        Claim current = deliveries.claimNext(62_000, 122_000, PassOver.NONE).orElseThrow();
        DeliveryAttempt staleAttempt = new DeliveryAttempt(1, 1000, 200, null, 5);
        DeliveryAttempt attempt = new DeliveryAttempt(1, 62_000, 200, null, 5);

        assertThat(deliveries.extend(stale, 70_000)).as("no longer held").isEmpty();
        assertThat(deliveries.settle(stale, stale.delivery().delivered(staleAttempt), staleAttempt)).isFalse();
        Claim extended = deliveries.extend(current, 130_000).orElseThrow();
        assertThat(deliveries.settle(current, current.delivery().delivered(attempt), attempt))
                .as("its token is the extended end now").isFalse();
        assertThat(deliveries.settle(extended, extended.delivery().delivered(attempt), attempt)).isTrue();

        DeliveryPage page = deliveries.list(APP, 1, 10);
        assertThat(page.items().get(0).delivery().state()).isEqualTo(DeliveryState.DELIVERED);
        assertThat(page.items().get(0).attempts()).containsExactly(attempt);
        assertThat(deliveries.extend(extended, 140_000)).as("ended").isEmpty();
    }

    @Test
    void aDeliveryNotYetDueOrAwaitingItsRunIsNotClaimed() {
        due("later", APP, 1000);
        Claim claim = deliveries.claimNext(1000, 61_000, PassOver.NONE).orElseThrow();
        DeliveryAttempt failed = new DeliveryAttempt(1, 1000, 500, "The receiver answered 500, not 2xx.", 10);
        deliveries.settle(claim, claim.delivery().failed(failed, RetrySchedule.STANDARD), failed);
        deliveries.add(Delivery.awaiting("waiting", APP, "run-w", URL, 1000));

        assertThat(deliveries.claimNext(1500, 99_000, PassOver.NONE)).isEmpty();
        assertThat(deliveries.claimNext(1000 + 10 + 10_000, 99_000, PassOver.NONE)).map(c -> c.delivery().id())
                .contains("later");
        assertThat(deliveries.awaitingRun(null, 10)).extracting(Delivery::id).containsExactly("waiting");
    }

    @Test
    void theDeliveriesAwaitingTheirRunArePagedOldestFirstAfterTheLastOneRead() {
        for (int i = 0; i < 5; i++) {
            deliveries.add(Delivery.awaiting("w" + i, APP, "run-w" + i, URL, 1000 + i / 2));
        }

        List<Delivery> first = deliveries.awaitingRun(null, 3);
        List<Delivery> rest = deliveries.awaitingRun(first.get(2), 3);

        assertThat(first).extracting(Delivery::id).containsExactly("w0", "w1", "w2");
        assertThat(rest).extracting(Delivery::id).containsExactly("w3", "w4");
        assertThat(deliveries.awaitingRun(rest.get(1), 3)).isEmpty();
    }

    @Test
    void aDeliveryMovesOnlyFromTheStateItWasReadInAndKeepsItsAttempts() {
        due("d1", APP, 1000);
        Claim claim = deliveries.claimNext(1000, 61_000, PassOver.NONE).orElseThrow();
        DeliveryAttempt first = new DeliveryAttempt(1, 2000, 200, null, 35);

        assertThat(deliveries.settle(claim, claim.delivery().delivered(first), first)).isTrue();
        assertThat(deliveries.settle(claim, claim.delivery().delivered(first), first))
                .as("already delivered").isFalse();
        Delivery waiting = Delivery.awaiting("d2", APP, "run-d2", URL, 1000);
        deliveries.add(waiting);
        assertThat(deliveries.move(waiting.due(3000), DeliveryState.AWAITING_RUN, null)).isTrue();
        assertThat(deliveries.move(waiting.due(3000), DeliveryState.AWAITING_RUN, null)).as("moved").isFalse();

        DeliveryPage page = deliveries.list(APP, 1, 10);
        assertThat(page.items()).hasSize(2);
        DeliveryRecord delivered = page.items().get(1);
        assertThat(delivered.delivery().state()).isEqualTo(DeliveryState.DELIVERED);
        assertThat(delivered.delivery().lastStatus()).isEqualTo(200);
        assertThat(delivered.attempts()).containsExactly(first);
        assertThat(page.items().get(0).delivery().state()).isEqualTo(DeliveryState.PENDING);
    }

    @Test
    void aPausesDeliveryKeepsItsKindAndBodyAndARunsCompletionIsFoundByItsRunAmongItsPauses() {
        Delivery completion = Delivery.awaiting("c", APP, "run-p", URL, 1_000);
        deliveries.add(completion);
        Delivery pause = Delivery.ofPause("p", APP, "run-p", URL, "{\"event\":\"workflow_paused\",\"n\":\"é\"}",
                2_000);
        deliveries.add(pause);

        Optional<Claim> claimed = deliveries.claimNext(2_000, 9_000, PassOver.NONE);

        assertThat(claimed).map(Claim::delivery).contains(pause);
        assertThat(deliveries.find("p")).contains(pause);
        assertThat(deliveries.completionOf("run-p")).contains(completion);
        assertThat(deliveries.completionOf("run-none")).isEmpty();
        assertThat(deliveries.awaitingRun(null, 10)).containsExactly(completion);
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
        assertThat(settings.find(APP).secret()).as("read again after the write, not from before it")
                .isEqualTo("first");
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
