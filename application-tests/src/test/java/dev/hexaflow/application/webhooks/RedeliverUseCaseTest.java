package dev.hexaflow.application.webhooks;

import static dev.hexaflow.application.webhooks.WebhookBed.APP;
import static dev.hexaflow.application.webhooks.WebhookBed.OTHER;
import static dev.hexaflow.application.webhooks.WebhookBed.URL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.persistence.H2Database;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.webhooks.port.out.CallbackSender.Answer;
import dev.hexaflow.application.webhooks.port.out.DeliveryRepository;
import dev.hexaflow.application.webhooks.port.out.DeliveryRepository.DeliveryRecord;
import dev.hexaflow.application.webhooks.service.DeliverCallbacksService;
import dev.hexaflow.application.webhooks.service.RedeliverService;
import dev.hexaflow.domain.webhook.Delivery;
import dev.hexaflow.domain.webhook.DeliveryAttempt;
import dev.hexaflow.domain.webhook.DeliveryState;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** An operator's redelivery of an ended delivery, sent by the real deliverer to a {@link FakeReceiver}. */
class RedeliverUseCaseTest {

    private static H2Database database;
    private final WebhookBed bed = new WebhookBed(database);
    private final DeliverCallbacksService deliver = bed.deliverer();
    private final RedeliverService redeliver = new RedeliverService(bed.apps, bed.deliveries, bed.clock);

    @BeforeAll
    static void open() {
        database = WebhookBed.open("redeliver");
    }

    @AfterAll
    static void close() {
        database.close();
    }

    /** A delivery of a run of {@link WebhookBed#APP} posted once, and delivered unless the receiver says otherwise. */
    private Delivery sentOnce(String runId) {
        Delivery delivery = bed.dueFor(runId);
        deliver.deliverDue();
        return delivery;
    }

    private List<Integer> attemptNumbers(Delivery delivery) {
        return bed.recordOf(delivery).attempts().stream().map(DeliveryAttempt::number).toList();
    }

    @Test
    void aDeliveredDeliveryAskedAgainIsDueAtOnceAndPostedAsItsSecondAttempt() {
        Delivery delivery = sentOnce("run-1");
        bed.pass(Duration.ofHours(1));

        Delivery asked = redeliver.redeliver(APP, delivery.id());
        int claimed = deliver.deliverDue();

        assertThat(asked.state()).isEqualTo(DeliveryState.PENDING);
        assertThat(asked.nextAttemptAt()).isEqualTo(bed.clock.millis());
        assertThat(asked.dueSince()).isEqualTo(bed.clock.millis());
        assertThat(claimed).isEqualTo(1);
        assertThat(bed.recordOf(delivery).delivery().state()).isEqualTo(DeliveryState.DELIVERED);
        assertThat(attemptNumbers(delivery)).containsExactly(1, 2);
        assertThat(bed.receiver.posts).hasSize(2);
        assertThat(bed.receiver.posts.get(1).body()).isEqualTo(bed.receiver.posts.get(0).body());
        assertThat(bed.receiver.posts.get(1).headers().get(DeliverCallbacksService.DELIVERY_HEADER))
                .isEqualTo(delivery.id());
    }

    @Test
    void aFailedDeliveryAskedAgainGetsItsRetriesCountedFromTheRedeliveryNotTheRunsEnd() {
        bed.receiver.answers(Answer.refusedBecause("The address is not allowed."), Answer.status(500));
        Delivery delivery = sentOnce("run-1");
        // Far past the five minutes the schedule gives from the run's end.
        bed.pass(Duration.ofMinutes(30));

        long askedAt = redeliver.redeliver(APP, delivery.id()).nextAttemptAt();
        deliver.deliverDue();
        Delivery afterRetry = bed.recordOf(delivery).delivery();
        bed.pass(Duration.ofMinutes(1));
        deliver.deliverDue();

        assertThat(afterRetry.state()).isEqualTo(DeliveryState.PENDING);
        assertThat(afterRetry.lastError()).isEqualTo("The receiver answered 500, not 2xx.");
        // The wait follows the attempt's number: the second attempt failed, so the second delay (1 min).
        assertThat(afterRetry.nextAttemptAt()).isEqualTo(askedAt + Duration.ofMinutes(1).toMillis());
        assertThat(bed.recordOf(delivery).delivery().state()).isEqualTo(DeliveryState.DELIVERED);
        assertThat(attemptNumbers(delivery)).containsExactly(1, 2, 3);
    }

    @Test
    void aDeliveryStillUnderWayIsNotAskedAgainAndNothingMoreIsSent() {
        bed.receiver.answers(Answer.status(503));
        Delivery pending = sentOnce("run-1");
        bed.run(APP, "run-2", true);
        Delivery awaiting = bed.callbacks.register(APP, "run-2", URL);

        assertRefused(() -> redeliver.redeliver(APP, pending.id()), ApiError.INVALID_PARAM,
                "The delivery is pending: it is sent without being asked again.");
        assertRefused(() -> redeliver.redeliver(APP, awaiting.id()), ApiError.INVALID_PARAM,
                "The delivery is awaiting_run: it is sent without being asked again.");
        assertThat(deliver.deliverDue()).isZero();
        assertThat(bed.receiver.posts).hasSize(1);
        assertThat(bed.recordOf(awaiting).delivery().state()).isEqualTo(DeliveryState.AWAITING_RUN);
    }

