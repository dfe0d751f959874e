package dev.hexaflow.application.tools.port.out;

import dev.hexaflow.domain.tool.ToolBinding;

/** Reads OpenAPI 3 documents, so that a binding to an operation is refused when the operation cannot run. */
public interface OpenApiDocuments {

    /**
     * Reads the document (fetching it when given by URL) and finds the operation in it.
     *
     * @throws UnusableOperationException naming what is wrong: a document that cannot be read or parsed, an
     *                                    operation it does not hold, a server it does not name
     */
    void check(ToolBinding.OpenApiOperation operation);

    /** An OpenAPI document or operation a tool cannot run: its message says why. */
    final class UnusableOperationException extends RuntimeException {
        public UnusableOperationException(String message) {
            super(message);
        }
    }
}
