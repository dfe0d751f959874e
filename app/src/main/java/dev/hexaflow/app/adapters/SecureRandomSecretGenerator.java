package dev.hexaflow.app.adapters;

import dev.hexaflow.application.common.port.out.SecretGenerator;
import java.security.SecureRandom;

/** Secrets of letters and digits from {@link SecureRandom}: 36 symbols, about 5.2 bits each. */
public final class SecureRandomSecretGenerator implements SecretGenerator {

    private static final char[] SYMBOLS = "abcdefghijklmnopqrstuvwxyz0123456789".toCharArray();

    private final SecureRandom random = new SecureRandom();

    @Override
    public String newSecret(int length) {
        char[] secret = new char[length];
        for (int i = 0; i < length; i++) {
            secret[i] = SYMBOLS[random.nextInt(SYMBOLS.length)];
        }
        return new String(secret);
    }
}
