package dev.hexaflow.application.knowledge.port.out;

import java.util.List;
import java.util.Optional;

/** Turns texts into vectors with one embedding model: meaning as numbers, so that near texts have near vectors. */
public interface Embeddings {

    /** The model, or empty when none is configured (knowledge bases are then keyword-only). */
    Optional<String> model();

    /**
     * One vector per text, in order.
     *
     * @throws EmbeddingException when the endpoint fails or answers something else
     */
    List<float[]> embed(List<String> texts);

    class EmbeddingException extends RuntimeException {
        public EmbeddingException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
