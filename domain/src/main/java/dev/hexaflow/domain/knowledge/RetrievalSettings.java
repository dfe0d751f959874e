package dev.hexaflow.domain.knowledge;

import java.util.Optional;

/**
 * How a base is searched unless a query says otherwise (Dify's {@code retrieval_model}): the method, how many
 * chunks at most, the lowest score kept (none: every score), and the weights of a hybrid search's two scores.
 */
public record RetrievalSettings(SearchMethod method, int topK, Optional<Double> scoreThreshold, double vectorWeight,
        double keywordWeight) {

    /** Dify's defaults: top 4, no threshold, hybrid weights 0.7 meaning and 0.3 words. */
    public static RetrievalSettings defaults(SearchMethod method) {
        return new RetrievalSettings(method, 4, Optional.empty(), 0.7, 0.3);
    }

    public RetrievalSettings {
        if (method == null) {
            throw new IllegalArgumentException("method must not be null");
        }
        if (topK < 1 || topK > 100) {
            throw new IllegalArgumentException("top_k must be between 1 and 100, was " + topK);
        }
        scoreThreshold = scoreThreshold == null ? Optional.empty() : scoreThreshold;
        scoreThreshold.ifPresent(t -> {
            if (t < 0 || t > 1) {
                throw new IllegalArgumentException("score_threshold must be between 0 and 1, was " + t);
            }
        });
        if (vectorWeight < 0 || keywordWeight < 0 || vectorWeight + keywordWeight <= 0) {
            throw new IllegalArgumentException("weights must not be negative and must not both be 0");
        }
    }

    public RetrievalSettings withMethod(SearchMethod other) {
        return new RetrievalSettings(other, topK, scoreThreshold, vectorWeight, keywordWeight);
    }

    /** Whether a hit of this score is kept. */
    public boolean keeps(double score) {
        return scoreThreshold.map(t -> score >= t).orElse(true);
    }
}
