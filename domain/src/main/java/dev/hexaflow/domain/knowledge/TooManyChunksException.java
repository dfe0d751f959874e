package dev.hexaflow.domain.knowledge;

/** A document whose rules would split it into more chunks, or more text, than one document may have. */
public final class TooManyChunksException extends RuntimeException {

    public TooManyChunksException(String message) {
        super(message);
    }
}
