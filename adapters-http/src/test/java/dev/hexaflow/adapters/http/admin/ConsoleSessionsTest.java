package dev.hexaflow.adapters.http.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.domain.secret.SecretHash;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The console's session values: made only for the admin token, never holding it, and refused once ended or changed. */
class ConsoleSessionsTest {

    private static final String TOKEN = "hfa-the-admin-token-0123456789";

    private final MovableClock clock = new MovableClock(Instant.parse("2026-03-01T09:00:00Z"));
    private final AtomicReference<SecretHash> adminToken = new AtomicReference<>(SecretHash.of(TOKEN));
    private final ConsoleSessions sessions = new ConsoleSessions(adminToken::get, clock);

    @Test
    void theAdminTokenOpensASessionWhoseValueHoldsNeitherTheTokenNorItsHash() {
        String value = sessions.open(TOKEN).orElseThrow().value();

        assertThat(sessions.isOpen(value)).isTrue();
        assertThat(value).doesNotContain(TOKEN).doesNotContain(TOKEN.substring(4, 20))
                .doesNotContain(SecretHash.of(TOKEN).hex().substring(0, 16));
    }

    @Test
    void anotherTokenOpensNoSession() {
        assertThat(sessions.open("hfa-not-the-token")).isEmpty();
        assertThat(sessions.open(null)).isEmpty();
    }

    @Test
    void twoSignInsGetTwoValues() {
        assertThat(sessions.open(TOKEN).orElseThrow().value()).isNotEqualTo(sessions.open(TOKEN).orElseThrow()
                .value());
    }

    @Test
    void aSessionEndsWhenItsEightHoursAreOver() {
        String value = sessions.open(TOKEN).orElseThrow().value();

        clock.move(ConsoleSessions.LASTS.minusSeconds(1));
        assertThat(sessions.isOpen(value)).isTrue();
        clock.move(Duration.ofSeconds(1));
        assertThat(sessions.isOpen(value)).isFalse();
    }

    @Test
    void aValueChangedAnywhereIsRefused() {
        String value = sessions.open(TOKEN).orElseThrow().value();
        String[] parts = value.split("\\.");
        long later = Long.parseLong(parts[0]) + 86_400;

        assertThat(sessions.isOpen(later + "." + parts[1] + "." + parts[2])).as("a later end").isFalse();
        assertThat(sessions.isOpen(parts[0] + "." + parts[1] + "x." + parts[2])).as("another nonce").isFalse();
        assertThat(sessions.isOpen(parts[0] + "." + parts[1] + "." + parts[2].substring(1))).as("a cut MAC")
                .isFalse();
        assertThat(sessions.isOpen("")).isFalse();
        assertThat(sessions.isOpen("1.2")).isFalse();
        assertThat(sessions.isOpen(null)).isFalse();
    }

    @Test
    void aSessionSignedOutIsRefusedAndOthersStayOpen() {
        String first = sessions.open(TOKEN).orElseThrow().value();
        String second = sessions.open(TOKEN).orElseThrow().value();

        sessions.end(first);

        assertThat(sessions.isOpen(first)).isFalse();
        assertThat(sessions.isOpen(second)).isTrue();
    }

    @Test
    void aNewAdminTokenEndsEverySession() {
        String value = sessions.open(TOKEN).orElseThrow().value();

        adminToken.set(SecretHash.of("hfa-a-new-token"));

        assertThat(sessions.isOpen(value)).isFalse();
    }

    @Test
    void anotherServerWithTheSameTokenAcceptsTheSession() {
        String value = sessions.open(TOKEN).orElseThrow().value();

        assertThat(new ConsoleSessions(() -> SecretHash.of(TOKEN), clock).isOpen(value)).isTrue();
    }

    /** A clock the test moves on. */
    private static final class MovableClock extends Clock {
        private Instant now;

        MovableClock(Instant now) {
            this.now = now;
        }

        void move(Duration by) {
            now = now.plus(by);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
