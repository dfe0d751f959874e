package dev.hexaflow.domain.workflow;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A file given to a workflow, as Dify's runtime File: its category, how it came, and what is known of it.
 *
 * @param type           document, image, audio, video or custom
 * @param transferMethod local_file or remote_url
 * @param relatedId      the upload's id for local files
 * @param extension      with the dot, as Dify keeps it
 */
public record FileValue(String id, String type, String transferMethod, String remoteUrl, String relatedId,
        String filename, String extension, String mimeType, long size, String url) {

    /** The attributes a selector or a file condition may read, by Dify's names. */
    public Optional<Object> attribute(String name) {
        return Optional.ofNullable(switch (name) {
            case "type" -> type;
            case "size" -> size;
            case "name", "filename" -> filename;
            case "mime_type" -> mimeType;
            case "transfer_method" -> transferMethod;
            case "url" -> url != null ? url : remoteUrl;
            case "extension" -> extension;
            case "related_id" -> relatedId;
            case "id" -> id;
            case "remote_url" -> remoteUrl;
            default -> null;
        });
    }

    /** The object Dify shows for a file in outputs and to code nodes. */
    public Map<String, Object> asMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("dify_model_identity", "__dify__file__");
        map.put("id", id);
        map.put("tenant_id", null);
        map.put("type", type);
        map.put("transfer_method", transferMethod);
        map.put("remote_url", remoteUrl);
        map.put("related_id", relatedId);
        map.put("filename", filename);
        map.put("extension", extension);
        map.put("mime_type", mimeType);
        map.put("size", size);
        map.put("url", url != null ? url : remoteUrl);
        return map;
    }

    /** Whether a plain value is a file as {@link #asMap()} shows one. */
    public static boolean isFileMap(Object value) {
        return value instanceof Map<?, ?> map && "__dify__file__".equals(map.get("dify_model_identity"));
    }

    /** The file {@link #asMap()} showed, read back (a paused run's variables come back from the store so). */
    public static FileValue fromMap(Map<?, ?> map) {
        Object size = map.get("size");
        return new FileValue(text(map.get("id")), text(map.get("type")), text(map.get("transfer_method")),
                text(map.get("remote_url")), text(map.get("related_id")), text(map.get("filename")),
                text(map.get("extension")), text(map.get("mime_type")),
                size instanceof Number number ? number.longValue() : 0, text(map.get("url")));
    }

    private static String text(Object value) {
        return value == null ? null : value.toString();
    }
}
