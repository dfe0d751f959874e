package dev.hexaflow.application.knowledge.port.in;

import java.util.List;

/** Dify's {@code operation_data}: for each document, the values it holds from now on. */
public record SetDocumentMetadataCommand(String baseId, List<DocumentValues> operations) {

    /** Hexaflow's limit on one value (Dify keeps any length): values are compared, not read. */
    public static final int MAX_VALUE = 1000;

    public SetDocumentMetadataCommand {
        if (baseId == null || baseId.isBlank()) {
            throw new IllegalArgumentException("baseId must not be blank");
        }
        operations = operations == null ? List.of() : List.copyOf(operations);
    }

    /** One document's new values. */
    public record DocumentValues(String documentId, List<Value> values) {
        public DocumentValues {
            values = values == null ? List.of() : List.copyOf(values);
        }
    }

    /** A value for a field, named by its id and name; null when the document holds none. */
    public record Value(String fieldId, String name, String value) {
    }
}
