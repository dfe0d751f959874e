package dev.hexaflow.domain.app;

import dev.hexaflow.domain.secret.SecretHash;
import java.util.regex.Pattern;

/**
 * An app's API key as kept: its hash, its app, and a hint that tells it apart in a list (its last four characters,
 * which alone give away nothing of the other 20). The key itself is {@code app-} and 24 letters and digits.
 */
public record AppKey(SecretHash hash, String appId, long createdAt, String hint) {

    public static final String PREFIX = "app-";
    public static final int RANDOM_LENGTH = 24;
    private static final Pattern FORM = Pattern.compile("app-[A-Za-z0-9]{24}");

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

    /** Whether a text has the form of an app key; a text that does not is no key, without a lookup. */
    public static boolean looksLikeKey(String text) {
        return text != null && FORM.matcher(text).matches();
    }
}
