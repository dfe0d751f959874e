package dev.hexaflow.domain.knowledge;

import java.util.Optional;

/** How a knowledge base is searched, by Dify's {@code search_method} names. */
public enum SearchMethod {
    /** Dify's economy search: words only; here the same BM25 search as {@link #FULL_TEXT_SEARCH}. */
    KEYWORD_SEARCH("keyword_search"),
    /** Words, scored by BM25. */
    FULL_TEXT_SEARCH("full_text_search"),
    /** Meaning: the nearest chunk vectors to the query's vector. */
    SEMANTIC_SEARCH("semantic_search"),
    /** Both, each chunk scored by Dify's weighted sum of the two. */
    HYBRID_SEARCH("hybrid_search");

    private final String wireName;

    SearchMethod(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /** Whether it needs the chunks' vectors, so a base without an embedding model cannot serve it as asked. */
    public boolean needsVectors() {
        return this == SEMANTIC_SEARCH || this == HYBRID_SEARCH;
    }

    public static Optional<SearchMethod> fromWireName(String name) {
        for (SearchMethod method : values()) {
            if (method.wireName.equals(name)) {
                return Optional.of(method);
            }
        }
        return Optional.empty();
    }
}
