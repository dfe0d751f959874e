package dev.hexaflow.domain.knowledge;

import java.time.Instant;

/**
 * A metadata field of a knowledge base (Dify's dataset metadata): documents of the base hold a value under its name,
 * which metadata filters test. Its name is none of the built-in fields' ({@link BuiltInMetadata}).
 */
public record MetadataField(String id, String baseId, String name, MetadataType type, Instant created) {

    /** Dify's limit on a field's name. */
    public static final int MAX_NAME = 255;

    /** Hexaflow's limit on the fields of one base: Dify has none, but each is kept on every document that uses it. */
    public static final int MAX_PER_BASE = 100;

    public MetadataField {
        if (id == null || id.isBlank() || baseId == null || baseId.isBlank()) {
            throw new IllegalArgumentException("id and baseId must not be blank");
        }
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("Metadata name cannot be empty.");
        }
        if (name.length() > MAX_NAME) {
            throw new IllegalArgumentException("Metadata name cannot exceed " + MAX_NAME + " characters.");
        }
        if (BuiltInMetadata.names().contains(name)) {
            throw new IllegalArgumentException("Metadata name already exists in Built-in fields.");
        }
        if (type == null || created == null) {
            throw new IllegalArgumentException("type and created must not be null");
        }
    }

    public MetadataField renamed(String other) {
        return new MetadataField(id, baseId, other, type, created);
    }
}
