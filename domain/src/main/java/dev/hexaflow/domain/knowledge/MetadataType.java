package dev.hexaflow.domain.knowledge;

import java.util.Optional;

/** The kind of value a metadata field holds, by Dify's wire names. */
public enum MetadataType {
    STRING("string"), NUMBER("number"), TIME("time");

    private final String wireName;

    MetadataType(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static Optional<MetadataType> fromWireName(String name) {
        for (MetadataType type : values()) {
            if (type.wireName.equals(name)) {
                return Optional.of(type);
            }
        }
        return Optional.empty();
    }
}
