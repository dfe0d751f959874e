package dev.hexaflow.application.apps.service;

import dev.hexaflow.application.common.port.out.Signer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Web page tokens: {@code web-} + the web user the token acts for, the app's id and the token's end (Unix
 * seconds), signed by this process's {@link Signer}. Nothing is kept per token; a token outlives neither its time
 * nor the process, and a page asks for a new one when its token is refused. A token without a user (from before
 * tokens named one) says nothing.
 */
public final class WebTokens {

    static final String PREFIX = "web-";
    static final Duration LIFETIME = Duration.ofHours(1);
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();
    /** The ids a page keeps in local storage, and the only ones a token may act for. */
    private static final Pattern WEB_USER = Pattern.compile("web-[0-9a-f]{32}");
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Signer signer;
    private final Clock clock;

    public WebTokens(Signer signer, Clock clock) {
        this.signer = signer;
        this.clock = clock;
    }

    static boolean looksLikeToken(String text) {
        return text != null && text.startsWith(PREFIX);
    }

    /** Whether {@code user} has the form of the ids pages keep: {@code web-} and 32 lowercase hex digits. */
    static boolean isWebUser(String user) {
        return user != null && WEB_USER.matcher(user).matches();
    }

    /**
     * A new web user's id, of 128 random bits: a page token is handed to whoever names the id, so the id is the
     * browser's secret, and must not be guessed.
     */
    static String newWebUser() {
        byte[] bits = new byte[16];
        RANDOM.nextBytes(bits);
        return "web-" + HexFormat.of().formatHex(bits);
    }

    /** A token for {@code user} of the app that ends at {@code expiresAt} (Unix seconds). */
    String issue(String appId, String user, long expiresAt) {
        if (!isWebUser(user)) {
            throw new IllegalArgumentException("a page token acts for a web user (web- and 32 hex digits)");
        }
        String payload = ENCODER.encodeToString((user + ":" + appId + ":" + expiresAt)
                .getBytes(StandardCharsets.UTF_8));
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
            int first = claims.indexOf(':');
            int last = claims.lastIndexOf(':');
            String user = claims.substring(0, first);
            if (first == last || !isWebUser(user)) {
                return Optional.empty();
            }
            return Optional.of(new Claims(claims.substring(first + 1, last), user,
                    Long.parseLong(claims.substring(last + 1))));
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

    record Claims(String appId, String user, long expiresAt) {
    }
}
