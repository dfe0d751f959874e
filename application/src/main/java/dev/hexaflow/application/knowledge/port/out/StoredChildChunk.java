package dev.hexaflow.application.knowledge.port.out;

import dev.hexaflow.domain.knowledge.ChildChunk;
import java.util.Optional;

/** A child chunk as kept, with its vector when its base has an embedding model and the embedding call succeeded. */
public record StoredChildChunk(ChildChunk child, Optional<float[]> vector) {

    public StoredChildChunk {
        if (child == null) {
            throw new IllegalArgumentException("child must not be null");
        }
        vector = vector == null ? Optional.empty() : vector;
    }

    public static StoredChildChunk of(ChildChunk child, float[] vector) {
        return new StoredChildChunk(child, Optional.ofNullable(vector));
    }

    public String id() {
        return child.id();
    }

    /** The child as the index holds it. */
    public StoredChunk searchable() {
        return new StoredChunk(child.searchable(), vector);
    }
}
