package dev.hexaflow.domain.knowledge;

/**
 * How a document's text is cleaned and split into chunks (Dify's {@code process_rule}): automatic (Dify's
 * {@code AUTOMATIC_RULES}: extra spaces removed, URLs and emails kept, at most 500 tokens a chunk, 50 of overlap,
 * split where the text breaks: paragraphs, sentences, words) or custom (a separator split first, then the same).
 *
 * @param separator the custom separator, split on first ({@code \n\n}, {@code ***}); empty in automatic mode
 */
public record SplittingRules(Mode mode, String separator, int maxTokens, int overlap, boolean removeExtraSpaces,
        boolean removeUrlsEmails) {

    /** Dify's limit on {@code max_tokens} (its INDEXING_MAX_SEGMENTATION_TOKENS_LENGTH default). */
    public static final int MAX_TOKENS = 4000;

    public static final SplittingRules AUTOMATIC = new SplittingRules(Mode.AUTOMATIC, "", 500, 50, true, false);

    public enum Mode {
        AUTOMATIC, CUSTOM
    }

    public SplittingRules {
        if (mode == null) {
            throw new IllegalArgumentException("mode must not be null");
        }
        separator = separator == null ? "" : separator;
        // Dify's messages: its indexing runner's for the length, its text splitter's for the overlap.
        if (maxTokens < 50 || maxTokens > MAX_TOKENS) {
            throw new IllegalArgumentException("Custom segment length should be between 50 and " + MAX_TOKENS + ".");
        }
        if (overlap > maxTokens) {
            throw new IllegalArgumentException("Got a larger chunk overlap (" + overlap + ") than chunk size ("
                    + maxTokens + "), should be smaller.");
        }
        // Beyond Dify, which takes an overlap of a whole chunk: each chunk would carry all of the one before.
        if (overlap < 0 || overlap == maxTokens) {
            throw new IllegalArgumentException("chunk_overlap must be at least 0 and less than max_tokens, was "
                    + overlap);
        }
    }

    public static SplittingRules custom(String separator, int maxTokens, int overlap, boolean removeExtraSpaces,
            boolean removeUrlsEmails) {
        return new SplittingRules(Mode.CUSTOM, unescape(separator), maxTokens, overlap, removeExtraSpaces,
                removeUrlsEmails);
    }

    /** Dify's form takes the separator as typed: {@code \n} written as a backslash and an n. */
    private static String unescape(String separator) {
        return separator == null ? "" : separator.replace("\\n", "\n").replace("\\t", "\t");
    }
}
