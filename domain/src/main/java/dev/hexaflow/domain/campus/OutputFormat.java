package dev.hexaflow.domain.campus;

import java.util.Locale;
import java.util.Optional;

/** The output formats a feed method can be asked for, by the extension of its path. */
public enum OutputFormat {
    JSON, XML, ICS;

    public String extension() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<OutputFormat> fromExtension(String extension) {
        for (OutputFormat format : values()) {
            if (format.extension().equals(extension)) {
                return Optional.of(format);
            }
        }
        return Optional.empty();
    }
}
