package dev.hexaflow.domain.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A delivery's lifecycle, the retry schedule's waits and day, and what a callback URL may be. */
class DeliveryTest {

    private static final RetrySchedule SCHEDULE = new RetrySchedule(List.of(Duration.ofSeconds(10),
            Duration.ofSeconds(30)), Duration.ofMinutes(1), Duration.ofSeconds(10));
    private static final CallbackUrl URL = new CallbackUrl("https://hooks.example.com/x");

    private static DeliveryAttempt failure(int number, long at) {
        return new DeliveryAttempt(number, at, 500, "The receiver answered 500, not 2xx.", 0);
    }

    @Test
    void aFailedAttemptIsDueAgainAfterTheScheduledWaitTheLastWaitRepeatedUntilTheDayIsOver() {
        Delivery due = Delivery.awaiting("d", "a", "r", URL, 0).due(1_000);

        Delivery once = due.failed(failure(1, 1_000), SCHEDULE);
        Delivery twice = once.failed(failure(2, 11_000), SCHEDULE);
        Delivery thrice = twice.failed(failure(3, 41_000), SCHEDULE);

        assertThat(once.state()).isEqualTo(DeliveryState.PENDING);
        assertThat(once.nextAttemptAt()).isEqualTo(11_000);
        assertThat(twice.nextAttemptAt()).isEqualTo(41_000);
        assertThat(thrice.state()).as("71 s after its run's end: past the minute").isEqualTo(DeliveryState.FAILED);
        assertThat(thrice.attempts()).isEqualTo(3);
        assertThat(thrice.lastError()).contains("500");
    }

    @Test
    void anEndedDeliveryNeverMovesAgainAndOneAwaitingItsRunIsNotSent() {
        Delivery awaiting = Delivery.awaiting("d", "a", "r", URL, 0);
        Delivery delivered = awaiting.due(5).delivered(new DeliveryAttempt(1, 5, 204, null, 3));

        assertThat(delivered.state()).isEqualTo(DeliveryState.DELIVERED);
        assertThatThrownBy(() -> delivered.failed(failure(2, 9), SCHEDULE))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("delivered");
        assertThatThrownBy(() -> awaiting.delivered(new DeliveryAttempt(1, 5, 200, null, 3)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("awaiting_run");
    }

    @Test
    void aPausesDeliveryIsDueAtOnceWithItsBodyAndKeepsBothThroughItsAttempts() {
        Delivery pause = Delivery.ofPause("d", "a", "r", URL, "{\"event\":\"workflow_paused\"}", 7);

        Delivery retried = pause.failed(failure(1, 7), SCHEDULE);

        assertThat(pause.state()).isEqualTo(DeliveryState.PENDING);
        assertThat(pause.nextAttemptAt()).isEqualTo(7);
        assertThat(retried.kind()).isEqualTo(DeliveryKind.PAUSED);
        assertThat(retried.payload()).isEqualTo("{\"event\":\"workflow_paused\"}");
        assertThat(Delivery.awaiting("d", "a", "r", URL, 0).kind()).isEqualTo(DeliveryKind.COMPLETION);
        assertThatThrownBy(() -> Delivery.ofPause("d", "a", "r", URL, null, 7))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("body");
    }

    @Test
    void aCallbackUrlIsAnHttpOrHttpsUrlWithAHostOfAtMost2048Characters() {
        assertThat(new CallbackUrl("http://127.0.0.1:9000/hook?x=1").value())
                .isEqualTo("http://127.0.0.1:9000/hook?x=1");
        for (String bad : List.of("", "ftp://example.com/x", "https:///path", "https://user:pw@example.com/",
                "example.com/hook", "https://example.com/" + "a".repeat(2040))) {
            assertThatThrownBy(() -> new CallbackUrl(bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("callback_url");
        }
    }
}
