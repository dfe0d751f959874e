package dev.hexaflow.domain.knowledge;

import java.util.List;

/**
 * A piece of a document (Dify's segment), searched on its own.
 *
 * @param position its place in the document, from 1
 * @param indexNodeHash the hash of its content, which tells whether an edit changed it
 * @param hitCount how many times a search returned it
 */
public record Chunk(String id, String documentId, String baseId, int position, String content, int wordCount,
        int tokens, List<String> keywords, String indexNodeHash, long hitCount, boolean enabled) {

    public Chunk {
        if (id == null || id.isBlank() || documentId == null || baseId == null) {
            throw new IllegalArgumentException("id, documentId and baseId must not be blank");
        }
        if (position < 1) {
            throw new IllegalArgumentException("position must be at least 1, was " + position);
        }
        if (content == null || content.isBlank()) {
            throw new IllegalArgumentException("content must not be blank");
        }
        keywords = keywords == null ? List.of() : List.copyOf(keywords);
        if (indexNodeHash == null) {
            throw new IllegalArgumentException("indexNodeHash must not be null");
        }
    }

    /** The chunk with new text: its counts and hash follow the text. */
    public Chunk withContent(String text) {
        return new Chunk(id, documentId, baseId, position, text, TextMeasure.words(text), TextMeasure.tokens(text),
                keywords, TextMeasure.hash(text), hitCount, enabled);
    }

    public Chunk withEnabled(boolean on) {
        return new Chunk(id, documentId, baseId, position, content, wordCount, tokens, keywords, indexNodeHash,
                hitCount, on);
    }
}
