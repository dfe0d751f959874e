package dev.hexaflow.application.workflow.engine;

import dev.hexaflow.domain.workflow.DataTree;
import dev.hexaflow.domain.workflow.FileValue;
import dev.hexaflow.domain.workflow.Values;
import dev.hexaflow.domain.workflow.Workflow;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The start node's input form, checked as Dify's app generator checks it: only the form's variables are kept,
 * a missing value takes the default, and the first value that does not fit is refused with Dify's message.
 * File values arrive here already resolved to {@link FileValue}s.
 */
public final class InputForm {

    private InputForm() {
    }

    /** @throws InvalidInputsException with Dify's message for the first field at fault */
    public static Map<String, Object> check(Workflow workflow, Map<String, Object> given) {
        Map<String, Object> inputs = new LinkedHashMap<>();
        for (DataTree field : workflow.inputForm()) {
            String name = field.string("variable", "");
            if (name.isEmpty()) {
                continue;
            }
            Object value = check(field, name, Values.normalize(given.get(name)));
            if (value instanceof String text) {
                value = text.replace("\u0000", "");
            }
            inputs.put(name, value);
        }
        return inputs;
    }

    private static Object check(DataTree field, String name, Object value) {
        String type = field.string("type", "text-input");
        boolean required = field.bool("required", false);
        if (value == null) {
            if (required) {
                throw new InvalidInputsException(name + " is required in input form");
            }
            value = Values.normalize(field.get("default"));
            if (value == null) {
                return null;
            }
            if (value instanceof String s && s.isEmpty() && !type.equals("text-input") && !type.equals("paragraph")
                    && !type.equals("select")) {
                return null;
            }
        }
        if ((type.equals("file") || type.equals("file-list")) && !required && value instanceof String s
                && s.isEmpty()) {
            return null;
        }
        long maxLength = field.longValue("max_length", 0);
        switch (type) {
            case "text-input", "paragraph", "select" -> {
                if (!(value instanceof String text)) {
                    throw new InvalidInputsException("(type '" + type + "') " + name
                            + " in input form must be a string");
                }
                if (type.equals("select")) {
                    List<Object> options = field.list("options");
                    if (!options.contains(text)) {
                        throw new InvalidInputsException(name + " in input form must be one of the following: "
                                + Values.pythonRepr(options.stream().map(String::valueOf).toList()));
                    }
                } else if (maxLength > 0 && text.codePointCount(0, text.length()) > maxLength) {
                    throw new InvalidInputsException(name + " in input form must be less than " + maxLength
                            + " characters");
                }
                return text;
            }
            case "number" -> {
                if (Values.isNumber(value)) {
                    return value;
                }
                if (value instanceof String text) {
                    if (text.isBlank()) {
                        return null;
                    }
                    try {
                        return text.contains(".") ? (Object) Double.parseDouble(text.trim())
                                : (Object) Long.parseLong(text.trim());
                    } catch (NumberFormatException e) {
                        throw new InvalidInputsException(name + " in input form must be a valid number");
                    }
                }
                throw new InvalidInputsException(name + " in input form must be a valid number");
            }
            case "checkbox" -> {
                if (value instanceof String text) {
                    String normalized = text.strip().toLowerCase(java.util.Locale.ROOT);
                    if (List.of("true", "1", "yes", "on").contains(normalized)) {
                        return true;
                    }
                    if (List.of("false", "0", "no", "off").contains(normalized)) {
                        return false;
                    }
                } else if (Values.isNumber(value)) {
                    double number = Values.toDouble(value);
                    if (number == 1 || number == 0) {
                        return number == 1;
                    }
                }
                return value;
            }
            case "json_object" -> {
                if (value instanceof Map<?, ?> || value instanceof String s && s.isEmpty()) {
                    return value;
                }
                throw new InvalidInputsException(name + " in input form must be a dict");
            }
            case "file" -> {
                if (!(value instanceof FileValue)) {
                    throw new InvalidInputsException(name + " in input form must be a file");
                }
                return value;
            }
            case "file-list" -> {
                if (!(value instanceof List<?> files) || !files.stream().allMatch(FileValue.class::isInstance)) {
                    throw new InvalidInputsException(name + " in input form must be a list of files");
                }
                if (maxLength > 0 && files.size() > maxLength) {
                    throw new InvalidInputsException(name + " in input form must be less than " + maxLength
                            + " files");
                }
                return value;
            }
            default -> {
                return value;
            }
        }
    }
}
