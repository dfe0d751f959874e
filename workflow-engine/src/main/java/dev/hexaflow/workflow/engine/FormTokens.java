package dev.hexaflow.workflow.engine;

import java.security.SecureRandom;
import java.util.Base64;

/** The tokens that open forms to whoever holds them: 24 random bytes, URL-safe, so that none can be guessed. */
public final class FormTokens {

    private static final SecureRandom RANDOM = new SecureRandom();

    private FormTokens() {
    }

    public static String next() {
        byte[] token = new byte[24];
        RANDOM.nextBytes(token);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(token);
    }
}
