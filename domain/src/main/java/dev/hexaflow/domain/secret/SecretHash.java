package dev.hexaflow.domain.secret;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * The SHA-256 of a secret (an API key or token), which is all that is ever stored of it. Keys are long
 * random strings, so an unsalted fast hash is enough to make a leaked table useless.
 */
public record SecretHash(String hex) {

    private static final Pattern SHA256_HEX = Pattern.compile("[0-9a-f]{64}");

    public SecretHash {
        if (hex == null || !SHA256_HEX.matcher(hex).matches()) {
            throw new IllegalArgumentException("hex must be 64 lowercase hex digits");
        }
    }

    public static SecretHash of(String secret) {
        if (secret == null) {
            throw new IllegalArgumentException("secret must not be null");
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
            return new SecretHash(HexFormat.of().formatHex(digest));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
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
}
