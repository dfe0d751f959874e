package dev.hexaflow.domain.knowledge;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Dify's built-in metadata fields, which every document has when its base turns them on: its name, uploader, upload
 * and last update dates (Unix seconds) and source.
 */
public final class BuiltInMetadata {

    /** The id Dify gives every built-in field in a document's {@code doc_metadata}. */
    public static final String ID = "built-in";

    private static final Map<String, MetadataType> FIELDS = fields();

    private BuiltInMetadata() {
    }

    private static Map<String, MetadataType> fields() {
        Map<String, MetadataType> fields = new LinkedHashMap<>();
        fields.put("document_name", MetadataType.STRING);
        fields.put("uploader", MetadataType.STRING);
        fields.put("upload_date", MetadataType.TIME);
        fields.put("last_update_date", MetadataType.TIME);
        fields.put("source", MetadataType.STRING);
        return fields;
    }

    /** The built-in fields' names with their types, in Dify's order. */
    public static Map<String, MetadataType> types() {
        return FIELDS;
    }

    public static List<String> names() {
        return List.copyOf(FIELDS.keySet());
    }

    /**
     * The document's built-in values, as Dify writes them: {@code source} is Dify's metadata data source
     * ({@code file_upload} for an uploaded file); a document added through the API has no uploader.
     */
    public static Map<String, String> of(KnowledgeDocument document) {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("document_name", document.name());
        values.put("uploader", "");
        values.put("upload_date", String.valueOf(document.created().getEpochSecond()));
        values.put("last_update_date", String.valueOf(document.created().getEpochSecond()));
        values.put("source", "upload_file".equals(document.source()) ? "file_upload" : document.source());
        return values;
    }
}
