package dev.hexaflow.domain.knowledge;

import java.util.List;

/**
 * A small piece of a parent chunk (Dify's child chunk, of a {@code hierarchical_model} document): the piece that is
 * searched, while a hit answers its parent's whole text, as Dify's parent-child retrieval does.
 *
 * @param segmentId the id of its parent chunk
 * @param position its place in the parent, from 1
 */
public record ChildChunk(String id, String segmentId, String documentId, String baseId, int position,
        String content) {

    public ChildChunk {
        if (id == null || id.isBlank() || segmentId == null || documentId == null || baseId == null) {
            throw new IllegalArgumentException("id, segmentId, documentId and baseId must not be blank");
        }
        if (position < 1) {
            throw new IllegalArgumentException("position must be at least 1, was " + position);
        }
        if (content == null || content.isBlank()) {
            throw new IllegalArgumentException("Content is empty");
        }
    }

    public int wordCount() {
        return TextMeasure.words(content);
    }

    public ChildChunk withContent(String text) {
        return new ChildChunk(id, segmentId, documentId, baseId, position, text);
    }

    /** The child as the index holds it: a chunk of its document under its own id. */
    public Chunk searchable() {
        return new Chunk(id, documentId, baseId, position, content, wordCount(), TextMeasure.tokens(content),
                List.of(), TextMeasure.hash(content), 0, true);
    }
}
