package dev.hexaflow.domain.trigger;

import java.util.Optional;

/** The content type a webhook trigger accepts: Dify's five. */
public enum WebhookContentType {
    JSON("application/json"),
    FORM_DATA("multipart/form-data"),
    FORM_URLENCODED("application/x-www-form-urlencoded"),
    TEXT("text/plain"),
    BINARY("application/octet-stream");

    private final String wireName;

    WebhookContentType(String wireName) {
        this.wireName = wireName;
    }

    /** The media type as Dify's node data and the request's header spell it. */
    public String wireName() {
        return wireName;
    }

    /** Form bodies arrive as strings, so their values are converted rather than type-checked. */
    public boolean isForm() {
        return this == FORM_DATA || this == FORM_URLENCODED;
    }

    /** A body Dify keeps whole under {@code raw} instead of reading fields from it. */
    public boolean isRaw() {
        return this == TEXT || this == BINARY;
    }

    /** The content type with exactly this wire name; empty for any other. */
    public static Optional<WebhookContentType> fromWireName(String name) {
        for (WebhookContentType type : values()) {
            if (type.wireName.equals(name)) {
                return Optional.of(type);
            }
        }
        return Optional.empty();
    }
}
