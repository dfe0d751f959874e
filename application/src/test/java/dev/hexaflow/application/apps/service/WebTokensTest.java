package dev.hexaflow.application.apps.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.application.common.port.out.Signer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Base64;
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

    private static final String USER = "web-0123456789abcdef0123456789abcdef";

    private final MovingClock clock = new MovingClock();
    private final Signer signer = newSigner();
    private final WebTokens tokens = new WebTokens(signer, clock);

    @Test
    void aTokenSaysItsAppAndEndsAfterItsLifetime() {
        String token = tokens.issue("app-1", USER, tokens.newExpiry());

        WebTokens.Claims claims = tokens.read(token).orElseThrow();
        assertThat(claims.appId()).isEqualTo("app-1");
        assertThat(claims.user()).isEqualTo(USER);
        assertThat(claims.expiresAt()).isEqualTo(clock.now.plus(WebTokens.LIFETIME).getEpochSecond());
        assertThat(tokens.hasEnded(claims)).isFalse();

        clock.now = clock.now.plus(WebTokens.LIFETIME).minusSeconds(1);
        assertThat(tokens.hasEnded(claims)).isFalse();
        clock.now = clock.now.plus(Duration.ofSeconds(1));
        assertThat(tokens.hasEnded(claims)).isTrue();
    }

    @Test
    void anotherProcessesTokenOrAnAlteredOneSaysNothing() {
        String token = tokens.issue("app-1", USER, tokens.newExpiry());
        WebTokens other = new WebTokens(newSigner(), clock);

        assertThat(other.read(token)).isEmpty();
        assertThat(tokens.read(token.replace("web-", "web-A"))).isEmpty();
        assertThat(tokens.read(token + "A")).isEmpty();
        assertThat(tokens.read(other.issue("app-1", USER, tokens.newExpiry()))).isEmpty();
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
        assertThat(tokens.read(tokens.issue("odd:id", USER, 42)).orElseThrow())
                .isEqualTo(new WebTokens.Claims("odd:id", USER, 42));
    }

    @Test
    void aTokenActsOnlyForAnIdOfThePagesFormAndNewIdsHaveIt() {
        for (String user : new String[] {null, "alice", "bob@example.com", "web-", "web-0123",
                "web-0123456789ABCDEF0123456789ABCDEF", USER + "0", "x" + USER}) {
            assertThat(WebTokens.isWebUser(user)).as(String.valueOf(user)).isFalse();
            assertThatThrownBy(() -> tokens.issue("app-1", user, 42)).isInstanceOf(IllegalArgumentException.class);
        }
        String minted = WebTokens.newWebUser();
        assertThat(WebTokens.isWebUser(minted)).isTrue();
        assertThat(WebTokens.newWebUser()).isNotEqualTo(minted);
    }

    @Test
    void aSignedTokenOfTheOldFormWithoutAUserSaysNothing() {
        // Signed by this process, as tokens were before they named their user: appId:expiresAt.
        String payload = Base64.getUrlEncoder().withoutPadding().encodeToString(
                ("app-1:" + tokens.newExpiry()).getBytes(StandardCharsets.UTF_8));
        String old = "web-" + payload + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(
                signer.sign(payload.getBytes(StandardCharsets.US_ASCII)));

        assertThat(tokens.read(old)).isEmpty();
    }
}
