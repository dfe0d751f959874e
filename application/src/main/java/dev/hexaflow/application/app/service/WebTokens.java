package dev.hexaflow.application.app.service;

import dev.hexaflow.application.common.port.out.Signer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;

/**
 * Web page tokens: {@code web-} + the app's id and the token's end (Unix seconds), signed by this process's
 * {@link Signer}. Nothing is kept per token; a token outlives neither its time nor the process, and a page asks
 * for a new one when its token is refused.
 */
public final class WebTokens {

    static final String PREFIX = "web-";
    static final Duration LIFETIME = Duration.ofHours(1);
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

    private final Signer signer;
    private final Clock clock;

    public WebTokens(Signer signer, Clock clock) {
        this.signer = signer;
        this.clock = clock;
    }

    static boolean looksLikeToken(String text) {
        return text != null && text.startsWith(PREFIX);
    }

    /** A token for the app that ends at {@code expiresAt} (Unix seconds). */
    String issue(String appId, long expiresAt) {
        String payload = ENCODER.encodeToString((appId + ":" + expiresAt).getBytes(StandardCharsets.UTF_8));
        return PREFIX + payload + "." + ENCODER.encodeToString(sign(payload));
    }

    long newExpiry() {
        return clock.instant().plus(LIFETIME).getEpochSecond();
    }

    /** What a token says, if this process signed it; whether it has ended is the caller's to ask. */
    Optional<Claims> read(String token) {
        if (!looksLikeToken(token)) {
            return Optional.empty();
        }
        String body = token.substring(PREFIX.length());
        int dot = body.indexOf('.');
        if (dot < 0) {
            return Optional.empty();
        }
        String payload = body.substring(0, dot);
        try {
            if (!MessageDigest.isEqual(sign(payload), DECODER.decode(body.substring(dot + 1)))) {
                return Optional.empty();
            }
            String claims = new String(DECODER.decode(payload), StandardCharsets.UTF_8);
            int colon = claims.lastIndexOf(':');
            return Optional.of(new Claims(claims.substring(0, colon), Long.parseLong(claims.substring(colon + 1))));
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            return Optional.empty();
        }
    }

    boolean hasEnded(Claims claims) {
        return clock.instant().getEpochSecond() >= claims.expiresAt();
    }

    private byte[] sign(String payload) {
        return signer.sign(payload.getBytes(StandardCharsets.US_ASCII));
    }

    record Claims(String appId, long expiresAt) {
    }
}
