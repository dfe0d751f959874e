package dev.hexaflow.domain.chat;

/** Who gave a feedback, by Dify's from_source: an end user ("user", through the Service API or the page). */
public enum FeedbackSource {
    USER("user"),
    ADMIN("admin");

    private final String wireName;

    FeedbackSource(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static FeedbackSource fromWire(String text) {
        for (FeedbackSource source : values()) {
            if (source.wireName.equals(text)) {
                return source;
            }
        }
        throw new IllegalArgumentException("a feedback comes from user or admin, was '" + text + "'");
    }
}
