package dev.hexaflow.domain.workflow;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads JSON text into workflow values (Long for integers, Double for other numbers), for DSL constants. */
public final class JsonText {

    private final String text;
    private int pos;

    private JsonText(String text) {
        this.text = text;
    }

    /** @throws IllegalArgumentException naming the position of the first fault */
    public static Object parse(String text) {
        JsonText reader = new JsonText(text);
        reader.space();
        Object value = reader.value();
        reader.space();
        if (reader.pos != text.length()) {
            throw reader.fault("text after the JSON value");
        }
        return value;
    }

    private Object value() {
        if (pos >= text.length()) {
            throw fault("the text ends where a value was expected");
        }
        char c = text.charAt(pos);
        return switch (c) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            case 't' -> word("true", Boolean.TRUE);
            case 'f' -> word("false", Boolean.FALSE);
            case 'n' -> word("null", null);
            default -> number();
        };
    }

    private Map<String, Object> object() {
        Map<String, Object> map = new LinkedHashMap<>();
        pos++;
        space();
        if (peek('}')) {
            pos++;
            return map;
        }
        while (true) {
            space();
            if (!peek('"')) {
                throw fault("expected a quoted key");
            }
            String key = string();
            space();
            expect(':');
            space();
            map.put(key, value());
            space();
            if (peek(',')) {
                pos++;
                continue;
            }
            expect('}');
            return map;
        }
    }

    private List<Object> array() {
        List<Object> list = new ArrayList<>();
        pos++;
        space();
        if (peek(']')) {
            pos++;
            return list;
        }
        while (true) {
            space();
            list.add(value());
            space();
            if (peek(',')) {
                pos++;
                continue;
            }
            expect(']');
            return list;
        }
    }

    private String string() {
        StringBuilder out = new StringBuilder();
        pos++;
        while (pos < text.length()) {
            char c = text.charAt(pos++);
            if (c == '"') {
                return out.toString();
            }
            if (c == '\\') {
                if (pos >= text.length()) {
                    break;
                }
                char e = text.charAt(pos++);
                switch (e) {
                    case 'n' -> out.append('\n');
                    case 't' -> out.append('\t');
                    case 'r' -> out.append('\r');
                    case 'b' -> out.append('\b');
                    case 'f' -> out.append('\f');
                    case 'u' -> {
                        if (pos + 4 > text.length()) {
                            throw fault("a \\u escape needs four hex digits");
                        }
                        out.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
                        pos += 4;
                    }
                    default -> out.append(e);
                }
            } else {
                out.append(c);
            }
        }
        throw fault("a string is never closed");
    }

    private Object number() {
        int start = pos;
        while (pos < text.length() && "+-0123456789.eE".indexOf(text.charAt(pos)) >= 0) {
            pos++;
        }
        String number = text.substring(start, pos);
        if (number.isEmpty()) {
            throw fault("unexpected character '" + text.charAt(pos) + "'");
        }
        try {
            if (number.contains(".") || number.contains("e") || number.contains("E")) {
                return Double.parseDouble(number);
            }
            return Long.parseLong(number);
        } catch (NumberFormatException e) {
            throw fault("'" + number + "' is not a number");
        }
    }

    private Object word(String word, Object value) {
        if (!text.startsWith(word, pos)) {
            throw fault("unexpected character '" + text.charAt(pos) + "'");
        }
        pos += word.length();
        return value;
    }

    private boolean peek(char c) {
        return pos < text.length() && text.charAt(pos) == c;
    }

    private void expect(char c) {
        if (!peek(c)) {
            throw fault("expected '" + c + "'");
        }
        pos++;
    }

    private void space() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
    }

    private IllegalArgumentException fault(String problem) {
        return new IllegalArgumentException("not valid JSON at character " + pos + ": " + problem);
    }
}
