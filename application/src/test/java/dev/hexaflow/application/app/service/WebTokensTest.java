package dev.hexaflow.application.app.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.application.common.port.out.Signer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Web page tokens: what they say, how long they last, and that only the process that signed one reads it. */
class WebTokensTest {

    /** A clock that a test moves on. */
    static final class MovingClock extends Clock {
        Instant now = Instant.parse("2026-11-21T12:00:00Z");

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

    private static final AtomicInteger PROCESSES = new AtomicInteger();

    /** A signer of its own, as each process has: a digest of the message under a key no other signer has. */
    private static Signer newSigner() {
        byte[] key = ("process-" + PROCESSES.incrementAndGet()).getBytes(StandardCharsets.UTF_8);
        return message -> {
            try {
                MessageDigest digest = MessageDigest.getInstance("SHA-256");
                digest.update(key);
                return digest.digest(message);
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        };
    }

    private final MovingClock clock = new MovingClock();
    private final WebTokens tokens = new WebTokens(newSigner(), clock);

    @Test
    void aTokenSaysItsAppAndEndsAfterItsLifetime() {
        String token = tokens.issue("app-1", tokens.newExpiry());

        WebTokens.Claims claims = tokens.read(token).orElseThrow();
        assertThat(claims.appId()).isEqualTo("app-1");
        assertThat(claims.expiresAt()).isEqualTo(clock.now.plus(WebTokens.LIFETIME).getEpochSecond());
        assertThat(tokens.hasEnded(claims)).isFalse();

        clock.now = clock.now.plus(WebTokens.LIFETIME).minusSeconds(1);
        assertThat(tokens.hasEnded(claims)).isFalse();
        clock.now = clock.now.plus(Duration.ofSeconds(1));
        assertThat(tokens.hasEnded(claims)).isTrue();
    }

    @Test
    void anotherProcessesTokenOrAnAlteredOneSaysNothing() {
        String token = tokens.issue("app-1", tokens.newExpiry());
        WebTokens other = new WebTokens(newSigner(), clock);

        assertThat(other.read(token)).isEmpty();
        assertThat(tokens.read(token.replace("web-", "web-A"))).isEmpty();
        assertThat(tokens.read(token + "A")).isEmpty();
        assertThat(tokens.read(other.issue("app-1", tokens.newExpiry()))).isEmpty();
    }

    @Test
    void textsThatAreNoTokensSayNothingAndThrowNothing() {
        for (String text : new String[] {null, "", "web-", "web-.", "web-abc", "web-abc.", "web-.abc",
                "web-!!!.???", "app-abcdefghijklmnopqrstuvwx", "web-" + "A".repeat(10_000) + ".B"}) {
            assertThat(tokens.read(text)).as(String.valueOf(text)).isEmpty();
        }
    }

    @Test
    void anAppIdWithAColonSurvivesTheRoundTrip() {
        assertThat(tokens.read(tokens.issue("odd:id", 42)).orElseThrow()).isEqualTo(new WebTokens.Claims("odd:id",
                42));
    }
}
