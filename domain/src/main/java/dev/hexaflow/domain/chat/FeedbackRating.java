package dev.hexaflow.domain.chat;

/** What an end user thought of an answer. */
public enum FeedbackRating {
    LIKE("like"),
    DISLIKE("dislike");

    private final String wireName;

    FeedbackRating(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /** @throws IllegalArgumentException naming the text for a rating other than like and dislike */
    public static FeedbackRating fromWire(String text) {
        for (FeedbackRating rating : values()) {
            if (rating.wireName.equals(text)) {
                return rating;
            }
        }
        throw new IllegalArgumentException("rating must be like, dislike or null, was '" + text + "'");
    }
}
