package dev.hexaflow.domain.knowledge;

import dev.hexaflow.domain.secret.SecretHash;
import java.util.regex.Pattern;

/**
 * A key of Dify's Knowledge API as kept: its hash. The key itself is {@code dataset-} and 24 letters and digits; it
 * opens every knowledge base (Dify's dataset keys are workspace-wide) and nothing else.
 */
public record DatasetKey(SecretHash hash, long createdAt) {

    public static final String PREFIX = "dataset-";
    public static final int RANDOM_LENGTH = 24;
    private static final Pattern FORM = Pattern.compile("dataset-[A-Za-z0-9]{24}");

    public DatasetKey {
        if (hash == null) {
            throw new IllegalArgumentException("a dataset key needs its hash");
        }
    }

    /** Whether a text has the form of a dataset key; a text that does not is no key, without a lookup. */
    public static boolean looksLikeKey(String text) {
        return text != null && FORM.matcher(text).matches();
    }
}
