package dev.hexaflow.domain.workflow;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The values a workflow works with, as plain Java: String, Long (Dify's integer), Double (Dify's float),
 * Boolean, {@code Map<String, Object>}, {@code List<Object>}, {@link FileValue}, or null; and how Dify turns
 * each into text.
 */
public final class Values {

    private Values() {
    }

    /** Brings any numeric, map or list value into the canonical form above. */
    @SuppressWarnings("unchecked")
    public static Object normalize(Object value) {
        if (value == null || value instanceof String || value instanceof Boolean || value instanceof Long
                || value instanceof Double || value instanceof FileValue) {
            return value;
        }
        if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof BigInteger big) {
            return big.bitLength() < 64 ? (Object) big.longValue() : (Object) big.doubleValue();
        }
        if (value instanceof BigDecimal decimal) {
            return decimal.doubleValue();
        }
        if (value instanceof Number number) {
            return number.doubleValue();
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            ((Map<Object, Object>) map).forEach((k, v) -> copy.put(String.valueOf(k), normalize(v)));
            return copy;
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>(list.size());
            for (Object item : list) {
                copy.add(normalize(item));
            }
            return copy;
        }
        if (value instanceof CharSequence text) {
            return text.toString();
        }
        throw new IllegalArgumentException("not a workflow value: " + value.getClass().getName());
    }

    public static boolean isNumber(Object value) {
        return value instanceof Long || value instanceof Double;
    }

    public static double toDouble(Object value) {
        return ((Number) value).doubleValue();
    }

    /**
     * The text Dify substitutes for a value in a template or streams for it: strings as they are, numbers and
     * booleans as Python prints them, objects and string arrays as JSON, other arrays as Python's list text,
     * empty arrays, files and null as nothing.
     */
    public static String text(Object value) {
        if (value == null || value instanceof FileValue) {
            return "";
        }
        if (value instanceof String s) {
            return s;
        }
        if (value instanceof Map<?, ?>) {
            return pythonJson(value);
        }
        if (value instanceof List<?> list) {
            if (list.isEmpty() || list.stream().allMatch(item -> item instanceof FileValue)) {
                return "";
            }
            if (list.stream().allMatch(item -> item instanceof String)) {
                return pythonJson(value);
            }
            return pythonRepr(value);
        }
        return pythonRepr(value);
    }

    /**
     * The markdown Dify streams for a value: objects as indented JSON, arrays as "- item" lines, files as links
     * (images as pictures), everything else as its text.
     */
    public static String markdown(Object value) {
        if (value instanceof FileValue file) {
            String link = "[" + file.filename() + "](" + file.attribute("url").orElse("") + ")";
            return "image".equals(file.type()) ? "!" + link : link;
        }
        if (value instanceof Map<?, ?>) {
            return pythonJsonIndented(value);
        }
        if (value instanceof List<?> list) {
            StringBuilder out = new StringBuilder();
            boolean files = !list.isEmpty() && list.stream().allMatch(item -> item instanceof FileValue);
            for (Object item : list) {
                if (out.length() > 0) {
                    out.append('\n');
                }
                out.append(files ? markdown(item) : "- " + pythonRepr(item));
            }
            return out.toString();
        }
        return value == null ? "" : text(value);
    }

    /** JSON as Python's {@code json.dumps(value, indent=2, ensure_ascii=False)} writes it. */
    public static String pythonJsonIndented(Object value) {
        StringBuilder out = new StringBuilder();
        writeIndented(out, value, 0);
        return out.toString();
    }

    /** Python's json.dumps with indent=2. */
    private static void writeIndented(StringBuilder out, Object value, int depth) {
        String pad = "  ".repeat(depth + 1);
        if (value instanceof Map<?, ?> map && !map.isEmpty()) {
            out.append("{\n");
            int i = 0;
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                out.append(pad);
                quoteJson(out, String.valueOf(entry.getKey()));
                out.append(": ");
                writeIndented(out, entry.getValue(), depth + 1);
                out.append(++i < map.size() ? ",\n" : "\n");
            }
            out.append("  ".repeat(depth)).append('}');
        } else if (value instanceof List<?> list && !list.isEmpty()) {
            out.append("[\n");
            for (int i = 0; i < list.size(); i++) {
                out.append(pad);
                writeIndented(out, list.get(i), depth + 1);
                out.append(i + 1 < list.size() ? ",\n" : "\n");
            }
            out.append("  ".repeat(depth)).append(']');
        } else {
            writeJson(out, value, ", ", ": ");
        }
    }

    /** JSON as Python's {@code json.dumps(value, ensure_ascii=False)} writes it: ", " and ": " separators. */
    public static String pythonJson(Object value) {
        StringBuilder out = new StringBuilder();
        writeJson(out, value, ", ", ": ");
        return out.toString();
    }

    /** Compact JSON, for logs and for values that travel as JSON text. */
    public static String json(Object value) {
        StringBuilder out = new StringBuilder();
        writeJson(out, value, ",", ":");
        return out.toString();
    }

    private static void writeJson(StringBuilder out, Object value, String comma, String colon) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof String s) {
            quoteJson(out, s);
        } else if (value instanceof Boolean b) {
            out.append(b ? "true" : "false");
        } else if (value instanceof Double d) {
            out.append(d.isNaN() ? "NaN" : d.isInfinite() ? (d > 0 ? "Infinity" : "-Infinity") : pythonFloat(d));
        } else if (value instanceof Number n) {
            out.append(n.longValue());
        } else if (value instanceof FileValue file) {
            writeJson(out, file.asMap(), comma, colon);
        } else if (value instanceof Map<?, ?> map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                if (!first) {
                    out.append(comma);
                }
                first = false;
                quoteJson(out, String.valueOf(entry.getKey()));
                out.append(colon);
                writeJson(out, entry.getValue(), comma, colon);
            }
            out.append('}');
        } else if (value instanceof List<?> list) {
            out.append('[');
            for (int i = 0; i < list.size(); i++) {
                if (i > 0) {
                    out.append(comma);
                }
                writeJson(out, list.get(i), comma, colon);
            }
            out.append(']');
        } else {
            quoteJson(out, value.toString());
        }
    }

    private static void quoteJson(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    /** The text Python's {@code str()} gives a value: True, None, 5.0, ['a', 1], {'k': 'v'}. */
    public static String pythonRepr(Object value) {
        StringBuilder out = new StringBuilder();
        writeRepr(out, value, true);
        return out.toString();
    }

    private static void writeRepr(StringBuilder out, Object value, boolean top) {
        if (value == null) {
            out.append("None");
        } else if (value instanceof Boolean b) {
            out.append(b ? "True" : "False");
        } else if (value instanceof Double d) {
            out.append(d.isNaN() ? "nan" : d.isInfinite() ? (d > 0 ? "inf" : "-inf") : pythonFloat(d));
        } else if (value instanceof Number n) {
            out.append(n.longValue());
        } else if (value instanceof String s) {
            if (top) {
                out.append(s);
            } else {
                quoteRepr(out, s);
            }
        } else if (value instanceof FileValue file) {
            writeRepr(out, file.asMap(), false);
        } else if (value instanceof Map<?, ?> map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                if (!first) {
                    out.append(", ");
                }
                first = false;
                quoteRepr(out, String.valueOf(entry.getKey()));
                out.append(": ");
                writeRepr(out, entry.getValue(), false);
            }
            out.append('}');
        } else if (value instanceof List<?> list) {
            out.append('[');
            for (int i = 0; i < list.size(); i++) {
                if (i > 0) {
                    out.append(", ");
                }
                writeRepr(out, list.get(i), false);
            }
            out.append(']');
        } else {
            out.append(value);
        }
    }

    private static void quoteRepr(StringBuilder out, String s) {
        char quote = s.indexOf('\'') >= 0 && s.indexOf('"') < 0 ? '"' : '\'';
        out.append(quote);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == quote || c == '\\') {
                out.append('\\').append(c);
            } else if (c == '\n') {
                out.append("\\n");
            } else if (c == '\r') {
                out.append("\\r");
            } else if (c == '\t') {
                out.append("\\t");
            } else if (c < 0x20 || c == 0x7f) {
                out.append(String.format("\\x%02x", (int) c));
            } else {
                out.append(c);
            }
        }
        out.append(quote);
    }

    /** A float as Python's repr writes it: 5.0, 0.1, 1e+16, 1.5e-05. */
    public static String pythonFloat(double d) {
        if (d == Math.rint(d) && Math.abs(d) < 1e16) {
            return BigDecimal.valueOf(d).setScale(1).toPlainString();
        }
        double magnitude = Math.abs(d);
        if (magnitude >= 1e-4 && magnitude < 1e16) {
            return BigDecimal.valueOf(d).toPlainString();
        }
        String java = Double.toString(d);
        int e = java.indexOf('E');
        if (e < 0) {
            return java;
        }
        String mantissa = java.substring(0, e);
        if (mantissa.endsWith(".0")) {
            mantissa = mantissa.substring(0, mantissa.length() - 2);
        }
        int exponent = Integer.parseInt(java.substring(e + 1));
        return mantissa + "e" + (exponent < 0 ? "-" : "+") + (Math.abs(exponent) < 10 ? "0" : "")
                + Math.abs(exponent);
    }

    /** Dify's name for the type of a value: string, number, boolean, object, file, array[...], or none. */
    public static String typeName(Object value) {
        if (value == null) {
            return "none";
        }
        if (value instanceof String) {
            return "string";
        }
        if (isNumber(value)) {
            return "number";
        }
        if (value instanceof Boolean) {
            return "boolean";
        }
        if (value instanceof FileValue) {
            return "file";
        }
        if (value instanceof Map<?, ?>) {
            return "object";
        }
        if (value instanceof List<?> list) {
            if (list.isEmpty()) {
                return "array[any]";
            }
            String first = typeName(list.get(0));
            for (Object item : list) {
                if (!typeName(item).equals(first)) {
                    return "array[any]";
                }
            }
            return "array[" + first + "]";
        }
        return value.getClass().getSimpleName();
    }
}
