package dev.hexaflow.workflow.engine;

import dev.hexaflow.domain.workflow.FileValue;
import dev.hexaflow.domain.workflow.InputField;
import dev.hexaflow.domain.workflow.InputFieldKind;
import dev.hexaflow.domain.workflow.Values;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The start node's input form, checked as Dify's app generator checks it: only the form's variables are kept,
 * a missing value takes the default, and the first value that does not fit is refused with Dify's message.
 * File values arrive here already resolved to {@link FileValue}s.
 */
public final class InputForm {

    private static final List<String> TRUE_WORDS = List.of("true", "1", "yes", "on");
    private static final List<String> FALSE_WORDS = List.of("false", "0", "no", "off");

    private InputForm() {
    }

    /** @throws InvalidInputsException with Dify's message for the first field at fault */
    public static Map<String, Object> check(List<InputField> form, Map<String, Object> given) {
        Map<String, Object> inputs = new LinkedHashMap<>();
        for (InputField field : form) {
            if (field.variable().isEmpty()) {
                continue;
            }
            Object value = check(field, Values.normalize(given.get(field.variable())));
            if (value instanceof String text) {
                value = text.replace("\u0000", "");
            }
            inputs.put(field.variable(), value);
        }
        return inputs;
    }

    private static Object check(InputField field, Object given) {
        boolean left = given == null || !field.required() && field.kind() == InputFieldKind.SELECT && "".equals(given);
        Object value = left ? defaultOf(field) : given;
        if (value == null || !field.required() && field.kind().isFile() && "".equals(value)) {
            return null;
        }
        if (left && "".equals(value)) {
            // An optional field left empty keeps its empty default unchecked, as Dify's generators do: an empty
            // select is no choice, not a wrong one.
            return value;
        }
        return switch (field.kind()) {
            case TEXT_INPUT, PARAGRAPH -> text(field, value);
            case SELECT -> option(field, value);
            case NUMBER -> number(field, value);
            case CHECKBOX -> checkbox(value);
            case JSON_OBJECT -> object(field, value);
            case FILE -> file(field, value);
            case FILE_LIST -> files(field, value);
            case EXTERNAL_DATA_TOOL -> value;
        };
    }

    /** The value of a field the client left out: refused when required, else its default (none if empty). */
    private static Object defaultOf(InputField field) {
        if (field.required()) {
            throw new InvalidInputsException(field.variable() + " is required in input form");
        }
        Object value = field.defaultValue();
        return "".equals(value) && !field.kind().keepsEmptyDefault() ? null : value;
    }

    private static String string(InputField field, Object value) {
        if (!(value instanceof String text)) {
            throw new InvalidInputsException("(type '" + field.kind().wireName() + "') " + field.variable()
                    + " in input form must be a string");
        }
        return text;
    }

    private static String text(InputField field, Object value) {
        String text = string(field, value);
        long maxLength = field.maxLength();
        if (maxLength > 0 && text.codePointCount(0, text.length()) > maxLength) {
            throw new InvalidInputsException(field.variable() + " in input form must be less than " + maxLength
                    + " characters");
        }
        return text;
    }

    private static String option(InputField field, Object value) {
        String text = string(field, value);
        if (!field.options().contains(text)) {
            throw new InvalidInputsException(field.variable() + " in input form must be one of the following: "
                    + Values.pythonRepr(field.options()));
        }
        return text;
    }

    private static Object number(InputField field, Object value) {
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
                // refused below, as any other value that is not a number
            }
        }
        throw new InvalidInputsException(field.variable() + " in input form must be a valid number");
    }

    /** Words and 0/1 that mean a boolean become one; anything else is passed on as given, as Dify does. */
    private static Object checkbox(Object value) {
        if (value instanceof String text) {
            String word = text.strip().toLowerCase(Locale.ROOT);
            if (TRUE_WORDS.contains(word)) {
                return true;
            }
            if (FALSE_WORDS.contains(word)) {
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

    private static Object object(InputField field, Object value) {
        if (value instanceof Map<?, ?> || "".equals(value)) {
            return value;
        }
        throw new InvalidInputsException(field.variable() + " in input form must be a dict");
    }

    private static Object file(InputField field, Object value) {
        if (!(value instanceof FileValue)) {
            throw new InvalidInputsException(field.variable() + " in input form must be a file");
        }
        return value;
    }

    private static Object files(InputField field, Object value) {
        if (!(value instanceof List<?> files) || !files.stream().allMatch(FileValue.class::isInstance)) {
            throw new InvalidInputsException(field.variable() + " in input form must be a list of files");
        }
        if (field.maxLength() > 0 && files.size() > field.maxLength()) {
            throw new InvalidInputsException(field.variable() + " in input form must be less than "
                    + field.maxLength() + " files");
        }
        return value;
    }
}
