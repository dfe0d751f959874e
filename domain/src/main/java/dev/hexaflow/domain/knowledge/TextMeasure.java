package dev.hexaflow.domain.knowledge;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * How long a text is, as Dify counts it: its word count is its length in characters ({@code len(content)}); its
 * tokens are estimated without a tokenizer (Dify counts GPT-2 tokens): a han, kana or hangul character is one
 * token, a run of letters or digits one per four characters, anything else but spaces one each, so that a chunk
 * of {@code max_tokens} is about as long as Dify's.
 */
public final class TextMeasure {

    private TextMeasure() {
    }

    public static int words(String text) {
        return text.codePointCount(0, text.length());
    }

    public static int tokens(String text) {
        int tokens = 0;
        int run = 0;
        for (int i = 0; i < text.length(); ) {
            int c = text.codePointAt(i);
            i += Character.charCount(c);
            if (wide(c)) {
                tokens += (run + 3) / 4;
                run = 0;
                tokens++;
            } else if (Character.isLetterOrDigit(c)) {
                run++;
            } else {
                tokens += (run + 3) / 4;
                run = 0;
                if (!Character.isWhitespace(c)) {
                    tokens++;
                }
            }
        }
        return tokens + (run + 3) / 4;
    }

    /** The longest start of the text that counts at most {@code limit} tokens. */
    public static String firstTokens(String text, int limit) {
        if (tokens(text) <= limit) {
            return text;
        }
        int low = 0;
        int high = text.length();
        while (low < high) {
            int middle = (low + high + 1) >>> 1;
            if (tokens(text.substring(0, middle)) <= limit) {
                low = middle;
            } else {
                high = middle - 1;
            }
        }
        return text.substring(0, low);
    }

    /** The SHA-256 of the text, in hex: the same text, the same hash. */
    public static String hash(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    private static boolean wide(int c) {
        Character.UnicodeScript script = Character.UnicodeScript.of(c);
        return script == Character.UnicodeScript.HAN || script == Character.UnicodeScript.HIRAGANA
                || script == Character.UnicodeScript.KATAKANA || script == Character.UnicodeScript.HANGUL;
    }
}
