package dev.hexaflow.domain.annotation;

/**
 * An app's annotation reply, on: Dify's app_annotation_settings row with its collection binding's model names. An
 * app with no setting answers every message from its model.
 *
 * @param scoreThreshold the least similarity (0 to 1) a message needs to its annotation's question
 * @param createdAt      seconds since the epoch
 */
public record AnnotationSetting(String appId, double scoreThreshold, String embeddingProviderName,
        String embeddingModelName, long createdAt) {

    public AnnotationSetting {
        if (appId == null || embeddingProviderName == null || embeddingModelName == null) {
            throw new IllegalArgumentException("an annotation setting needs an app and its embedding model's names");
        }
    }
}
