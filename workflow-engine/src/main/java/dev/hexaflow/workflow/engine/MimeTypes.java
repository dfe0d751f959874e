package dev.hexaflow.workflow.engine;

import java.util.Locale;
import java.util.Map;

/** The media types of the file extensions Dify's file categories know. */
public final class MimeTypes {

    private static final Map<String, String> BY_EXTENSION = Map.ofEntries(
            Map.entry(".txt", "text/plain"), Map.entry(".md", "text/markdown"), Map.entry(".markdown", "text/markdown"),
            Map.entry(".mdx", "text/markdown"), Map.entry(".html", "text/html"), Map.entry(".htm", "text/html"),
            Map.entry(".xml", "text/xml"), Map.entry(".csv", "text/csv"), Map.entry(".json", "application/json"),
            Map.entry(".pdf", "application/pdf"),
            Map.entry(".docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
            Map.entry(".doc", "application/msword"),
            Map.entry(".xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
            Map.entry(".xls", "application/vnd.ms-excel"),
            Map.entry(".pptx", "application/vnd.openxmlformats-officedocument.presentationml.presentation"),
            Map.entry(".ppt", "application/vnd.ms-powerpoint"), Map.entry(".epub", "application/epub+zip"),
            Map.entry(".eml", "message/rfc822"), Map.entry(".msg", "application/vnd.ms-outlook"),
            Map.entry(".png", "image/png"), Map.entry(".jpg", "image/jpeg"), Map.entry(".jpeg", "image/jpeg"),
            Map.entry(".gif", "image/gif"), Map.entry(".webp", "image/webp"), Map.entry(".svg", "image/svg+xml"),
            Map.entry(".mp3", "audio/mpeg"), Map.entry(".m4a", "audio/mp4"), Map.entry(".wav", "audio/wav"),
            Map.entry(".webm", "video/webm"), Map.entry(".amr", "audio/amr"), Map.entry(".mpga", "audio/mpeg"),
            Map.entry(".mp4", "video/mp4"), Map.entry(".mov", "video/quicktime"), Map.entry(".mpeg", "video/mpeg"));

    private MimeTypes() {
    }

    /** The media type of an extension (with its dot), or application/octet-stream when unknown. */
    public static String of(String extension) {
        return BY_EXTENSION.getOrDefault(extension == null ? "" : extension.toLowerCase(Locale.ROOT),
                "application/octet-stream");
    }
}
