package dev.hexaflow.application.knowledge.port.out;

import java.util.List;
import java.util.Optional;

/** Scores texts against a query with one rerank model: how well each answers it, from 0 to 1. */
public interface Reranker {

    /** The model, or empty when no rerank endpoint is configured (a request to rerank then keeps its own scores). */
    Optional<String> model();

    /**
     * The {@code topN} texts that best answer the query, best first, each by its index in {@code documents}.
     *
     * @throws RerankException when the endpoint fails or answers something else
     */
    List<Ranked> rerank(String query, List<String> documents, int topN);

    /** One text's place in the request and its relevance score. */
    record Ranked(int index, double score) {
    }

    class RerankException extends RuntimeException {
        public RerankException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
