package dev.hexaflow.domain.workflow;

import java.util.List;

/**
 * One field of a start form, read once from the start node's {@code variables}: its name, kind, whether it is
 * required, its default, its length limit (characters, or files for a file list), the options of a select, the
 * rules of a file field, and its data kept whole for the /parameters answer.
 *
 * @param maxLength 0 for no limit
 */
public record InputField(String variable, InputFieldKind kind, boolean required, Object defaultValue,
        long maxLength, List<String> options, FileRules fileRules, DataTree data) {

    /**
     * What a file field accepts; an empty list allows all.
     *
     * @param types      file types (document, image, audio, video, custom)
     * @param methods    transfer methods (remote_url, local_file)
     * @param extensions extensions for the custom type, such as {@code .pdf}
     */
    public record FileRules(List<String> types, List<String> methods, List<String> extensions) {
        public static final FileRules ANY = new FileRules(List.of(), List.of(), List.of());

        public FileRules {
            types = types == null ? List.of() : List.copyOf(types);
            methods = methods == null ? List.of() : List.copyOf(methods);
            extensions = extensions == null ? List.of() : List.copyOf(extensions);
        }
    }

    public InputField {
        if (variable == null) {
            throw new IllegalArgumentException("an input field needs its variable name");
        }
        if (kind == null) {
            throw new IllegalArgumentException("input field " + variable + " needs its kind");
        }
        if (maxLength < 0) {
            throw new IllegalArgumentException("input field " + variable + ": max_length cannot be negative");
        }
        options = options == null ? List.of() : List.copyOf(options);
        fileRules = fileRules == null ? FileRules.ANY : fileRules;
        data = data == null ? DataTree.of(java.util.Map.of()) : data;
    }

    /**
     * Reads one item of a start node's {@code variables}; a field with no type is a text input, as in Dify.
     *
     * @throws InvalidNodeDataException naming the field ({@code variables.<name>.type}) when it does not read
     */
    public static InputField of(DataTree field) {
        String name = field.string("variable");
        try {
            String type = field.string("type", InputFieldKind.TEXT_INPUT.wireName());
            InputFieldKind kind = InputFieldKind.fromWireName(type).orElseThrow(() -> new InvalidNodeDataException(
                    "type", "'" + type + "' is not an input type (one of " + InputFieldKind.wireNames() + ")"));
            return new InputField(name, kind, field.bool("required", false), Values.normalize(field.get("default")),
                    Math.max(0, field.longValue("max_length", 0)), texts(field, "options"),
                    new FileRules(texts(field, "allowed_file_types"), texts(field, "allowed_file_upload_methods"),
                            texts(field, "allowed_file_extensions")), field);
        } catch (InvalidNodeDataException e) {
            throw e.within("variables." + name);
        }
    }

    private static List<String> texts(DataTree field, String key) {
        return field.list(key).stream().map(String::valueOf).toList();
    }
}
