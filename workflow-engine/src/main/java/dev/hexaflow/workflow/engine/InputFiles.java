package dev.hexaflow.workflow.engine;

import dev.hexaflow.domain.app.FileCategory;
import dev.hexaflow.domain.workflow.FileValue;
import dev.hexaflow.domain.workflow.InputField;
import dev.hexaflow.domain.workflow.InputField.FileRules;
import dev.hexaflow.domain.workflow.InputFieldKind;
import dev.hexaflow.domain.workflow.Workflow;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Turns the file mappings a client sends for the start form's file and file-list fields
 * ({@code {"type", "transfer_method", "url" | "upload_file_id"}}) into files, checking them as Dify does: the
 * transfer method says which of url and upload_file_id is given (never both), the type is one Dify knows and
 * the field allows, and an upload must be one this user may use.
 */
public final class InputFiles {

    static final Set<String> TYPES = Set.of("document", "image", "audio", "video", "custom");

    /** Finds an upload by its id for a user; empty when there is none the user may use. */
    @FunctionalInterface
    public interface Uploads {
        Uploads NONE = (id, user) -> Optional.empty();

        Optional<FileValue> find(String uploadFileId, String userId);
    }

    private InputFiles() {
    }

    /**
     * Answers the inputs with every file mapping of a file field made a file; other values are left as they are.
     *
     * @throws InvalidInputsException naming the field and what is wrong
     */
    public static Map<String, Object> resolve(List<InputField> form, Map<String, Object> inputs, String userId,
            Uploads uploads) {
        Map<String, Object> resolved = new LinkedHashMap<>(inputs);
        for (InputField field : form) {
            String name = field.variable();
            Object value = inputs.get(name);
            if (field.kind() == InputFieldKind.FILE && value instanceof Map<?, ?> mapping) {
                resolved.put(name, file(field.fileRules(), name, mapping, userId, uploads));
            } else if (field.kind() == InputFieldKind.FILE_LIST && value instanceof List<?> list
                    && list.stream().allMatch(item -> item instanceof Map<?, ?>)) {
                List<Object> files = new ArrayList<>();
                for (Object item : list) {
                    files.add(file(field.fileRules(), name, (Map<?, ?>) item, userId, uploads));
                }
                resolved.put(name, files);
            }
        }
        return resolved;
    }

    /** Files given as the request's top-level files (sys.files), checked the same way. */
    public static List<FileValue> resolveAll(List<?> mappings, String userId, Uploads uploads) {
        List<FileValue> files = new ArrayList<>();
        for (Object mapping : mappings) {
            if (!(mapping instanceof Map<?, ?> map)) {
                throw new InvalidInputsException("files must be a list of file objects");
            }
            files.add(file(FileRules.ANY, "files", map, userId, uploads));
        }
        return files;
    }

    private static FileValue file(FileRules rules, String name, Map<?, ?> mapping, String userId, Uploads uploads) {
        String method = text(mapping.get("transfer_method"));
        String type = text(mapping.get("type"));
        String url = text(mapping.get("url"));
        String uploadId = text(mapping.get("upload_file_id"));
        if (type == null || !TYPES.contains(type)) {
            throw new InvalidInputsException(name + ": file type must be one of document, image, audio, video, "
                    + "custom");
        }
        List<String> allowedTypes = rules.types();
        if (!allowedTypes.isEmpty() && !allowedTypes.contains(type) && !allowedTypes.contains("custom")) {
            throw new InvalidInputsException(name + ": file type " + type + " is not allowed here; allowed: "
                    + String.join(", ", allowedTypes));
        }
        if (!"remote_url".equals(method) && !"local_file".equals(method)) {
            throw new InvalidInputsException(name + ": transfer_method must be remote_url or local_file");
        }
        List<String> allowedMethods = rules.methods();
        if (!allowedMethods.isEmpty() && !allowedMethods.contains(method)) {
            throw new InvalidInputsException(name + ": transfer method " + method + " is not allowed here");
        }
        if (url != null && uploadId != null) {
            throw new InvalidInputsException(name + ": give url or upload_file_id, not both");
        }
        FileValue file;
        if ("remote_url".equals(method)) {
            if (url == null || url.isBlank()) {
                throw new InvalidInputsException(name + ": a remote_url file needs its url");
            }
            file = remote(type, url, name);
        } else {
            if (uploadId == null || uploadId.isBlank()) {
                throw new InvalidInputsException(name + ": a local_file file needs its upload_file_id");
            }
            FileValue upload = uploads.find(uploadId, userId).orElseThrow(() -> new InvalidInputsException(
                    name + ": no upload " + uploadId + " of this user"));
            file = new FileValue(upload.id(), type, "local_file", null, upload.relatedId(), upload.filename(),
                    upload.extension(), upload.mimeType(), upload.size(), upload.url());
        }
        String detected = detectedType(file.extension());
        if (!type.equals("custom") && detected != null && !detected.equals(type)) {
            throw new InvalidInputsException("Detected file type does not match the specified type. Please verify "
                    + "the file.");
        }
        List<String> extensions = rules.extensions();
        if (type.equals("custom") && !extensions.isEmpty() && file.extension() != null && extensions.stream()
                .map(e -> e.toLowerCase(Locale.ROOT)).noneMatch(
                        file.extension().toLowerCase(Locale.ROOT)::equals)) {
            throw new InvalidInputsException(name + ": files of type " + file.extension() + " are not allowed here");
        }
        return file;
    }

    /** The type Dify detects from an extension, or null where it cannot tell. */
    static String detectedType(String extension) {
        FileCategory category = FileCategory.of(extension);
        return category == FileCategory.CUSTOM ? null : category.wireName();
    }

    private static FileValue remote(String type, String url, String name) {
        URI uri;
        try {
            uri = URI.create(url.strip());
        } catch (IllegalArgumentException e) {
            throw new InvalidInputsException(name + ": '" + url + "' is not a URL");
        }
        if (uri.getScheme() == null || !(uri.getScheme().equals("http") || uri.getScheme().equals("https"))) {
            throw new InvalidInputsException(name + ": the url must be http or https");
        }
        String path = uri.getPath() == null ? "" : uri.getPath();
        String filename = path.substring(path.lastIndexOf('/') + 1);
        int dot = filename.lastIndexOf('.');
        String extension = dot < 0 ? "" : filename.substring(dot).toLowerCase(Locale.ROOT);
        return new FileValue(UUID.randomUUID().toString(), type, "remote_url", url, null,
                filename.isEmpty() ? "file" : filename, extension, MimeTypes.of(extension), -1, url);
    }

    private static String text(Object value) {
        return value == null ? null : String.valueOf(value);
    }
}
