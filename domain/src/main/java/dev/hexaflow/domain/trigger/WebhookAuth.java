package dev.hexaflow.domain.trigger;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * How an operator protects a webhook trigger, which Dify leaves open to anyone with its URL: by a header holding
 * a secret, a bearer token, or an HMAC-SHA256 signature of the body. Comparisons take the same time whatever
 * the mistake, so that a caller cannot learn the secret a character at a time.
 *
 * @param kind       how calls prove themselves
 * @param headerName the header that carries the proof; null for {@link Kind#NONE}
 * @param secret     the shared secret, at least {@value #MINIMUM_SECRET_LENGTH} characters; null for none
 */
public record WebhookAuth(Kind kind, String headerName, String secret) {

    public static final int MINIMUM_SECRET_LENGTH = 16;
    public static final String DEFAULT_SIGNATURE_HEADER = "X-Hexaflow-Signature";
    private static final String AUTHORIZATION = "Authorization";
    private static final String BEARER_PREFIX = "Bearer ";
    private static final String SIGNATURE_PREFIX = "sha256=";

    /** The kinds of authentication, by the names settings use. */
    public enum Kind {
        NONE, HEADER, BEARER, HMAC;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Kind fromWireName(String name) {
            for (Kind kind : values()) {
                if (kind.wireName().equals(name)) {
                    return kind;
                }
            }
            throw new IllegalArgumentException("unknown webhook authentication '" + name
                    + "': use none, header, bearer or hmac");
        }
    }

    public WebhookAuth {
        Objects.requireNonNull(kind, "kind");
        switch (kind) {
            case NONE -> {
                headerName = null;
                secret = null;
            }
            case HEADER -> {
                if (headerName == null || headerName.isBlank()) {
                    throw new IllegalArgumentException("a header authentication needs the header's name");
                }
                headerName = headerName.strip();
            }
            case BEARER -> headerName = AUTHORIZATION;
            case HMAC -> headerName = headerName == null || headerName.isBlank()
                    ? DEFAULT_SIGNATURE_HEADER : headerName.strip();
        }
        if (kind != Kind.NONE && (secret == null || secret.length() < MINIMUM_SECRET_LENGTH)) {
            throw new IllegalArgumentException("a webhook secret needs at least " + MINIMUM_SECRET_LENGTH
                    + " characters");
        }
    }

    public static WebhookAuth none() {
        return new WebhookAuth(Kind.NONE, null, null);
    }

    /** The named header must hold exactly the secret. */
    public static WebhookAuth header(String headerName, String secret) {
        return new WebhookAuth(Kind.HEADER, headerName, secret);
    }

    /** {@code Authorization: Bearer <secret>}. */
    public static WebhookAuth bearer(String secret) {
        return new WebhookAuth(Kind.BEARER, null, secret);
    }

    /** The header (null for {@value #DEFAULT_SIGNATURE_HEADER}) holds the body's HMAC-SHA256 in hex. */
    public static WebhookAuth hmac(String headerName, String secret) {
        return new WebhookAuth(Kind.HMAC, headerName, secret);
    }

    /** Whether the call proves it knows the secret; always for {@link Kind#NONE}. */
    public boolean admits(WebhookCall call) {
        if (kind == Kind.NONE) {
            return true;
        }
        Optional<String> value = call.header(headerName).map(String::strip);
        if (value.isEmpty()) {
            return false;
        }
        return switch (kind) {
            case HEADER -> sameText(value.get(), secret);
            case BEARER -> value.get().regionMatches(true, 0, BEARER_PREFIX, 0, BEARER_PREFIX.length())
                    && sameText(value.get().substring(BEARER_PREFIX.length()).strip(), secret);
            // A multipart body reaches the check parsed, without its bytes: no signature can cover it.
            case HMAC -> !call.mediaType().equals("multipart/form-data")
                    && signatureMatches(value.get(), call.rawBody());
            case NONE -> true;
        };
    }

    /** The hex signature, with or without GitHub's {@code sha256=} prefix, in either case. */
    private boolean signatureMatches(String value, byte[] body) {
        String hex = value.regionMatches(true, 0, SIGNATURE_PREFIX, 0, SIGNATURE_PREFIX.length())
                ? value.substring(SIGNATURE_PREFIX.length()) : value;
        byte[] given;
        try {
            given = HexFormat.of().parseHex(hex.strip());
        } catch (IllegalArgumentException notHex) {
            return false;
        }
        return MessageDigest.isEqual(signature(secret, body), given);
    }

    /** The HMAC-SHA256 of a body with a secret, as a sender computes it. */
    public static byte[] signature(String secret, byte[] body) {
        return HmacSha256.of(secret.getBytes(StandardCharsets.UTF_8), body);
    }

    /** Compares digests, so that neither the content nor the length of the secret shows in the time taken. */
    private static boolean sameText(String given, String expected) {
        return MessageDigest.isEqual(sha256(given), sha256(expected));
    }

    private static byte[] sha256(String text) {
        return HmacSha256.sha256().digest(text.getBytes(StandardCharsets.UTF_8));
    }

    /** Never the secret: settings end up in logs. */
    @Override
    public String toString() {
        return "WebhookAuth[kind=" + kind.wireName() + (headerName == null ? "" : ", header=" + headerName) + "]";
    }
}
