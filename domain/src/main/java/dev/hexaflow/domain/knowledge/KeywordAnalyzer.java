package dev.hexaflow.domain.knowledge;

import java.util.Optional;

/**
 * How a base's keyword search reads words, in its text and in a query alike (Hexaflow's {@code keyword_analyzer};
 * Dify has none). {@link #AUTO} is the default: each word by its script, so a query finds the forms of an English
 * word and a Chinese or Japanese text needs no spaces.
 */
public enum KeywordAnalyzer {
    /** English words stemmed (park, parks, parking), Chinese, Japanese and Korean as pairs of characters. */
    AUTO("auto"),
    /** Lucene's English analysis: possessives and stop words out, Porter stemming. */
    ENGLISH("english"),
    /** Lucene's CJK analysis: pairs of characters, other words whole (Hexaflow's search before 38). */
    CJK("cjk"),
    /** Lucene's standard analysis: words lower-cased as they are, each CJK character a word of its own. */
    STANDARD("standard");

    private final String wireName;

    KeywordAnalyzer(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static Optional<KeywordAnalyzer> fromWireName(String name) {
        for (KeywordAnalyzer analyzer : values()) {
            if (analyzer.wireName.equals(name)) {
                return Optional.of(analyzer);
            }
        }
        return Optional.empty();
    }
}
