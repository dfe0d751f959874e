package dev.hexaflow.domain.trigger;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * HMAC-SHA256 (RFC 2104) on {@link MessageDigest}: the domain may use {@code java..} alone, and
 * {@code javax.crypto.Mac} is outside it.
 */
final class HmacSha256 {

    private static final int BLOCK_SIZE = 64;

    private HmacSha256() {
    }

    static byte[] of(byte[] key, byte[] message) {
        byte[] block = new byte[BLOCK_SIZE];
        byte[] shortKey = key.length > BLOCK_SIZE ? sha256().digest(key) : key;
        System.arraycopy(shortKey, 0, block, 0, shortKey.length);
        byte[] inner = new byte[BLOCK_SIZE];
        byte[] outer = new byte[BLOCK_SIZE];
        for (int i = 0; i < BLOCK_SIZE; i++) {
            inner[i] = (byte) (block[i] ^ 0x36);
            outer[i] = (byte) (block[i] ^ 0x5c);
        }
        MessageDigest digest = sha256();
        digest.update(inner);
        byte[] innerHash = digest.digest(message);
        digest.update(outer);
        return digest.digest(innerHash);
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
