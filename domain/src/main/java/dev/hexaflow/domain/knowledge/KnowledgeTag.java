package dev.hexaflow.domain.knowledge;

import java.time.Instant;

/** A label on knowledge bases (Dify's knowledge tag), by which a list of bases can be narrowed. */
public record KnowledgeTag(String id, String name, Instant created) {

    public static final int MAX_NAME = 50;

    public KnowledgeTag {
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException("id must not be blank");
        }
        if (name == null || name.isBlank() || name.length() > MAX_NAME) {
            throw new IllegalArgumentException("Tag name must be between 1 to " + MAX_NAME + " characters.");
        }
        if (created == null) {
            throw new IllegalArgumentException("created must not be null");
        }
    }

    public KnowledgeTag renamed(String other) {
        return new KnowledgeTag(id, other, created);
    }
}
