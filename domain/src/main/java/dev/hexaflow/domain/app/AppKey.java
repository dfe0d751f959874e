package dev.hexaflow.domain.app;

import dev.hexaflow.domain.secret.SecretHash;

/**
 * An app's API key as kept: its hash, its app, and a hint that tells it apart in a list (its last four characters,
 * which alone give away nothing of the other 20). The key itself is {@code app-} and 24 letters and digits.
 */
public record AppKey(SecretHash hash, String appId, long createdAt, String hint) {

    public static final String PREFIX = "app-";
    public static final int RANDOM_LENGTH = 24;

    public AppKey {
        if (hash == null || appId == null) {
            throw new IllegalArgumentException("an app key needs its hash and app");
        }
    }

    /** A key kept without a hint (those issued before hints were kept). */
    public AppKey(SecretHash hash, String appId, long createdAt) {
        this(hash, appId, createdAt, null);
    }

    /** The hint of a key: {@code app-…} and its last four characters. */
    public static String hintOf(String key) {
        return PREFIX + "\u2026" + key.substring(Math.max(0, key.length() - 4));
    }

    /**
     * Whether a text has the form of an app key ({@code app-} and 24 ASCII letters and digits); a text that does not
     * is no key, without a lookup. Checked by hand, as every request asks it: a regular expression costs a matcher.
     */
    public static boolean looksLikeKey(String text) {
        if (text == null || text.length() != PREFIX.length() + RANDOM_LENGTH || !text.startsWith(PREFIX)) {
            return false;
        }
        for (int i = PREFIX.length(); i < text.length(); i++) {
            char c = text.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9')) {
                return false;
            }
        }
        return true;
    }
}
