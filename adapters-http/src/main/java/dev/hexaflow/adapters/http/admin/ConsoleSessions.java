package dev.hexaflow.adapters.http.admin;

import dev.hexaflow.domain.secret.SecretHash;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The console's sign-in sessions: a value the browser keeps in a cookie instead of the admin token, made of when it
 * ends, a random nonce and an HMAC of both. The HMAC's key is derived from the admin token's hash, so every instance
 * that shares the token accepts the value, no session store is needed, and a new admin token ends every session. A
 * session signed out is remembered (until it would have ended) by the instance that signed it out.
 */
public final class ConsoleSessions {

    /** The cookie that carries the session. */
    public static final String COOKIE = "hexaflow_console";
    /** How long a session lasts: a working day, after which the operator signs in again. */
    public static final Duration LASTS = Duration.ofHours(8);
    /** Sessions remembered as signed out at most; past that the oldest-ending are forgotten first. */
    static final int MOST_ENDED = 10_000;

    private static final Base64.Encoder BASE64 = Base64.getUrlEncoder().withoutPadding();

    private final Supplier<SecretHash> adminToken;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, Long> ended = new ConcurrentHashMap<>();

    /** @param adminToken the admin token's hash, asked for at each use (see {@link AdminAuthorization}) */
    public ConsoleSessions(Supplier<SecretHash> adminToken, Clock clock) {
        this.adminToken = adminToken;
        this.clock = clock;
    }

    /** A session signed in with {@code token}, when it is the admin token; checked in constant time. */
    public Optional<Session> open(String token) {
        if (token == null || !adminToken.get().matches(token.strip())) {
            return Optional.empty();
        }
        byte[] nonce = new byte[18];
        random.nextBytes(nonce);
        long endsAt = clock.instant().plus(LASTS).getEpochSecond();
        String payload = endsAt + "." + BASE64.encodeToString(nonce);
        return Optional.of(new Session(payload + "." + mac(payload), endsAt));
    }

    /** Whether {@code value} is a session this server made, not yet ended and not signed out. */
    public boolean isOpen(String value) {
        return payloadOf(value).filter(payload -> !ended.containsKey(payload)).isPresent();
    }

    /** Signs the session out: an open one is refused from now on. */
    public void end(String value) {
        payloadOf(value).ifPresent(payload -> {
            long now = clock.instant().getEpochSecond();
            if (ended.size() >= MOST_ENDED) {
                ended.values().removeIf(endsAt -> endsAt <= now);
            }
            ended.put(payload, Long.parseLong(payload.substring(0, payload.indexOf('.'))));
        });
    }

    /** The signed part of a session value whose HMAC holds and whose time has not run out. */
    private Optional<String> payloadOf(String value) {
        if (value == null || value.length() > 200) {
            return Optional.empty();
        }
        int last = value.lastIndexOf('.');
        int first = value.indexOf('.');
        if (first <= 0 || last == first) {
            return Optional.empty();
        }
        String payload = value.substring(0, last);
        byte[] given = value.substring(last + 1).getBytes(StandardCharsets.US_ASCII);
        if (!MessageDigest.isEqual(given, mac(payload).getBytes(StandardCharsets.US_ASCII))) {
            return Optional.empty();
        }
        long endsAt;
        try {
            endsAt = Long.parseLong(payload.substring(0, first));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        return endsAt > clock.instant().getEpochSecond() ? Optional.of(payload) : Optional.empty();
    }

    private String mac(String payload) {
        try {
            Mac hmac = Mac.getInstance("HmacSHA256");
            hmac.init(new SecretKeySpec(key(), "HmacSHA256"));
            return BASE64.encodeToString(hmac.doFinal(payload.getBytes(StandardCharsets.US_ASCII)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JDK has HmacSHA256", e);
        }
    }

    /** A key of its own for sessions, so that a session value says nothing of the token's hash. */
    private byte[] key() throws GeneralSecurityException {
        return MessageDigest.getInstance("SHA-256").digest(("hexaflow console session\n" + adminToken.get().hex())
                .getBytes(StandardCharsets.US_ASCII));
    }

    /** A session as the cookie carries it, and when it ends (Unix seconds). */
    public record Session(String value, long endsAt) {

        @Override
        public String toString() {
            return "Session[ends " + endsAt + "]";
        }
    }
}
