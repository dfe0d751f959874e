package dev.hexaflow.application.knowledge.port.in;

import java.util.List;

/**
 * Chunks written by hand, added at the end of a document (Dify's create segments): each its text and the keywords
 * kept with it. At most {@link #MAX_CHUNKS} at once.
 */
public record AddChunksCommand(String documentId, List<NewChunk> chunks) {

    /** The most chunks one command adds, so that one request cannot hold the embedder and the index for long. */
    public static final int MAX_CHUNKS = 1000;

    public AddChunksCommand {
        if (documentId == null) {
            throw new IllegalArgumentException("documentId must not be null");
        }
        chunks = chunks == null ? List.of() : List.copyOf(chunks);
    }

    /** One chunk's text and keywords. */
    public record NewChunk(String content, List<String> keywords) {
        public NewChunk {
            keywords = keywords == null ? List.of() : List.copyOf(keywords);
        }
    }
}
