package dev.hexaflow.workflow.port.out;

/** Turns a document's bytes into text, by its extension (with the dot) or else its MIME type. */
public interface DocumentTextExtractor {

    /**
     * @throws ExtractionException for a type it does not read, a file it cannot read, or one whose text or unpacked
     *                             size passes the extractor's bounds; its message is one sentence for the user
     */
    String extract(byte[] content, String extension, String mimeType);

    class ExtractionException extends RuntimeException {
        public ExtractionException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
