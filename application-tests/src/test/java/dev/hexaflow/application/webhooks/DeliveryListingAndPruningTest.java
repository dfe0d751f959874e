package dev.hexaflow.application.webhooks;

import static dev.hexaflow.application.webhooks.WebhookBed.APP;
import static dev.hexaflow.application.webhooks.WebhookBed.OTHER;
import static dev.hexaflow.application.webhooks.WebhookBed.URL;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.adapters.persistence.H2Database;
import dev.hexaflow.application.webhooks.port.in.DeliverCallbacksUseCase;
import dev.hexaflow.application.webhooks.port.in.ListDeliveriesUseCase.DeliveriesQuery;
import dev.hexaflow.application.webhooks.port.in.ListDeliveriesUseCase.DeliveryPage;
import dev.hexaflow.application.webhooks.port.in.ListDeliveriesUseCase.DeliveryWithAttempts;
import dev.hexaflow.application.webhooks.port.out.CallbackSender.Answer;
import dev.hexaflow.application.webhooks.service.DeliverCallbacksService;
import dev.hexaflow.application.webhooks.service.ListDeliveriesService;
import dev.hexaflow.domain.webhook.Delivery;
import dev.hexaflow.domain.webhook.DeliveryAttempt;
import dev.hexaflow.domain.webhook.DeliveryState;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The operator's list of an app's deliveries as they end, and the pruning of ended ones after thirty days. */
class DeliveryListingAndPruningTest {

    private static H2Database database;
    private final WebhookBed bed = new WebhookBed(database);
    private final DeliverCallbacksService deliver = bed.deliverer();
    private final ListDeliveriesService list = new ListDeliveriesService(bed.apps, bed.deliveries);

    @BeforeAll
    static void open() {
        database = WebhookBed.open("delivery-listing");
    }

    @AfterAll
    static void close() {
        database.close();
    }

    private DeliveryWithAttempts listed(Delivery delivery) {
        return list.list(new DeliveriesQuery(delivery.appId(), 1, 100)).items().stream()
                .filter(item -> item.delivery().id().equals(delivery.id())).findFirst().orElseThrow();
    }

    @Test
    void aDeliveredDeliveryIsListedWithItsAttemptsFirstFirstAndTheirTimes() {
        bed.receiver.answers(Answer.status(500));
        Delivery delivery = bed.dueFor("run-1");
        long firstAt = bed.clock.millis();
        deliver.deliverDue();
        bed.pass(Duration.ofSeconds(10));
        deliver.deliverDue();

        DeliveryWithAttempts item = listed(delivery);

        assertThat(item.delivery().state()).isEqualTo(DeliveryState.DELIVERED);
        assertThat(item.delivery().attempts()).isEqualTo(2);
        assertThat(item.delivery().lastStatus()).isEqualTo(200);
        assertThat(item.delivery().lastError()).isNull();
        assertThat(item.attempts()).extracting(DeliveryAttempt::number).containsExactly(1, 2);
        assertThat(item.attempts()).extracting(DeliveryAttempt::attemptedAt).containsExactly(firstAt,
                firstAt + 10_000);
        assertThat(item.attempts()).extracting(DeliveryAttempt::statusCode).containsExactly(500, 200);
    }

    @Test
    void aDeliveryTheScheduleGaveUpOnIsListedFailedWithTheLastReason() {
        bed.receiver.alwaysAnswers(Answer.failed("connection refused"));
        Delivery delivery = bed.dueFor("run-1");
        for (int step = 0; step < 40; step++) {
            deliver.deliverDue();
            bed.pass(Duration.ofSeconds(10));
        }

        DeliveryWithAttempts item = listed(delivery);

        assertThat(item.delivery().state()).isEqualTo(DeliveryState.FAILED);
        assertThat(item.delivery().lastError()).isEqualTo("connection refused");
        assertThat(item.delivery().lastStatus()).isNull();
        assertThat(item.attempts()).hasSize(item.delivery().attempts()).allSatisfy(attempt ->
                assertThat(attempt.error()).isEqualTo("connection refused"));
    }

    @Test
    void aPageBeyondTheLastIsEmptyButStillCountsTheAppsDeliveries() {
        for (int i = 1; i <= 3; i++) {
            bed.dueFor("run-" + i);
            bed.pass(Duration.ofSeconds(1));
        }
        bed.dueFor(OTHER, "run-x", URL);

        DeliveryPage beyond = list.list(new DeliveriesQuery(APP, 3, 2));
        DeliveryPage exactlyFull = list.list(new DeliveriesQuery(APP, 1, 3));

        assertThat(beyond.items()).isEmpty();
        assertThat(beyond.total()).isEqualTo(3);
        assertThat(beyond.hasMore()).isFalse();
        assertThat(exactlyFull.items()).hasSize(3);
        assertThat(exactlyFull.hasMore()).isFalse();
    }

    @Test
    void pruningDeletesEndedDeliveriesOlderThanThirtyDaysAndKeepsTheRest() {
        bed.receiver.answers(Answer.status(200), Answer.refusedBecause("not allowed"));
        Delivery oldDelivered = bed.dueFor("run-old-delivered");
        deliver.deliverDue();
        Delivery oldFailed = bed.dueFor("run-old-failed");
        deliver.deliverDue();
        // Still waiting for a run that goes on: not ended, so kept however old.
        bed.run(APP, "run-old-running", true);
        Delivery oldAwaiting = bed.callbacks.register(APP, "run-old-running", URL);
        bed.pass(DeliverCallbacksUseCase.ENDED_KEPT.minusDays(1));
        Delivery recent = bed.dueFor("run-recent");
        deliver.deliverDue();
        bed.pass(Duration.ofDays(1).plusSeconds(1));

        int pruned = deliver.prune();

        assertThat(pruned).isEqualTo(2);
        assertThat(list.list(new DeliveriesQuery(APP, 1, 100)).items()).extracting(item -> item.delivery().id())
                .containsExactlyInAnyOrder(oldAwaiting.id(), recent.id());
        assertThat(bed.deliveries.find(oldDelivered.id())).isEmpty();
        assertThat(bed.deliveries.find(oldFailed.id())).isEmpty();
    }
}
