package dev.hexaflow.domain.trigger;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Dify's conversion of one webhook value to its configured type: strings from a query or a form are converted,
 * JSON values only type-checked, and a failure is refused with Dify's words.
 */
final class WebhookValues {

    private static final String DIGITS = "[0-9](?:_?[0-9])*";
    /** What Python's {@code float()} reads: underscores between digits, no hex, no Java suffixes. */
    private static final Pattern DECIMAL = Pattern.compile("[+-]?(?:" + DIGITS + "(?:\\.(?:" + DIGITS + ")?)?|\\."
            + DIGITS + ")(?:[eE][+-]?" + DIGITS + ")?");
    private static final Pattern SPECIAL = Pattern.compile("([+-]?)(inf|infinity|nan)", Pattern.CASE_INSENSITIVE);
    private static final Map<String, Boolean> BOOLEANS = Map.of("true", true, "false", false, "1", true,
            "0", false, "yes", true, "no", false);
    private static final double LONG_LIMIT = 0x1p63;
    /** The longest text read as a number: far more than any double or long needs. */
    static final int MOST_NUMBER_CHARS = 1000;

    private WebhookValues() {
    }

    /** The value converted (form) or checked (JSON); a refusal names the parameter as Dify does. */
    static Object convert(String name, Object value, WebhookParameterType type, boolean form) {
        try {
            return form ? fromForm(name, value, type) : checkedJson(value, type);
        } catch (IllegalArgumentException e) {
            throw WebhookRefusal.badRequest("Parameter '" + name + "' validation failed: " + e.getMessage());
        }
    }

    private static Object fromForm(String name, Object value, WebhookParameterType type) {
        String text = String.valueOf(value);
        switch (type) {
            case STRING:
                return value;
            case NUMBER:
                return pythonFloat(text).map(WebhookValues::intIfIntegral).orElseThrow(
                        () -> new IllegalArgumentException("Cannot convert '" + text + "' to number"));
            case BOOLEAN:
                Boolean bool = BOOLEANS.get(text.toLowerCase(Locale.ROOT));
                if (bool == null) {
                    throw new IllegalArgumentException("Cannot convert '" + text + "' to boolean");
                }
                return bool;
            default:
                throw new IllegalArgumentException("Unsupported type '" + type.wireName()
                        + "' for form data parameter '" + name + "'");
        }
    }

    private static Object checkedJson(Object value, WebhookParameterType type) {
        if (!type.accepts(value)) {
            throw new IllegalArgumentException("Expected " + type.label() + ", got " + pythonTypeName(value));
        }
        return value;
    }

    /** The number Python's {@code float(text)} reads, or empty where it raises. */
    static Optional<Double> pythonFloat(String text) {
        String stripped = text.strip();
        if (stripped.length() > MOST_NUMBER_CHARS) {
            return Optional.empty(); // a number past any double's digits, read no further (the regex recurses)
        }
        var special = SPECIAL.matcher(stripped);
        if (special.matches()) {
            boolean negative = special.group(1).equals("-");
            if (special.group(2).equalsIgnoreCase("nan")) {
                return Optional.of(Double.NaN);
            }
            return Optional.of(negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY);
        }
        if (!DECIMAL.matcher(stripped).matches()) {
            return Optional.empty();
        }
        return Optional.of(Double.parseDouble(stripped.replace("_", "")));
    }

    /** Dify answers {@code int(x)} for a whole number, which Python does not bound: a Long, else a BigInteger. */
    private static Object intIfIntegral(double number) {
        if (Double.isInfinite(number) || Double.isNaN(number) || number != Math.rint(number)) {
            return number;
        }
        if (Math.abs(number) < LONG_LIMIT) {
            return (long) number;
        }
        return new BigDecimal(number).toBigInteger();
    }

    /** The name Python's {@code type(value).__name__} gives the value Dify would have parsed. */
    static String pythonTypeName(Object value) {
        if (value == null) {
            return "NoneType";
        }
        if (value instanceof String || value instanceof Character) {
            return "str";
        }
        if (value instanceof Boolean) {
            return "bool";
        }
        if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte
                || value instanceof BigInteger) {
            return "int";
        }
        if (value instanceof Number) {
            return "float";
        }
        if (value instanceof Map<?, ?>) {
            return "dict";
        }
        if (value instanceof List<?>) {
            return "list";
        }
        return value.getClass().getSimpleName();
    }

    /** Python's truth of a value: None, empty text, empty collections, zero and False are false. */
    static boolean isFalsy(Object value) {
        if (value == null || Boolean.FALSE.equals(value)) {
            return true;
        }
        if (value instanceof String s) {
            return s.isEmpty();
        }
        if (value instanceof Map<?, ?> map) {
            return map.isEmpty();
        }
        if (value instanceof List<?> list) {
            return list.isEmpty();
        }
        return value instanceof Number n && n.doubleValue() == 0;
    }
}
