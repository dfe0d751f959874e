package dev.hexaflow.application.knowledge.port.in;

import dev.hexaflow.domain.knowledge.KnowledgeDocument;
import dev.hexaflow.domain.knowledge.MetadataField;
import dev.hexaflow.domain.knowledge.MetadataType;
import java.util.List;

/**
 * A base's metadata fields (Dify's dataset metadata), its built-in fields, and its documents' values, which metadata
 * filters test when it is searched. A refused request changes nothing.
 */
public interface ManageMetadataUseCase {

    /** A field with how many documents hold a value for it. */
    record CountedField(MetadataField field, int documents) {
    }

    /** A base's fields, and whether its documents show the built-in ones. */
    record BaseMetadata(List<CountedField> fields, boolean builtInEnabled) {
    }

    /** One value of a document, named by its field (the built-in fields' id is {@code built-in}). */
    record MetadataValue(String fieldId, String name, MetadataType type, String value) {
    }

    /**
     * @throws KnowledgeException NOT_FOUND for an unknown base; INVALID for a name blank, longer than
     *     {@link MetadataField#MAX_NAME}, taken by another field or a built-in one, or a base that has
     *     {@link MetadataField#MAX_PER_BASE} fields already
     */
    MetadataField create(String baseId, String name, MetadataType type);

    /** Renames the field, and its values in every document. Errors as for {@link #create}, and NOT_FOUND. */
    MetadataField rename(String baseId, String fieldId, String name);

    /** Deletes the field and its values in every document. @throws KnowledgeException NOT_FOUND */
    void delete(String baseId, String fieldId);

    /** @throws KnowledgeException NOT_FOUND for an unknown base */
    BaseMetadata fields(String baseId);

    /** Shows, or stops showing, the built-in fields on the base's documents. */
    void enableBuiltIn(String baseId, boolean enabled);

    /**
     * Replaces each named document's values with the ones given, all documents or none.
     *
     * @throws KnowledgeException NOT_FOUND for an unknown base; INVALID for a document not in the base, a field not
     *     of the base, a name that is not its field's, or a value longer than {@link SetDocumentMetadataCommand#MAX_VALUE}
     */
    void setDocumentMetadata(SetDocumentMetadataCommand command);

    /** The document's values with their fields, built-in ones included when its base shows them. */
    List<MetadataValue> valuesOf(KnowledgeDocument document);
}
