package dev.hexaflow.domain.app;

import java.util.Locale;
import java.util.Set;

/** Dify's file categories by extension, each with its upload size limit. */
public enum FileCategory {
    IMAGE(Set.of("jpg", "jpeg", "png", "webp", "gif", "svg")),
    VIDEO(Set.of("mp4", "mov", "mpeg", "webm")),
    AUDIO(Set.of("mp3", "m4a", "wav", "amr", "mpga")),
    DOCUMENT(Set.of("txt", "markdown", "md", "mdx", "pdf", "html", "htm", "xlsx", "xls", "docx", "csv", "vtt",
            "properties", "doc", "eml", "msg", "pptx", "xml", "epub", "ppt", "json")),
    CUSTOM(Set.of());

    private final Set<String> extensions;

    FileCategory(Set<String> extensions) {
        this.extensions = extensions;
    }

    /** The category of an extension (with or without its dot); anything unknown is custom. */
    public static FileCategory of(String extension) {
        String plain = extension == null ? "" : extension.replaceFirst("^\\.", "").toLowerCase(Locale.ROOT);
        for (FileCategory category : values()) {
            if (category.extensions.contains(plain)) {
                return category;
            }
        }
        return CUSTOM;
    }

    /** The name Dify gives the category in file mappings: image, video, audio, document, custom. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
