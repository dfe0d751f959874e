package dev.hexaflow.application.knowledge.port.out;

import dev.hexaflow.domain.knowledge.Chunk;
import java.util.Optional;

/** A chunk as kept, with its vector when its base has an embedding model and the embedding call succeeded. */
public record StoredChunk(Chunk chunk, Optional<float[]> vector) {

    public StoredChunk {
        if (chunk == null) {
            throw new IllegalArgumentException("chunk must not be null");
        }
        vector = vector == null ? Optional.empty() : vector;
    }

    public static StoredChunk of(Chunk chunk, float[] vector) {
        return new StoredChunk(chunk, Optional.ofNullable(vector));
    }

    public String id() {
        return chunk.id();
    }
}
