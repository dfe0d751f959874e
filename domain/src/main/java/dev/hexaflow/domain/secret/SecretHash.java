package dev.hexaflow.domain.secret;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The SHA-256 of a secret (an API key or token), which is all that is ever stored of it. Keys are long
 * random strings, so an unsalted fast hash is enough to make a leaked table useless.
 */
public record SecretHash(String hex) {

    /**
     * A SHA-256 never used, copied for each hash: every request hashes its key, and {@code MessageDigest.getInstance}
     * looks the algorithm up among the providers each time. Copying a digest nobody updates is safe from any thread.
     */
    private static final MessageDigest UNUSED_SHA256 = sha256();
    private static final HexFormat HEX = HexFormat.of();
    private static final int LENGTH = 64;

    public SecretHash {
        if (!isSha256Hex(hex)) {
            throw new IllegalArgumentException("hex must be 64 lowercase hex digits");
        }
    }

    public static SecretHash of(String secret) {
        if (secret == null) {
            throw new IllegalArgumentException("secret must not be null");
        }
        return new SecretHash(HEX.formatHex(newSha256().digest(secret.getBytes(StandardCharsets.UTF_8))));
    }

    /** Whether {@code candidate} is the secret behind this hash, in time that does not depend on where they differ. */
    public boolean matches(String candidate) {
        if (candidate == null) {
            return false;
        }
        return MessageDigest.isEqual(
                of(candidate).hex.getBytes(StandardCharsets.US_ASCII), hex.getBytes(StandardCharsets.US_ASCII));
    }

    @Override
    public String toString() {
        return "SecretHash[" + hex.substring(0, 8) + "…]";
    }

    /** 64 lowercase hex digits, checked by hand: a regular expression costs a matcher a hash, on every request. */
    private static boolean isSha256Hex(String text) {
        if (text == null || text.length() != LENGTH) {
            return false;
        }
        for (int i = 0; i < LENGTH; i++) {
            char c = text.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }

    private static MessageDigest newSha256() {
        try {
            return (MessageDigest) UNUSED_SHA256.clone();
        } catch (CloneNotSupportedException e) {
            return sha256(); // a provider whose SHA-256 cannot be copied: looked up each time, as before
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
