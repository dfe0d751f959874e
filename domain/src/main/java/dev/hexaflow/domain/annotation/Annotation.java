package dev.hexaflow.domain.annotation;

/**
 * A question an app's operator answered ahead of time, as Dify's message_annotations row: when the app's
 * annotation reply is on, a chat message close enough to the question is answered with this answer, no model
 * asked.
 *
 * @param hitCount  how many chat messages it has answered
 * @param createdAt seconds since the epoch
 */
public record Annotation(String id, String appId, String question, String answer, long hitCount, long createdAt) {

    /** The longest question Dify takes (its import's limit), in characters. */
    public static final int MAX_QUESTION = 2000;
    /** The longest answer Dify takes (its import's limit), in characters. */
    public static final int MAX_ANSWER = 10_000;

    public Annotation {
        if (id == null || appId == null || question == null || answer == null) {
            throw new IllegalArgumentException("an annotation needs an id, an app, a question and an answer");
        }
    }

    /** The same annotation with a new question and answer; its hits and age stay. */
    public Annotation edited(String newQuestion, String newAnswer) {
        return new Annotation(id, appId, newQuestion, newAnswer, hitCount, createdAt);
    }
}
