package dev.hexaflow.domain.annotation;

/**
 * A chat message an annotation answered, as Dify's app_annotation_hit_histories row: the message's query, the
 * annotation's question and answer as they were then, and how close the query was.
 *
 * @param endUserId the end user who asked
 * @param source    where the message came from: {@code api} for the Service API and web pages, as Dify's
 * @param createdAt seconds since the epoch
 */
public record AnnotationHit(String id, String annotationId, String appId, String endUserId, String query,
        String source, double score, String messageId, String annotationQuestion, String annotationAnswer,
        long createdAt) {
}
