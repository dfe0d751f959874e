package dev.hexaflow.domain.knowledge;

import java.util.Optional;

/** Dify's {@code indexing_technique}: with vectors from an embedding model, or words only. */
public enum IndexingTechnique {
    HIGH_QUALITY("high_quality"),
    ECONOMY("economy");

    private final String wireName;

    IndexingTechnique(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static Optional<IndexingTechnique> fromWireName(String name) {
        for (IndexingTechnique technique : values()) {
            if (technique.wireName.equals(name)) {
                return Optional.of(technique);
            }
        }
        return Optional.empty();
    }
}