    @Test
    void aDeliveryOfAnotherAppAnUnknownDeliveryOrAnUnknownAppIsNotFound() {
        Delivery others = bed.dueFor(OTHER, "run-x", URL);
        deliver.deliverDue();

        assertRefused(() -> redeliver.redeliver(APP, others.id()), ApiError.NOT_FOUND,
                "The app has no such delivery.");
        assertRefused(() -> redeliver.redeliver(APP, "no-such-delivery"), ApiError.NOT_FOUND,
                "The app has no such delivery.");
        assertRefused(() -> redeliver.redeliver("app-none", others.id()), ApiError.NOT_FOUND, "App not found.");
        assertThat(bed.recordOf(others).delivery().state()).isEqualTo(DeliveryState.DELIVERED);
    }

    @Test
    void aSecondPressBeforeTheSendIsRefusedAsPendingAndTheReceiverGetsItOnce() {
        Delivery delivery = sentOnce("run-1");

        redeliver.redeliver(APP, delivery.id());
        assertRefused(() -> redeliver.redeliver(APP, delivery.id()), ApiError.INVALID_PARAM,
                "The delivery is pending: it is sent without being asked again.");
        deliver.deliverDue();

        assertThat(bed.receiver.posts).hasSize(2);
        assertThat(attemptNumbers(delivery)).containsExactly(1, 2);
    }

    @Test
    void twoOperatorsPressingAtOnceBothSeeItDueAndItIsSentOnce() {
        Delivery delivery = sentOnce("run-1");
        // The other operator's press lands between this one's read and its write.
        OtherHandFirst store = new OtherHandFirst(bed.deliveries,
                () -> redeliver.redeliver(APP, delivery.id()));
        RedeliverService slower = new RedeliverService(bed.apps, store, bed.clock);

        Delivery answered = slower.redeliver(APP, delivery.id());
        deliver.deliverDue();

        assertThat(store.otherHandPressed).isTrue();
        assertThat(answered.state()).isEqualTo(DeliveryState.PENDING);
        assertThat(bed.receiver.posts).hasSize(2);
        assertThat(attemptNumbers(delivery)).containsExactly(1, 2);
    }

    @Test
    void aRedeliveryWhoseRunIsNoLongerKeptIsGivenUpAgainWithoutAPost() {
        Delivery delivery = bed.callbacks.register(APP, "run-pruned", URL);
        bed.callbacks.runEnded(delivery);
        deliver.deliverDue();

        redeliver.redeliver(APP, delivery.id());
        deliver.deliverDue();

        DeliveryRecord kept = bed.recordOf(delivery);
        assertThat(kept.delivery().state()).isEqualTo(DeliveryState.FAILED);
        assertThat(kept.delivery().lastError()).startsWith("The run is no longer kept (pruned)");
        assertThat(kept.attempts()).isEmpty();
        assertThat(bed.receiver.posts).isEmpty();
    }

    private static void assertRefused(ThrowingCallable call, ApiError error, String message) {
        assertThatThrownBy(call).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.error()).isEqualTo(error);
            assertThat(e.getMessage()).isEqualTo(message);
        });
    }

    /** The real store, with another operator's press run just before the first move it is asked for. */
    private static final class OtherHandFirst implements DeliveryRepository {
        private final DeliveryRepository real;
        private final Runnable otherHand;
        private boolean otherHandPressed;

        OtherHandFirst(DeliveryRepository real, Runnable otherHand) {
            this.real = real;
            this.otherHand = otherHand;
        }

        @Override
        public boolean move(Delivery next, DeliveryState from, DeliveryAttempt attempt) {
            if (!otherHandPressed) {
                otherHandPressed = true;
                otherHand.run();
            }
            return real.move(next, from, attempt);
        }

        @Override
        public void add(Delivery delivery) {
            real.add(delivery);
        }

        @Override
        public void discard(String id) {
            real.discard(id);
        }

        @Override
        public List<Delivery> awaitingRun(Delivery after, int limit) {
            return real.awaitingRun(after, limit);
        }

        @Override
        public Optional<Claim> claimNext(long now, long until, PassOver passOver) {
            return real.claimNext(now, until, passOver);
        }

        @Override
        public Optional<Claim> extend(Claim claim, long until) {
            return real.extend(claim, until);
        }

        @Override
        public boolean settle(Claim claim, Delivery next, DeliveryAttempt attempt) {
            return real.settle(claim, next, attempt);
        }

        @Override
        public DeliveryPage list(String appId, int page, int limit) {
            return real.list(appId, page, limit);
        }

        @Override
        public Optional<Delivery> completionOf(String runId) {
            return real.completionOf(runId);
        }

        @Override
        public Optional<Delivery> find(String id) {
            return real.find(id);
        }

        @Override
        public int pruneEnded(long createdBefore) {
            return real.pruneEnded(createdBefore);
        }
    }
}
