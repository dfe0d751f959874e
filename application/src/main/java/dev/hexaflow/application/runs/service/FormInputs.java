package dev.hexaflow.application.runs.service;

import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.workflow.FileValue;
import dev.hexaflow.domain.workflow.HumanInputForm;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Checks a person's answer against the form as Dify's {@code validate_human_input_submission} does (an offered
 * action, every input given, each of its kind) and reads it into the node's values: text as text, a file mapping as
 * the file it names. A refusal leaves the form open.
 */
final class FormInputs {

    private FormInputs() {
    }

    /**
     * @param files the file a mapping names, where this app may read it; empty for none
     * @throws ApiException INVALID_FORM_DATA, with Dify's message
     */
    static Map<String, Object> read(HumanInputForm form, String action, Map<String, Object> given,
            Function<Map<?, ?>, Optional<FileValue>> files) {
        if (action == null || !form.offers(action)) {
            throw refused("Invalid action: " + action);
        }
        List<String> missing = new ArrayList<>();
        form.inputs().forEach(input -> {
            String name = String.valueOf(input.get("output_variable_name"));
            if (!given.containsKey(name)) {
                missing.add(name);
            }
        });
        if (!missing.isEmpty()) {
            throw refused("Missing required inputs: " + String.join(", ", missing));
        }
        Map<String, Object> values = new LinkedHashMap<>();
        for (Map<String, Object> input : form.inputs()) {
            String name = String.valueOf(input.get("output_variable_name"));
            values.put(name, value(input, name, given.get(name), files));
        }
        return values;
    }

    private static Object value(Map<String, Object> input, String name, Object value,
            Function<Map<?, ?>, Optional<FileValue>> files) {
        String type = String.valueOf(input.get("type"));
        switch (type) {
            case "select" -> {
                if (!(value instanceof String text)) {
                    throw refused("Invalid value for select input '" + name + "': expected string");
                }
                List<?> options = constantOptions(input);
                if (options != null && !options.contains(text)) {
                    throw refused("Invalid value for select input '" + name + "': " + text);
                }
                return text;
            }
            case "file" -> {
                if (!(value instanceof Map<?, ?> mapping)) {
                    throw refused("Invalid value for file input '" + name + "': expected mapping");
                }
                return file(name, mapping, files, "file input");
            }
            case "file-list" -> {
                return fileList(input, name, value, files);
            }
            default -> {
                if (value != null && !(value instanceof String)) {
                    throw refused("Invalid value for " + type + " input '" + name + "': expected string");
                }
                return value == null ? "" : value;
            }
        }
    }

    private static List<FileValue> fileList(Map<String, Object> input, String name, Object value,
            Function<Map<?, ?>, Optional<FileValue>> files) {
        if (!(value instanceof List<?> list)) {
            throw refused("Invalid value for file list input '" + name + "': expected list");
        }
        Object limit = input.get("number_limits");
        if (limit instanceof Number most && most.intValue() > 0 && list.size() > most.intValue()) {
            throw refused("Invalid value for file list input '" + name + "': exceeds number limit");
        }
        List<FileValue> read = new ArrayList<>();
        for (Object item : list) {
            if (!(item instanceof Map<?, ?> mapping)) {
                throw refused("Invalid value for file list input '" + name + "': expected list of mappings");
            }
            read.add(file(name, mapping, files, "file list input"));
        }
        return read;
    }

    private static FileValue file(String name, Map<?, ?> mapping, Function<Map<?, ?>, Optional<FileValue>> files,
            String kind) {
        return files.apply(mapping).orElseThrow(() -> refused("Invalid value for " + kind + " '" + name
                + "': file is not allowed by config"));
    }

    /** The select's options where the DSL gives them; null where they come from a variable (any text is taken). */
    private static List<?> constantOptions(Map<String, Object> input) {
        if (input.get("option_source") instanceof Map<?, ?> source && !"variable".equals(source.get("type"))
                && source.get("value") instanceof List<?> options) {
            return options;
        }
        return null;
    }

    private static ApiException refused(String message) {
        return new ApiException(ApiError.INVALID_FORM_DATA, message);
    }
}
