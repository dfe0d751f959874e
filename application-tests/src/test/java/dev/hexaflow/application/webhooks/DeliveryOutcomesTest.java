package dev.hexaflow.application.webhooks;

import static dev.hexaflow.application.webhooks.WebhookBed.APP;
import static dev.hexaflow.application.webhooks.WebhookBed.URL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.persistence.H2Database;
import dev.hexaflow.application.webhooks.port.out.CallbackSender.Answer;
import dev.hexaflow.application.webhooks.port.out.DeliveryMonitor;
import dev.hexaflow.application.webhooks.service.DeliverCallbacksService;
import dev.hexaflow.application.webhooks.service.ManageWebhooksService;
import dev.hexaflow.domain.webhook.CallbackUrl;
import dev.hexaflow.domain.webhook.Delivery;
import dev.hexaflow.domain.webhook.DeliveryState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What the deliverer makes of answers, senders and secrets beyond the plain retry schedule, on the webhook bed
 * (the real repositories on H2, a {@link FakeReceiver}).
 */
class DeliveryOutcomesTest {

    private static H2Database database;
    private final WebhookBed bed = new WebhookBed(database);
    private final DeliverCallbacksService deliver = bed.deliverer();

    @BeforeAll
    static void open() {
        database = WebhookBed.open("delivery-outcomes");
    }

    @AfterAll
    static void close() {
        database.close();
    }

    @Test
    void aRedirectIsNoDeliveryAndIsTriedAgainLater() {
        bed.receiver.answers(Answer.status(302));
        Delivery delivery = bed.dueFor("run-1");

        deliver.deliverDue();

        Delivery kept = bed.recordOf(delivery).delivery();
        assertThat(kept.state()).isEqualTo(DeliveryState.PENDING);
        assertThat(kept.lastStatus()).isEqualTo(302);
        assertThat(kept.lastError()).isEqualTo("The receiver answered 302, not 2xx.");
        assertThat(kept.nextAttemptAt()).isEqualTo(bed.clock.millis() + 10_000);
    }

    @Test
    void aReceiverHoldsAtMostAnEighthOfTheSendersSoAnotherReceiverIsNotKeptWaiting() {
        List<Runnable> queued = new ArrayList<>();
        DeliverCallbacksService eightSenders = bed.deliverer(queued::add, 8, DeliveryMonitor.NONE);
        CallbackUrl elsewhere = new CallbackUrl("https://other.example/hook");
        bed.dueFor(APP, "run-1", URL);
        bed.pass(Duration.ofSeconds(1));
        bed.dueFor(APP, "run-2", new CallbackUrl("https://HOOKS.example:443/other-path"));
        bed.pass(Duration.ofSeconds(1));
        bed.dueFor(APP, "run-3", elsewhere);

        // One of eight senders per receiver: run-2 goes to the same receiver as run-1 (scheme, host and port).
        int first = eightSenders.deliverDue();
        queued.forEach(Runnable::run);
        queued.clear();
        int afterwards = eightSenders.deliverDue();
        queued.forEach(Runnable::run);

        assertThat(first).isEqualTo(2);
        assertThat(afterwards).isEqualTo(1);
        assertThat(bed.receiver.posts).extracting(post -> post.url().value()).containsExactly(URL.value(),
                elsewhere.value(), "https://HOOKS.example:443/other-path");
    }

    @Test
    void aMonitorThatFailsDoesNotCostTheDeliveryItsOutcome() {
        DeliverCallbacksService monitored = bed.deliverer(Runnable::run, 4, outcome -> {
            throw new IllegalStateException("metrics are down");
        });
        Delivery delivery = bed.dueFor("run-1");

        monitored.deliverDue();

        assertThat(bed.recordOf(delivery).delivery().state()).isEqualTo(DeliveryState.DELIVERED);
        assertThat(bed.receiver.posts).hasSize(1);
    }

    @Test
    void aDelivererThatIsClosingLeavesItsClaimToRunOutAndAnotherTakesItThen() {
        DeliverCallbacksService closing = bed.deliverer(task -> {
            throw new RejectedExecutionException("closing");
        }, 4, DeliveryMonitor.NONE);
        Delivery delivery = bed.dueFor("run-1");

        int claimedWhileClosing = closing.deliverDue();
        int claimedWhileHeld = deliver.deliverDue();
        // A claim lasts three timeouts and 30 s: 60 s on this schedule.
        bed.pass(Duration.ofSeconds(61));
        int claimedOnceRunOut = deliver.deliverDue();

        assertThat(claimedWhileClosing).isZero();
        assertThat(claimedWhileHeld).isZero();
        assertThat(claimedOnceRunOut).isEqualTo(1);
        assertThat(bed.recordOf(delivery).delivery().state()).isEqualTo(DeliveryState.DELIVERED);
        assertThat(bed.receiver.posts).hasSize(1);
    }

    @Test
    void aDelivererWithoutSendersIsRefused() {
        assertThatThrownBy(() -> bed.deliverer(Runnable::run, 0, DeliveryMonitor.NONE))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("senders must be 1 or more, was 0");
    }

    @Test
    void aSecretRotatedByTheOperatorSignsTheDeliveriesSentAfterIt() {
        bed.dueFor("run-1");
        deliver.deliverDue();
        String rotated = new ManageWebhooksService(bed.apps, bed.settings, length -> "r9" + "y".repeat(length - 2))
                .rotateSecret(APP);
        bed.dueFor("run-2");

        deliver.deliverDue();

        assertThat(bed.secretsDrawn).hasValue(1);
        assertThat(bed.receiver.posts).extracting(post -> post.headers().get(
                DeliverCallbacksService.SIGNATURE_HEADER).substring(0, "sha256=xx|".length()))
                .containsExactly("sha256=s1|", "sha256=" + rotated.substring(0, 2) + "|");
    }

    @Test
    void aRunsEndHeardTwiceMakesItsDeliveryDueOnceAndWakesTheDelivererOnce() {
        bed.run(APP, "run-1", false);
        Delivery delivery = bed.callbacks.register(APP, "run-1", URL);

        bed.callbacks.runEnded(delivery);
        bed.pass(Duration.ofSeconds(5));
        bed.callbacks.runEnded(delivery);
        deliver.deliverDue();

        assertThat(bed.wakes).hasValue(1);
        assertThat(bed.receiver.posts).hasSize(1);
        assertThat(bed.recordOf(delivery).delivery().dueSince()).isEqualTo(delivery.createdAt());
    }

    @Test
    void theSweepReadsPastItsFirstPageOfDeliveriesAwaitingTheirRun() {
        // More than the 128 the sweep reads at a time.
        for (int i = 1; i <= 130; i++) {
            bed.run(APP, "run-" + i, false);
            bed.callbacks.register(APP, "run-" + i, URL);
        }

        int moved = deliver.sweep();

        assertThat(moved).isEqualTo(130);
        assertThat(bed.deliveries.awaitingRun(null, 200)).isEmpty();
    }

    @Test
    void aDiscardedDeliveryIsNeitherListedNorSwept() {
        Delivery delivery = bed.callbacks.register(APP, "run-never", URL);

        bed.callbacks.discard(delivery);
        bed.pass(Duration.ofMinutes(5));

        assertThat(deliver.sweep()).isZero();
        assertThat(bed.deliveries.find(delivery.id())).isEmpty();
        assertThat(bed.deliveries.list(APP, 1, 10).items()).isEmpty();
    }
}
